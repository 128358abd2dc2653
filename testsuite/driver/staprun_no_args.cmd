# staprun without a module: usage on stderr
# PROG: staprun
# ARGV:
# RC: 1
