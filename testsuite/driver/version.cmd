# -V names the version and the SystemTap version we follow
# ARGV: -V
# RC: 0
