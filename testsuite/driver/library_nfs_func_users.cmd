# pass 2 of the reference's example examples/io/nfs_func_users.stp with the reference's tapset library (-I): the derived probes match the reference's
# ARGV: -p2  -I /usr/share/systemtap/tapset /usr/share/systemtap/examples/io/nfs_func_users.stp 
# RC: 0
