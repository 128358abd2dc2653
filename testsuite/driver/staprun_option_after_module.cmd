# options after MODULE are module options
# PROG: staprun
# ARGV: m.ko -v
# RC: 1
