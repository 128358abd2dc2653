# -c CMD: the command's program is among the objects whose symbols the module carries (found in $PATH like a shell does)
# ARGV: -p3 -v -c 'true --help' -e 'probe begin { print_ubacktrace() }'
# RC: 0
# SUB: Pass 3: symbols of /usr/bin/true: 
