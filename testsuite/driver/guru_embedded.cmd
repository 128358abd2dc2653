# -g allows embedded C in the user script
# ARGV: -g -p1 -e '%{ #include <linux/sched.h> %} function f:long () %{ STAP_RETVALUE = 1; %} probe begin { x = f() }'
# RC: 0
