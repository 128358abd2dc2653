# -M takes an interval of 1-86400 seconds
# PROG: staprun
# ARGV: -M 0 m.ko
# RC: 1
