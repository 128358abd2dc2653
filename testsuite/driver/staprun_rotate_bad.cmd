# -S with a bad size is refused, with the usage
# PROG: staprun
# ARGV: -o out -S 0,3 x.ko
# RC: 1
