# -S without -o is refused, with the usage
# PROG: staprun
# ARGV: -S 1,3 x.ko
# RC: 1
