# --color=always: the reference's escape sequences around the prefix, the location, the token and the caret
# ARGV: --color=always -p2 -e 'probe begin { x = 1 } probe begin { println(y) }'
# RC: 1
