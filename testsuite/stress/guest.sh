#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# testsuite/stress/guest.sh: the guest half of testsuite/stress/run (busybox sh, run by run-vm
# as root). Runs each stress test named on the command line against /m/stress_NAME.ko with
# /bin/staprun, and leaves its results in /tmp/r/NAME/: rc, out (or out.sum for the floods,
# summarised here because they are megabytes), err, dmesg (the kernel log of that test only),
# left (our modules and /proc/systemtap entries still there afterwards). After each test its
# results go to the console as a base64 tar between `@@RESULT NAME` and `@@ENDRESULT` (so a
# crash loses only the test that caused it). The checks are made on the host.
R=/tmp/r
M=/m
mkdir -p $R
dmesg -c >/dev/null 2>&1

# Background load on every CPU: NCPU shell loops of dd (1-byte reads and writes).
LOADPIDS=
load_start() {
	n=$(grep -c ^processor /proc/cpuinfo)
	i=0
	while [ $i -lt "$n" ]; do
		(while :; do dd if=/dev/zero of=/dev/null bs=1 count=2000 2>/dev/null; done) &
		LOADPIDS="$LOADPIDS $!"
		i=$((i + 1))
	done
}
load_stop() {
	# shellcheck disable=SC2086 # a list of pids
	[ -n "$LOADPIDS" ] && kill $LOADPIDS 2>/dev/null
	wait 2>/dev/null
	LOADPIDS=
}

# What of ours outlived a test: loaded modules, /proc/systemtap directories.
leftovers() {
	grep '^stress_' /proc/modules
	ls /proc/systemtap 2>/dev/null
}

# finish, wait_for, run_tests
. /m/guest-lib.sh

# Summary of a flood's output: lines of the expected shape (by regex), others, the END line,
# sequence errors (a number not above the last one of that CPU, or of line Lnnnnnnnn), jumps
# in the Lnnnnnnnn numbers (lines lost in between), bytes, the last line.
flood_sum() { # FILE REGEX
	# num(): busybox awk reads "0123" as octal; the numbers here have leading zeros
	awk -v re="$2" '
		function num(s) { sub(/^0+/, "", s); return s + 0 }
		/^END / { end = $0; nend++; endseen = 1; next }
		$0 ~ re {
			good++
			if (substr($1, 1, 1) == "L") {
				l = num(substr($1, 2))
				if (good > 1 && l <= lastl) order++
				if (good > 1 && l != lastl + 1) { gap++; if (gap <= 5) print "jump " lastl " " l }
				lastl = l
			}
			if (NF >= 2 && substr($2, 1, 1) == "s") {
				s = num(substr($2, 2))
				if ($1 in last && s <= last[$1]) order++
				last[$1] = s
			}
			if (endseen) after++
			next
		}
		{ bad++; if (bad <= 3) print "badline " substr($0, 1, 120) }
		END {
			printf "good %d\nbad %d\norder %d\ngap %d\nnend %d\nafter_end %d\n", good, bad, order, gap, nend, after
			if (nend) print end
			for (c in last) printf "last %s %d\n", c, last[c]
		}' "$1"
	printf 'bytes %s\n' "$(wc -c <"$1")"
	printf 'lastline %s\n' "$(tail -n 1 "$1")"
}

t_kprobe_percpu() {
	staprun -c 'dd if=/dev/zero of=/dev/null bs=1 count=20000 2>/dev/null &
		dd if=/dev/zero of=/dev/null bs=1 count=20000 2>/dev/null & wait' \
		$M/stress_kprobe_percpu.ko >"$D/out" 2>"$D/err"
	echo $? >"$D/rc"
}

t_flood_begin() {
	staprun $M/stress_flood_begin.ko >"$D/out" 2>"$D/err"
	echo $? >"$D/rc"
	flood_sum "$D/out" '^L[0-9]{8} abcdefghijklmnopqrstuvwxyz0123456789$' >"$D/out.sum"
	head -n 3 "$D/out" >"$D/out.head"
	rm -f "$D/out"
}

t_flood_smp() {
	staprun -c 'dd if=/dev/zero of=/dev/null bs=1 count=10000 2>/dev/null &
		dd if=/dev/zero of=/dev/null bs=1 count=10000 2>/dev/null & wait; sleep 1' \
		$M/stress_flood_smp.ko >"$D/out" 2>"$D/err"
	echo $? >"$D/rc"
	flood_sum "$D/out" '^c[0-9]+ s[0-9]{9} 0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ$' >"$D/out.sum"
	rm -f "$D/out"
}

t_timers() {
	load_start
	staprun $M/stress_timers.ko >"$D/out" 2>"$D/err"
	echo $? >"$D/rc"
	load_stop
}

t_overflow() {
	load_start
	staprun $M/stress_overflow.ko >"$D/out" 2>"$D/err"
	echo $? >"$D/rc"
	load_stop
}

t_overflow_wrap() {
	staprun -c 'dd if=/dev/zero of=/dev/null bs=1 count=5000 2>/dev/null &
		dd if=/dev/zero of=/dev/null bs=1 count=5000 2>/dev/null & wait' \
		$M/stress_overflow_wrap.ko >"$D/out" 2>"$D/err"
	echo $? >"$D/rc"
}

# 20 load/run/unload cycles under load; per cycle: "cycle I RC LEFT LASTLINE", stderr kept.
t_startstop() {
	load_start
	i=1
	: >"$D/out"
	: >"$D/err"
	while [ $i -le 20 ]; do
		staprun $M/stress_startstop.ko >"$D/o" 2>>"$D/err"
		rc=$?
		left=$(leftovers | wc -l)
		printf 'cycle %d %d %d %s | %s\n' $i $rc "$left" "$(head -n 1 "$D/o")" "$(tail -n 1 "$D/o")" >>"$D/out"
		i=$((i + 1))
	done
	rm -f "$D/o"
	echo 0 >"$D/rc"
	load_stop
}

# N cycles (/m/batch_cycles, default 20) of the several hundred probes of batch_cycles.stp;
# after each, what is still armed:
# kprobes and ftrace call sites (function entries armed through an ftrace_ops).
t_batch_cycles() {
	load_start
	i=1
	: >"$D/out"
	: >"$D/err"
	ncyc=$(cat $M/batch_cycles 2>/dev/null || echo 20)
	while [ $i -le "$ncyc" ]; do
		staprun $M/stress_batch_cycles.ko >"$D/o" 2>>"$D/err"
		rc=$?
		left=$(leftovers | wc -l)
		kp=$(wc -l </sys/kernel/debug/kprobes/list)
		ft=$(wc -l </sys/kernel/tracing/enabled_functions)
		printf 'cycle %d %d %d %d %d %s | %s\n' $i $rc "$left" "$kp" "$ft" "$(head -n 1 "$D/o")" \
			"$(tail -n 1 "$D/o")" >>"$D/out"
		i=$((i + 1))
	done
	rm -f "$D/o"
	echo 0 >"$D/rc"
	load_stop
}

t_sigint_T() {
	load_start
	staprun -T 2 $M/stress_sigint.ko >"$D/out" 2>"$D/err"
	echo $? >"$D/rc"
	load_stop
}

# kill_run SIG MODULE: staprun in the background, SIG once the begin probe has printed.
kill_run() {
	staprun "$M/$2.ko" >"$D/out" 2>"$D/err" &
	p=$!
	wait_for "$D/out" BEGIN
	sleep 1
	kill -"$1" $p
	wait $p
	echo $? >"$D/rc"
}

t_sigint_kill() {
	load_start
	kill_run INT stress_sigint
	load_stop
}

t_sigterm_kill() {
	load_start
	kill_run TERM stress_sigint
	load_stop
}

t_sigint_flood() {
	load_start
	kill_run INT stress_sigint_flood
	load_stop
	flood_sum "$D/out" '^(BEGIN|r[0-9]+ 0123456789abcdefghijklmnopqrstuvwxyz)$' >"$D/out.sum"
	rm -f "$D/out"
}

run_tests "$@"
