# an option staprun does not have
# PROG: staprun
# ARGV: -q m.ko
# RC: 1
