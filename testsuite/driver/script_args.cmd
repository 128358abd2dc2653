# $1 pastes tokens, @2 a string, $# counts (A-LEX-10)
# ARGV: -p1 -e 'probe begin { printf("%d %s %d\n", $1, @2, $#) }' '5+5' hi
# RC: 0
