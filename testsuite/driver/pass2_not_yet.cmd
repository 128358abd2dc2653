# asking for pass 2 and beyond is refused clearly, after pass 1 succeeded
# ARGV: -e 'probe begin { }'
# RC: 1
