# -v reports pass 1 with memory and time figures
# ARGV: -v -p1 -e 'probe begin { }'
# RC: 0
# SUB: Pass 1: parsed user script and
