# -l with a literal built-in point
# ARGV: -l 'timer.ms(100)'
# RC: 0
