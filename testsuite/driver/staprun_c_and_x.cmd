# -c and -x together
# PROG: staprun
# ARGV: -c true -x 1 m.ko
# RC: 1
