# --monitor=N takes whole seconds, at least 1
# ARGV: --monitor=0 -p1 -e 'probe begin { }'
# RC: 1
