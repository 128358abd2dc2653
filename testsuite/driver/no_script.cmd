# no script at all is a usage error
# ARGV:
# RC: 1
