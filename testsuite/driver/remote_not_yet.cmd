# known options of the reference that are not implemented are refused, not ignored
# ARGV: --remote somehost -p1 -e 'probe begin { }'
# RC: 1
