# -V
# PROG: staprun
# ARGV: -V
# RC: 0
