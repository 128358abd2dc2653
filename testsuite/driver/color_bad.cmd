# --color takes never, always or auto
# ARGV: --color=sometimes -p2 -e 'probe begin { }'
# RC: 1
