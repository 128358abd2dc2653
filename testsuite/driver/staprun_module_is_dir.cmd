# a directory given as the module
# PROG: staprun
# ARGV: ../driver
# RC: 1
