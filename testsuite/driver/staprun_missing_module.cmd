# a module file that does not exist
# PROG: staprun
# ARGV: no-such-module.ko
# RC: 1
