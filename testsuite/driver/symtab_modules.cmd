# --all-modules and -d MODULE are accepted: the kernel and its modules are
# symbolised through the kernel's own kallsyms at run time
# ARGV: --all-modules -d kernel -d dummy -p1 -e 'probe begin { print_backtrace() }'
# RC: 0
