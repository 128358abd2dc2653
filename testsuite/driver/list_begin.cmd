# -l lists the probe points a pattern resolves to, one per line
# ARGV: -l 'begin*'
# RC: 0
