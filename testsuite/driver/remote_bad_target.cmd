# --remote takes only the qemu: targets (the test VM); anything else is refused clearly
# ARGV: --remote somehost -p1 -e 'probe begin { }'
# RC: 1
