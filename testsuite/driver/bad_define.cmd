# -D takes NAME or NAME=VALUE
# ARGV: -D 1x=2 -p1 -e 'probe begin { }'
# RC: 1
