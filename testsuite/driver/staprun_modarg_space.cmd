# a module option value with a space
# PROG: staprun
# ARGV: m.ko 'msg=a b'
# RC: 1
