# pass 2 of the reference's example examples/process/plimit.stp with the reference's tapset library (-I): the derived probes match the reference's
# ARGV: -p2 -g -I /usr/share/systemtap/tapset /usr/share/systemtap/examples/process/plimit.stp 1
# RC: 0
