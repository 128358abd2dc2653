# -L leaves the session with nobody reading it: no -o (give it to -A)
# PROG: staprun
# ARGV: -L -o out m.ko
# RC: 1
