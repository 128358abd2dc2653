# -o without its argument
# PROG: staprun
# ARGV: -o
# RC: 1
