# -l with nothing matching: no output, exit 1, no error messages
# ARGV: -l 'nosuch.point'
# RC: 1
