# a bare module name is looked up under /lib/modules/RELEASE/systemtap
# PROG: staprun
# ARGV: no_such_module_xyz
# RC: 1
# SUB: "/systemtap/no_such_module_xyz.ko': No such file or directory"
