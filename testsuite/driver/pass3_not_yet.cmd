# asking for pass 3 and beyond is refused clearly, after pass 2 succeeded
# ARGV: -e 'probe begin { print(1) }'
# RC: 1
