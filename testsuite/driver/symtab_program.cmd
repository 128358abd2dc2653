# -d of a user-space program needs user-space probes (not yet)
# ARGV: -d /bin/sh -p1 -e 'probe begin { }'
# RC: 1
