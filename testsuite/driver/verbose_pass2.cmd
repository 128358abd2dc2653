# -v reports pass 2's statistics
# ARGV: -p2 -v -e 'probe begin { print(1) }'
# RC: 0
# SUB: Pass 2: analyzed script: 1 probe, 0 functions, 0 embeds, 0 globals
