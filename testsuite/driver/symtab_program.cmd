# -d of a user-space program is accepted at every pass (its tables are written at pass 3 when the script uses them)
# ARGV: -d /bin/sh -p1 -e 'probe begin { }'
# RC: 0
