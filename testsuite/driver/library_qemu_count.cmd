# pass 2 of the reference's example examples/virtualization/qemu_count.stp with the reference's tapset library (-I): the derived probes match the reference's
# ARGV: -p2  -I /usr/share/systemtap/tapset /usr/share/systemtap/examples/virtualization/qemu_count.stp 
# RC: 0
