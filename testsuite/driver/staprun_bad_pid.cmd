# -x with something other than a pid
# PROG: staprun
# ARGV: -x 12ab m.ko
# RC: 1
