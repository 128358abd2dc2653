# pass 2 of the reference's example examples/stapgames/lifegame.stp with the reference's tapset library (-I): the derived probes match the reference's
# ARGV: -p2  -I /usr/share/systemtap/tapset /usr/share/systemtap/examples/stapgames/lifegame.stp 
# RC: 0
