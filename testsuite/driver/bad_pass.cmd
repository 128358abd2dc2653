# only passes 1 to 5 exist
# ARGV: -p 9 -e 'probe begin { }'
# RC: 1
