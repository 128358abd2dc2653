# -D needs -o
# PROG: staprun
# ARGV: -D m.ko
# RC: 1
