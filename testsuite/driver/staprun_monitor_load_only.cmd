# -M shows a session staprun runs: not with -L
# PROG: staprun
# ARGV: -M 2 -L m.ko
# RC: 1
