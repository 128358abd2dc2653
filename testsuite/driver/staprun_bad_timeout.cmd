# -T 0
# PROG: staprun
# ARGV: -T 0 m.ko
# RC: 1
