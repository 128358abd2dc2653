#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# testsuite/vm/staprun/guest.sh: the guest half of testsuite/vm/staprun-e2e: runs
# /bin/staprun against /m/mock_stp.ko (mock_stp.c) in a series of sessions and prints
# "ok N - ..." / "not ok N - ..." lines and "N passed, N failed". busybox sh.
# shellcheck disable=SC2016 # the tests are single-quoted for check's eval
M=/m/mock_stp.ko
N=0 PASS=0 FAIL=0

ok() { N=$((N + 1)); PASS=$((PASS + 1)); echo "ok $N - $1"; }
not_ok() {
	N=$((N + 1)); FAIL=$((FAIL + 1))
	echo "not ok $N - $1"
	shift
	for f in "$@"; do [ -f "$f" ] && sed "s|^|#   $(basename "$f"): |" "$f" | head -n 20; done
}
# check DESC NAME 'SHELL TEST': ok when the test (eval'd) succeeds; else show
# /tmp/NAME.{rc,out,err}
check() {
	if eval "$3"; then ok "$1"; else not_ok "$1" "/tmp/$2.rc" "/tmp/$2.out" "/tmp/$2.err"; fi
}
# run NAME ARGS...: staprun ARGS with stdout, stderr, status in /tmp/NAME.{out,err,rc}
run() {
	n=$1
	shift
	staprun "$@" >"/tmp/$n.out" 2>"/tmp/$n.err"
	echo $? >"/tmp/$n.rc"
}
rc() { cat "/tmp/$1.rc"; }
has() { grep -q -- "$2" "/tmp/$1"; }
# the module is gone and so is its /proc directory
unloaded() { ! grep -q "^mock_stp " /proc/modules && [ ! -e /proc/systemtap/mock_stp ]; }
wait_unloaded() {
	i=0
	while ! unloaded && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	unloaded
}

# 1. a script that prints and exits
run basic $M lines=3 greeting=hi
printf 'target=0 bufsize=0\nline 1\nline 2\nline 3\nhi\nend\n' >/tmp/basic.want
check "basic: output, exit status 0" basic \
	'[ "$(rc basic)" = 0 ]'
check "basic: stdout exactly" basic \
	'cmp -s /tmp/basic.out /tmp/basic.want'
check "basic: the module's message on stderr" basic \
	'[ "$(cat /tmp/basic.err)" = "WARNING: bye" ]'
check "basic: module unloaded" basic \
	'unloaded'

# 2. -o FILE, -x, -s, -w
run o -o /tmp/o.txt -x 42 -s 2 -w $M lines=1
check "-o: stdout empty, file written" o \
	'[ "$(rc o)" = 0 ] && [ ! -s /tmp/o.out ] && [ "$(tail -n 1 /tmp/o.txt)" = end ]'
check "-x 42 -s 2: _stp_target=42 _stp_bufsize=2097152" o \
	'[ "$(head -n 1 /tmp/o.txt)" = "target=42 bufsize=2097152" ]'
check "-w: warnings dropped" o \
	'[ ! -s /tmp/o.err ]'

# 3. signals stop a running session; the end output still comes
for sig in INT TERM HUP; do
	staprun $M mode=1 >/tmp/sig.out 2>/tmp/sig.err &
	p=$!
	sleep 1
	kill -$sig $p
	wait $p
	echo $? >/tmp/sig.rc
	check "SIG$sig: status 0, ticks then end, unloaded" sig \
		'[ "$(rc sig)" = 0 ] && has sig.out tick && [ "$(tail -n 1 /tmp/sig.out)" = end ] && unloaded'
done

# 4. -T
t0=$(date +%s)
run T -T 1 $M mode=1
t1=$(date +%s)
check "-T 1: stops after a second ($((t1 - t0)) s)" T \
	'[ "$(rc T)" = 0 ] && [ $((t1 - t0)) -le 3 ] && has T.out tick && unloaded'

# 5. -c: the command runs after start, its end stops the session
run c -c 'echo from-cmd; sleep 0.5' $M mode=1
tgt=$(sed -n 's/^target=\([0-9]*\) .*/\1/p' /tmp/c.out)
check "-c: command ran, session ended with it" c \
	'[ "$(rc c)" = 0 ] && has c.out from-cmd && [ "$(tail -n 1 /tmp/c.out)" = end ]'
check "-c: target() is the command's pid ($tgt)" c \
	'[ "${tgt:-0}" -gt 1 ]'
check "-c: module unloaded" c \
	'unloaded'
# the order: begin output (printed at start) before the command's
check "-c: the command starts after the probes" c \
	'[ "$(head -n 1 /tmp/c.out | cut -c1-7)" = "target=" ]'

# 6. a fatal error in the script: its message, status 1
run err $M mode=2
check "fatal error: status 1, message on stderr" err \
	'[ "$(rc err)" = 1 ] && has err.err "ERROR: mock failure near operator" && unloaded'

# 7. already loaded, and -R
insmod $M
run exists $M
check "already loaded: status 1, File exists, a tip" exists \
	'[ "$(rc exists)" = 1 ] && has exists.err "ERROR: Couldn.t insert module ./m/mock_stp.ko.: File exists" && has exists.err "already loaded"'
run R -R $M lines=1
check "-R: a renamed copy runs next to it" R \
	'[ "$(rc R)" = 0 ] && has R.out "line 1" && [ "$(tail -n 1 /tmp/R.out)" = end ]'
check "-R: the copy is gone, the original stays" R \
	'[ "$(grep -c "^mock_stp" /proc/modules)" = 1 ] && grep -q "^mock_stp " /proc/modules'
rmmod mock_stp

# 8. a parameter value of the wrong type, an unknown parameter: refused before loading
# (the kernel would only warn about the unknown one and load the module anyway)
run badp $M lines=abc
check "bad parameter value: status 1, staprun's reason, never loaded" badp \
	'[ "$(rc badp)" = 1 ] && has badp.err "Invalid value .abc. for global .lines.: it is a number" && unloaded'
run unkp $M nosuch=1
check "unknown parameter: status 1, staprun's reason, never loaded" unkp \
	'[ "$(rc unkp)" = 1 ] && has unkp.err "The module has no global .nosuch. to set" && unloaded'

# 9. lots of output, all of it
run big $M lines=50000
check "50000 lines all arrive" big \
	'[ "$(rc big)" = 0 ] && [ "$(grep -c "^line " /tmp/big.out)" = 50000 ] && [ "$(tail -n 1 /tmp/big.out)" = end ]'

# 10. -D: the foreground returns at once; SIGTERM ends the background session
staprun -D -o /tmp/d.txt $M mode=1 >/tmp/d.out 2>/tmp/d.err
echo $? >/tmp/d.rc
sleep 0.5
check "-D: foreground exits 0 silently, module running" d \
	'[ "$(rc d)" = 0 ] && [ ! -s /tmp/d.out ] && [ ! -s /tmp/d.err ] && grep -q "^mock_stp " /proc/modules'
p=$(pidof staprun)
[ -n "$p" ] && kill -TERM "$p"
check "-D: SIGTERM ends it, output in the file" d \
	'wait_unloaded && [ "$(tail -n 1 /tmp/d.txt)" = end ] && has d.txt tick'

# 11. bulk mode: one file per CPU
run bulk -b -o /tmp/bk $M lines=4
check "-b: per-CPU files" bulk \
	'[ "$(rc bulk)" = 0 ] && [ "$(cat /tmp/bk_1)" = "$(printf "line 1\nline 3\nhello")" ] &&
	 [ "$(cat /tmp/bk_0)" = "$(printf "target=0 bufsize=0\nline 2\nline 4\nend")" ]'

# 12. the reader of stdout goes away: an error, and the module is still unloaded
(staprun $M lines=100000 2>/tmp/pipe.err; echo $? >/tmp/pipe.rc) | head -n 1 >/tmp/pipe.out
check "closed stdout: status 1, Broken pipe, unloaded" pipe \
	'[ "$(rc pipe)" = 1 ] && has pipe.err "Broken pipe" && unloaded'

# 13. no D after stop: staprun gives up after its grace period; a second signal at once
run noD -T 1 $M mode=3
check "no D after stop: status 1, an error, unloaded" noD \
	'[ "$(rc noD)" = 1 ] && has noD.err "did not end the session" && unloaded'
staprun $M mode=3 >/tmp/twice.out 2>/tmp/twice.err &
p=$!
sleep 1
t0=$(date +%s)
kill -INT $p
sleep 0.3
kill -INT $p
wait $p
echo $? >/tmp/twice.rc
t1=$(date +%s)
check "second SIGINT: gives up at once ($((t1 - t0)) s)" twice \
	'[ "$(rc twice)" = 1 ] && [ $((t1 - t0)) -le 2 ] && unloaded'

# 14. a missing file, a file that is not a module
run miss /m/nope.ko
check "missing module file" miss \
	'[ "$(rc miss)" = 1 ] && has miss.err "Couldn.t open module ./m/nope.ko.: No such file or directory"'
run notko /bin/busybox
check "not a module" notko \
	'[ "$(rc notko)" = 1 ] && has notko.err "is not a kernel module"'

echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
