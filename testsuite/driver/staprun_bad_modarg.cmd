# a module option without =
# PROG: staprun
# ARGV: m.ko verbose
# RC: 1
