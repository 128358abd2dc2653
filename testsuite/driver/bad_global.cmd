# -G takes NAME=VALUE
# ARGV: -G novalue -p1 -e 'probe begin { }'
# RC: 1
