# -l needs pass 2, which this version does not have yet: say so
# ARGV: -l begin
# RC: 1
