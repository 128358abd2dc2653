#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# testsuite/faults/guest.sh: the guest half of testsuite/faults/run (busybox sh, root). Runs each
# test named on the command line with the modules in /m (fault_NAME.ko, and the damaged copies
# bad_*.ko) and /bin/staprun, and leaves its results in /tmp/r/NAME/: rc, out, err, notes (what
# the test observed on the way: kprobes armed, files present, ...), dmesg (the kernel log of
# that test only), left (our modules and /proc/systemtap entries still there afterwards). Each
# test's results go to the console as a base64 tar between `@@RESULT NAME` and `@@ENDRESULT`.
# The checks are made on the host (run). REF=1 (run --reference): the reference's staprun and
# stapio; leftovers also lists their processes and the reference's debugfs directory, and after
# each test what was left is removed (what was done: cleanup), so that one test's leftovers do
# not change the next one's observations.
R=/tmp/r
M=/m
KPL=/sys/kernel/debug/kprobes/list
mkdir -p $R
dmesg -c >/dev/null 2>&1

# (by the command's name: the shell's own command line names tests like kill9_staprun)
stap_procs() { ps | awk '$3 ~ /stap(run|io)/'; }
leftovers() {
	grep '^fault_' /proc/modules
	ls /proc/systemtap 2>/dev/null
	[ -s $KPL ] && sed 's/^/kprobe: /' $KPL
	if [ "${REF:-0}" = 1 ]; then
		ls /sys/kernel/debug/systemtap 2>/dev/null | sed 's/^/debugfs: /'
		stap_procs | sed 's/^/process: /'
	fi
}

# finish, wait_for, run_tests
. /m/guest-lib.sh

if [ "${REF:-0}" = 1 ]; then
	ref_cleanup() {
		for p in $(stap_procs | awk '{ print $1 }'); do
			kill -9 "$p" && echo "killed process $p"
		done
		sleep 0.5
		for m in $(sed -n 's/^\(fault_[a-z_0-9]*\) .*/\1/p' /proc/modules); do
			rmmod "$m"
			echo "rmmod $m: status $?"
		done
	}
	finish() {
		dmesg -c >"$R/$1/dmesg" 2>&1
		leftovers >"$R/$1/left"
		ref_cleanup >"$R/$1/cleanup" 2>&1
		dmesg -c >>"$R/$1/dmesg" 2>&1
	}
fi

# note KEY VALUE...: one observation for the host's checks.
note() { echo "$*" >>"$D/notes"; }

# staprun_for SECS ARGS...: a session that ends after SECS seconds: our staprun's -T; the
# reference's -T is something else (its reader's wake-up interval in ms), so SIGINT SECS seconds
# after its staprun has become stapio (exec'ed once the module is in).
staprun_for() {
	_s=$1
	shift
	if [ "${REF:-0}" != 1 ]; then
		staprun -T "$_s" "$@"
		return
	fi
	staprun "$@" &
	_sp=$!
	(
		i=0
		while ! readlink /proc/$_sp/exe | grep -q stapio && [ $i -lt 300 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		sleep "$_s"
		kill -INT $_sp
	) >/dev/null 2>&1 &
	_kp=$!
	wait $_sp
	_r=$?
	kill $_kp 2>/dev/null
	wait $_kp 2>/dev/null
	return $_r
}

# Feeds vfs_read while a flood session runs.
reader() { (while :; do dd if=/dev/zero of=/dev/null bs=1 count=200 2>/dev/null; done) & RPID=$!; }
reader_stop() { kill $RPID 2>/dev/null; wait $RPID 2>/dev/null; }

# staprun killed with SIGKILL: the module stops its own session (the control file's release),
# so nothing stays armed; staprun -d unloads it; the next session runs normally.
t_kill9_staprun() {
	reader
	staprun $M/fault_flood.ko >"$D/out" 2>"$D/err" &
	p=$!
	wait_for "$D/out" '^r1 '
	note armed_before "$(grep -c vfs_read $KPL)"
	kill -9 $p
	wait $p
	echo $? >"$D/rc"
	sleep 1
	note armed_after "$(grep -c vfs_read $KPL)"
	note loaded_after "$(grep -c '^fault_flood ' /proc/modules)"
	note procs_after "$(stap_procs | wc -l)"
	lines1=$(wc -l <"$D/out")
	sleep 1
	note out_grows "$(($(wc -l <"$D/out") - lines1))"
	reader_stop
	staprun -d fault_flood >"$D/d.out" 2>"$D/d.err"
	note d_rc $?
	note loaded_after_d "$(grep -c '^fault_flood ' /proc/modules)"
	staprun -d fault_flood >"$D/d2.out" 2>"$D/d2.err"
	note d2_rc $?
	staprun_for 1 $M/fault_flood.ko >"$D/again.out" 2>"$D/again.err"
	note again_rc $?
	note again_last "$(tail -n 1 "$D/again.out" | cut -d' ' -f1)"
}

# The -c command killed with SIGKILL: an ordinary end of the session.
t_kill9_cmd() {
	rm -f /tmp/cpid
	staprun -c 'sh -c "echo \$\$ >/tmp/cpid; exec sleep 100"' $M/fault_flood.ko >"$D/out" 2>"$D/err" &
	p=$!
	wait_for "$D/out" BEGIN
	wait_for /tmp/cpid .
	c=$(cat /tmp/cpid 2>/dev/null)
	note child "${c:-none}"
	[ -n "$c" ] && kill -9 "$c"
	wait $p
	echo $? >"$D/rc"
}

# staprun and its -c command both killed: the module stops itself, -d unloads it.
t_kill9_both() {
	reader
	rm -f /tmp/cpid
	staprun -c 'sh -c "echo \$\$ >/tmp/cpid; exec sleep 100"' $M/fault_flood.ko >"$D/out" 2>"$D/err" &
	p=$!
	wait_for "$D/out" '^r1 '
	wait_for /tmp/cpid .
	c=$(cat /tmp/cpid 2>/dev/null)
	note child "${c:-none}"
	kill -9 $p ${c:+"$c"}
	wait $p
	echo $? >"$D/rc"
	sleep 1
	note armed_after "$(grep -c vfs_read $KPL)"
	note procs_after "$(stap_procs | wc -l)"
	reader_stop
	staprun -d '*' >"$D/d.out" 2>"$D/d.err"
	note d_rc $?
	note loaded_after_d "$(grep -c '^fault_flood ' /proc/modules)"
}

# A second opener of the control file is turned away; the session goes on; a second staprun of
# the same module is refused with a tip; -R runs a copy next to it.
t_ctl_busy() {
	staprun_for 4 $M/fault_flood.ko >"$D/out" 2>"$D/err" &
	p=$!
	wait_for "$D/out" BEGIN
	ctl=/proc/systemtap/fault_flood/.stp_ctl
	if [ "${REF:-0}" = 1 ]; then
		# the reference's control file: whatever its directories hold
		note ctl_dirs "$(ls -a /proc/systemtap/fault_flood /sys/kernel/debug/systemtap/fault_flood 2>&1 | tr '\n' ' ')"
		for f in /proc/systemtap/fault_flood/.cmd /sys/kernel/debug/systemtap/fault_flood/.cmd; do
			if [ -e $f ]; then ctl=$f; break; fi
		done
		note ctl "$ctl"
	fi
	# (an opener that is let in would read the session's messages: stopped after 2 s)
	cat $ctl >"$D/cat.out" 2>"$D/cat.err" &
	cp=$!
	i=0
	while kill -0 $cp 2>/dev/null && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
	if kill -0 $cp 2>/dev/null; then
		kill $cp
		wait $cp
		note cat_rc "still reading after 2 s (killed)"
	else
		wait $cp
		note cat_rc $?
	fi
	staprun $M/fault_flood.ko >"$D/second.out" 2>"$D/second.err"
	note second_rc $?
	staprun_for 1 -R $M/fault_flood.ko >"$D/R.out" 2>"$D/R.err"
	note R_rc $?
	note R_last "$(tail -n 1 "$D/R.out" | cut -d' ' -f1)"
	wait $p
	echo $? >"$D/rc"
}

# rmmod while the session runs: the module ends the session on its way out, staprun sees the
# end, drains and exits; nothing is left.
t_rmmod_race() {
	reader
	staprun $M/fault_flood.ko >"$D/out" 2>"$D/err" &
	p=$!
	wait_for "$D/out" '^r1 '
	rmmod fault_flood 2>"$D/rmmod.err"
	note rmmod_rc $?
	i=0
	while kill -0 $p 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	note staprun_gone "$(kill -0 $p 2>/dev/null && echo no || echo yes)"
	kill -9 $p 2>/dev/null
	wait $p
	echo $? >"$D/rc"
	reader_stop
}

# load_bad FILE: staprun on a damaged or foreign module; nothing may stay loaded.
load_bad() {
	staprun "$M/$1" >"$D/out" 2>"$D/err"
	echo $? >"$D/rc"
}
t_bad_truncated() { load_bad bad_truncated.ko; }
t_bad_magic() { load_bad bad_magic.ko; }
t_bad_shdr() { load_bad bad_shdr.ko; }
t_bad_vermagic() { load_bad bad_vermagic.ko; }
t_other_kernel() { load_bad bad_other_kernel.ko; }
t_empty_file() { load_bad bad_empty.ko; }

# Module parameters: unknown, of the wrong type, 1 MB long, and good ones.
t_params() {
	staprun $M/fault_params.ko nosuch=1 >"$D/unknown.out" 2>"$D/unknown.err"
	note unknown_rc $?
	staprun $M/fault_params.ko count=abc >"$D/type.out" 2>"$D/type.err"
	note type_rc $?
	big=$(head -c 102400 /dev/zero | tr '\0' 'x')
	staprun $M/fault_params.ko "word=$big" >"$D/big.out" 2>"$D/big.err"
	note big_rc $?
	staprun $M/fault_params.ko count=-0x10 word=hello >"$D/out" 2>"$D/err"
	echo $? >"$D/rc"
}

# procfs writes: 1 MB in one write(2), binary bytes with NULs, an empty one (no write(2) at all).
t_procfs() {
	staprun $M/fault_procfs.ko >"$D/out" 2>"$D/err" &
	p=$!
	f=/proc/systemtap/fault_procfs/cmd
	i=0
	while [ ! -e $f ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	sleep 0.5
	head -c 1048576 /dev/zero | tr '\0' 'y' >/tmp/big
	dd if=/tmp/big of=$f bs=1048576 count=1 2>"$D/w1.err"
	note w1 $?
	rm -f /tmp/big
	printf 'ab\000cd\377\001' >$f 2>"$D/w2.err"
	note w2 $?
	note read "$(cat $f)"
	printf '' >$f
	printf 'z' >$f 2>"$D/w3.err"
	note w3 $?
	wait $p
	echo $? >"$D/rc"
}

# Bulk mode (-b) with 1 MB buffers and 4.7 MB printed at once: the loss is reported, files whole.
# (The reference's module is built in bulk mode, stap -b, and its staprun's -b is the size.)
t_bulk_flood() {
	bulk="-b -s 1"
	[ "${REF:-0}" != 1 ] || bulk="-b 1"
	# shellcheck disable=SC2086 # two options
	cd /tmp && staprun $bulk -o /tmp/bk $M/fault_bulkflood.ko >"$D/out" 2>"$D/err"
	echo $? >"$D/rc"
	cd /
	note files "$(ls /tmp/bk_* 2>/dev/null | wc -l)"
	note bytes "$(cat /tmp/bk_* 2>/dev/null | wc -c)"
	note badlines "$(cat /tmp/bk_* | grep -cvE '^(END 0|r[0-9]{8} 0123456789abcdefghijklmnopqrstuvwxyz)$')"
	note endline "$(cat /tmp/bk_* | grep -c '^END ')"
	note endany "$(cat /tmp/bk_* | grep -ac 'END 0')"
	note badline1 "$(cat /tmp/bk_* | grep -avE '^(END 0|r[0-9]{8} 0123456789abcdefghijklmnopqrstuvwxyz)$' |
		head -n 1 | head -c 60 | tr -c '[:print:]' '.')"
	note lines "$(cat /tmp/bk_* | grep -c '^r')"
	rm -f /tmp/bk_*
}

# A registration the kernel refuses (regfail.stp): the load fails; what is armed right after.
t_reg_fail() {
	staprun $M/fault_regfail.ko >"$D/out" 2>"$D/err"
	echo $? >"$D/rc"
	note armed_after "$(grep -c . $KPL)"
	note loaded_after "$(grep -c '^fault_regfail ' /proc/modules)"
}

# CPU hotplug: CPU 1 goes offline and comes back twice during a timer.profile session.
t_hotplug() {
	c1=/sys/devices/system/cpu/cpu1/online
	staprun $M/fault_hotplug.ko >"$D/out.raw" 2>"$D/err" &
	p=$!
	wait_for "$D/out.raw" '^c1 '
	for k in 1 2; do
		sleep 1
		echo 0 >$c1
		note off$k $?
		sleep 1
		echo 1 >$c1
		note on$k $?
	done
	a=$(grep -c '^c1 ' "$D/out.raw")
	sleep 1
	note c1_after_online "$(($(grep -c '^c1 ' "$D/out.raw") - a))"
	kill -INT $p
	wait $p
	echo $? >"$D/rc"
	note online "$(cat /sys/devices/system/cpu/online)"
	# summary: lines per CPU, order errors, gaps, END and last lines
	awk '
		function num(s) { sub(/^0+/, "", s); return s + 0 }
		/^c[0-9]+ s[0-9]+$/ {
			n[$1]++; s = num(substr($2, 2))
			if (($1 in last) && s != last[$1] + 1) bad++
			if (!($1 in last) && s != 1) bad++
			last[$1] = s; next
		}
		/^END / || /^last / { print; next }
		{ other++ }
		END {
			for (c in n) printf "lines %s %d\n", c, n[c]
			printf "seqerr %d\nother %d\n", bad, other
		}' "$D/out.raw" >"$D/out"
	rm -f "$D/out.raw"
}

# Fault injection (inject.stp built with -D STP_FAULT_INJECT): a full session counts the fault
# points (module exit logs "fault injection: K points reached"), then one session per N from 1
# to K with point N failing (_stp_fault_at=N). After each: what is left registered, the
# memory counters, the kernel log of that load, and the workload run once more so that a
# callback left behind in the unloaded module would oops (panic_on_oops ends the boot).
# INJECT_EVERY=S (the host's --inject-step) takes every S-th N only; INJECT_NORMAL=1 runs a
# normal session after each failing one.
inj_work() {
	/m/prog/finjprog 20
	cat /proc/version >/dev/null
	ping -c 1 -W 1 127.0.0.1 >/dev/null 2>&1
	sleep 0.2
}
inj_state() { # what of ours is registered now, one item a line
	grep '^fault_inject ' /proc/modules
	ls -d /proc/systemtap/fault_inject 2>/dev/null
	[ -s $KPL ] && sed 's/^/kprobe: /' $KPL
	[ -s $TRF ] && sed 's/^/ftrace: /' $TRF
}
inj_mem() { # VmallocUsed SUnreclaim Percpu (kB)
	awk '$1 == "VmallocUsed:" { v = $2 } $1 == "SUnreclaim:" { s = $2 } $1 == "Percpu:" { p = $2 }
		END { print v + 0, s + 0, p + 0 }' /proc/meminfo
}
t_inject() {
	TRF=/sys/kernel/debug/tracing/enabled_functions
	m=$M/fault_inject.ko
	ifconfig lo 127.0.0.1 up 2>/dev/null
	printf '/m/prog/finjprog 20\ncat /proc/systemtap/fault_inject/finj >/dev/null 2>&1\ncat /proc/version >/dev/null\nping -c 1 -W 1 127.0.0.1 >/dev/null 2>&1\nsleep 0.3\n' >/tmp/work.sh
	# two full sessions: the first warms the kernel's own caches, the second counts
	for k in 1 2; do
		dmesg -c >/dev/null
		staprun -c 'sh /tmp/work.sh' $m >"$D/out" 2>"$D/err"
		echo $? >"$D/rc"
		dmesg -c >"$D/k.0"
	done
	inj_work
	sync; echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
	note base "$(inj_mem)"
	count=$(sed -n 's/.*fault injection: \([0-9]*\) points reached.*/\1/p' "$D/k.0" | tail -n 1)
	note count "${count:-0}"
	note state0 "$(inj_state | wc -l)"
	step=${INJECT_EVERY:-1}
	n=1
	t0=$(cut -d' ' -f1 /proc/uptime)
	while [ -n "$count" ] && [ $n -le "$count" ]; do
		staprun -c 'sh /tmp/work.sh' $m _stp_fault_at=$n >"$D/o.$n" 2>"$D/e.$n"
		rc=$?
		inj_work
		dmesg -c >"$D/k.$n"
		inj_state >"$D/s.$n"
		if [ "${INJECT_NORMAL:-0}" = 1 ]; then
			staprun -c 'sh /tmp/work.sh' $m >"$D/no.$n" 2>"$D/ne.$n"
			echo "$?" >"$D/nrc.$n"
			dmesg -c >>"$D/k.$n"
		fi
		echo "$n $rc $(inj_mem) $(wc -l <"$D/s.$n")" >>"$D/sweep"
		n=$((n + step))
	done
	note sweep_secs "$(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%d", b - a }')"
	sync; echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
	note after "$(inj_mem)"
	# the next normal load works
	staprun -c 'sh /tmp/work.sh' $m >"$D/final.out" 2>"$D/final.err"
	note final_rc $?
	dmesg -c >"$D/k.final"
	note final_state "$(inj_state | wc -l)"
}

run_tests "$@"
