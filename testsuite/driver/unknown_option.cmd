# an option nobody knows
# ARGV: --no-such-option -e 'probe begin { }'
# RC: 1
