# --help: staprun has no long options (as the reference)
# PROG: staprun
# ARGV: --help
# RC: 1
