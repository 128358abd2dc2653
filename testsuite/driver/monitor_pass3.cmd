# --monitor: each point's handler names its stp_pmon slot; the probe list, the globals of each kind and the monitor descriptor (doc/monitor.md)
# ARGV: --monitor -p3 -m monitor_pass3 -e 'global n = 2, s = "a", a, st, pm; probe begin { a[1] = n; st <<< 1; pm[s] <<< 2 } probe timer.s(1) { n++ } probe end { println(s, a[1], @count(st), @count(pm["a"])) }'
# RC: 0
