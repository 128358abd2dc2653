# -L lists the stap.* and staprun.* aliases (on our stap's and staprun's own SDT markers) with their variables
# ARGV: -L stap*.**
# RC: 0
