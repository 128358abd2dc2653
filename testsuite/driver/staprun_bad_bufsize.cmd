# -s out of range
# PROG: staprun
# ARGV: -s 4096 m.ko
# RC: 1
