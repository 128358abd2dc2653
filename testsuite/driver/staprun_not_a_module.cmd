# a file that is not a kernel module is refused before the kernel sees it
# PROG: staprun
# ARGV: ./staprun_not_a_module.cmd
# RC: 1
