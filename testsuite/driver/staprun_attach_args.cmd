# -A attaches to a running session: no -c (nor -x, -L, -D, -R, -s)
# PROG: staprun
# ARGV: -A m -c true
# RC: 1
