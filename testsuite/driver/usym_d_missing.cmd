# -d PATH of a file that does not exist: a warning, as the reference's, and the module is still written
# ARGV: -p3 -d /nonexistent/prog -e 'probe begin { print_ubacktrace() }'
# RC: 0
# SUB: WARNING: missing unwind/symbol data for module
