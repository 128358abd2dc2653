# -d PATH of a program: its symbol table and unwind rows go into the module (-v lists them); a kernel module name is accepted and adds nothing
# ARGV: -p3 -v -d /bin/true -d ext4 -e 'probe begin { printf("%s\n", usymdata(0)) }'
# RC: 0
# SUB: Pass 3: symbols of /usr/bin/true: 
