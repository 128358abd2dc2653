# '-' reads the script from standard input (here empty)
# ARGV: -p1 -
# RC: 1
