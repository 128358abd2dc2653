# pass 2 of the reference's example examples/general/sizeof_interactive.stp with the reference's tapset library (-I): the derived probes match the reference's
# ARGV: -p2  -I /usr/share/systemtap/tapset /usr/share/systemtap/examples/general/sizeof_interactive.stp 
# RC: 0
