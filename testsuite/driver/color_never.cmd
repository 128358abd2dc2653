# --color=never: plain messages
# ARGV: --color=never -p2 -e 'probe begin { x = 1 }'
# RC: 1
