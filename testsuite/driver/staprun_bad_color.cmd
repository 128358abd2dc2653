# -C takes never, always or auto
# PROG: staprun
# ARGV: -C sometimes m.ko
# RC: 1
