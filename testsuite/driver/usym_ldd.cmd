# --ldd: the module carries the symbols and unwind rows of the probed program's DT_NEEDED libraries (-v lists them)
# ARGV: -p3 -v --ldd -e 'probe process("/bin/true").begin { print_ubacktrace() }'
# RC: 0
# SUB: Pass 3: symbols of /usr/lib/x86_64-linux-gnu/libc.so.6: 
