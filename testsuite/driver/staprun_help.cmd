# -h prints the usage on stdout
# PROG: staprun
# ARGV: -h
# RC: 0
