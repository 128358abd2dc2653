# --help prints the usage on stdout
# ARGV: --help
# RC: 0
