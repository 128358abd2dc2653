# -p3 prints the module's C: a begin probe printing through a format table
# ARGV: -p3 -m pass3_begin -e 'probe begin { print(1) }'
# RC: 0
