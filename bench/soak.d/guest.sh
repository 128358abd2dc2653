#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/soak.d/guest.sh: the guest half of bench/soak (busybox sh, root): sessions of
# /m/soak.ko (each ends itself with exit() after CYCLE seconds) one after another under a dd
# load on every CPU, until TOTAL seconds have passed. Per session one line on the console:
#   @@S N RC RECORDS DROPPED_BYTES SKIPPED END-LINE
# then, once: @@MEM before/after (VmallocUsed SUnreclaim Percpu MemFree, kB), @@LEFT (what of
# ours is still registered), @@WARN (kernel log lines that are warnings), @@DONE.
TOTAL=${1:-600} CYCLE=${2:-60}
KPL=/sys/kernel/debug/kprobes/list
TRF=/sys/kernel/debug/tracing/enabled_functions
mem() {
	awk '$1 == "VmallocUsed:" { v = $2 } $1 == "SUnreclaim:" { s = $2 } $1 == "Percpu:" { p = $2 }
		$1 == "MemFree:" { f = $2 } END { print v + 0, s + 0, p + 0, f + 0 }' /proc/meminfo
}
dmesg -c >/dev/null 2>&1
sync; echo 3 >/proc/sys/vm/drop_caches
echo "@@MEM before $(mem)"
n=$(grep -c ^processor /proc/cpuinfo)
i=0 pids=
while [ $i -lt "$n" ]; do
	(while :; do dd if=/dev/zero of=/dev/null bs=1 count=500 2>/dev/null; done) &
	pids="$pids $!"
	i=$((i + 1))
done
start=$(cut -d. -f1 /proc/uptime)
s=0
while [ $(($(cut -d. -f1 /proc/uptime) - start)) -lt "$TOTAL" ]; do
	s=$((s + 1))
	staprun -o /tmp/soak.out /m/soak.ko cycle_secs="$CYCLE" 2>/tmp/soak.err
	rc=$?
	recs=$(grep -c '^r' /tmp/soak.out)
	drop=$(sed -n 's/^WARNING: \([0-9]*\) bytes of output dropped.*/\1/p' /tmp/soak.err | head -n 1)
	skip=$(sed -n 's/.*skipped probes: \([0-9]*\).*/\1/p' /tmp/soak.err | head -n 1)
	echo "@@S $s $rc $recs ${drop:-0} ${skip:-0} $(grep '^END ' /tmp/soak.out)"
	grep '^ERROR' /tmp/soak.err | head -n 3 | sed 's/^/@@ERR /'
done
# shellcheck disable=SC2086 # a list of pids
kill $pids 2>/dev/null
wait 2>/dev/null
sync; echo 3 >/proc/sys/vm/drop_caches
echo "@@MEM after $(mem)"
{
	grep '^soak ' /proc/modules
	ls /proc/systemtap 2>/dev/null
	[ -s $KPL ] && sed 's/^/kprobe: /' $KPL
	[ -s $TRF ] && sed 's/^/ftrace: /' $TRF
} | sed 's/^/@@LEFT /'
dmesg | grep -E 'WARNING:|BUG:|Oops|Call Trace|general protection|corruption|Poison|Redzone|soft lockup|stall|refcount_t' |
	head -n 20 | sed 's/^/@@WARN /'
echo "@@DONE $(($(cut -d. -f1 /proc/uptime) - start))"
