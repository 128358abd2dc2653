# a script file that does not exist
# ARGV: -p1 no-such-script.stp
# RC: 1
