# -L lists kernel.data points as written, addresses in hex
# ARGV: -L 'kernel.data(4096).length(8).rw'
# RC: 0
