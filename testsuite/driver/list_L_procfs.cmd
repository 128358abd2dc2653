# -L adds $value for procfs probes
# ARGV: -L 'procfs("x").read' 
# RC: 0
