# testsuite/vm/mon/guest.sh: the monitor-mode checks, in the guest (testsuite/vm/monitor-mode
# puts mon.ko and staprun here). Keys go to staprun -M through a FIFO on its stdin; the
# status is read from the module's file, the file staprun reads.
. /m/guest-lib.sh	# check, pass, fail
F=/proc/systemtap/mon/monitor
# until PATTERN: up to ~10 s until the status file has a line matching PATTERN
until_status() {
	i=0
	while ! grep -q "$1" $F 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}
poke() { i=0; while [ $i -lt $1 ]; do echo x >/proc/systemtap/mon/poke; i=$((i + 1)); done; }
# the lines that do not move: globals, and the probes' index, state, hits, point
snap() { grep -E '^(global|probe)' $F | awk '$1 == "probe" { $5 = $6 = $7 = "-" } 1' |
	grep -v 'timer' >/tmp/snap; }
hits() { awk -v p="$1" '$1 == "probe" && index($0, p) { print $4 }' $F; }

mkfifo /tmp/keys
exec 3<>/tmp/keys
staprun -M 1 /m/mon.ko </tmp/keys >/tmp/o 2>/tmp/e &
sp=$!
until_status 'state running'
sleep 0.3
P=$(awk '$1 == "probe" && /procfs/ { print $2 }' $F)
T=$(awk '$1 == "probe" && /timer/ { print $2 }' $F)
poke 3
snap
cat >/tmp/x <<EOX
global long pokes 3
global string label started
global array seen 3
global stat st 3
global long ticks -
probe 0 fixed 1 - - - begin
probe $P on 3 - - - procfs("poke").write
probe 3 fixed 0 - - - end
EOX
# ticks moves: compare it apart
sed -i 's/^global long ticks .*/global long ticks -/' /tmp/snap
check "status: globals of each kind, probes with their hits" /tmp/x /tmp/snap
grep -q '^uptime_ms [0-9][0-9]*$' $F && grep -q '^module mon$' $F && grep -q '^uid 0$' $F &&
	grep -q '^memory [1-9][0-9]*$' $F && echo ok >/tmp/o2
echo ok >/tmp/x
check "status: uptime, module, uid, memory" /tmp/x /tmp/o2

# p: every probe but begin/end paused; hits and globals stop
printf p >&3
until_status "^probe $P off"
t1=$(hits timer)
poke 2
sleep 0.5
{ hits procfs; grep '^global long pokes' $F; [ "$(hits timer)" = "$t1" ] && echo timer stopped
  grep "^probe $T " $F | cut -d' ' -f3; grep '^probe 0 ' $F | cut -d' ' -f3; } >/tmp/o2
printf '3\nglobal long pokes 3\ntimer stopped\noff\nfixed\n' >/tmp/x
check "p pauses: no hits, globals unchanged, begin/end stay" /tmp/x /tmp/o2

# r: resumed
printf r >&3
until_status "^probe $P on"
poke 1
sleep 0.3
{ hits procfs; grep '^global long pokes' $F; [ "$(hits timer)" != "$t1" ] && echo timer runs; } >/tmp/o2
printf '4\nglobal long pokes 4\ntimer runs\n' >/tmp/x
check "r resumes: hits and globals move again" /tmp/x /tmp/o2

# c: globals back to their initial values
printf c >&3
until_status '^global long pokes 0'
grep -E '^global (long pokes|string|array|stat)' $F >/tmp/o2
printf 'global long pokes 0\nglobal string label init\nglobal array seen 0\nglobal stat st 0\n' >/tmp/x
check "c resets the globals (initial value, empty array and statistic)" /tmp/x /tmp/o2

# t N: one probe toggled off, the others run
printf "t${P}\n" >&3
until_status "^probe $P off"
t1=$(hits timer)
poke 2
sleep 0.3
{ hits procfs; grep '^global long pokes' $F; grep "^probe $T " $F | cut -d' ' -f3
  [ "$(hits timer)" != "$t1" ] && echo timer runs; } >/tmp/o2
printf '4\nglobal long pokes 0\non\ntimer runs\n' >/tmp/x
check "t toggles one probe off" /tmp/x /tmp/o2

# the file refuses what is not a command, and begin/end toggles
{ echo "toggle 0" >$F; echo "rc=$?"; echo "toggle 99" >$F; echo "rc=$?"; echo bogus >$F; echo "rc=$?"; } 2>/dev/null >/tmp/o2
printf 'rc=1\nrc=1\nrc=1\n' >/tmp/x
check "toggling begin, a probe that is not there, an unknown command: refused" /tmp/x /tmp/o2

kill -INT $sp
wait $sp; echo "rc=$?" >>/tmp/o
printf 'end pokes=0 label=init seen=0 st=0 ticking=1\nrc=0\n' >/tmp/x
check "the session ends as usual (end probe, status 0)" /tmp/x /tmp/o
# not a terminal: the status as plain blocks on stderr
grep -q '^uptime [0-9]*:[0-9][0-9]:[0-9][0-9]  module mon  invoker uid 0  memory ' /tmp/e &&
	grep -q '^globals: pokes=' /tmp/e && grep -q "probe (sorted by index)" /tmp/e &&
	grep -q 'procfs("poke").write' /tmp/e && echo ok >/tmp/o2
echo ok >/tmp/x
check "staprun -M without a terminal writes the status to stderr" /tmp/x /tmp/o2
[ -d /sys/module/mon ] || echo unloaded >/tmp/o2
echo unloaded >/tmp/x
check "unloaded" /tmp/x /tmp/o2

# On a terminal: the guest's first virtual console (25 x 80) interprets the escapes; /dev/vcs1
# is its screen. The window at the top, the script's output scrolling below it.
screen() { fold -w 80 /dev/vcs1 | sed 's/ *$//' >/tmp/scr; }
# row N: line N of the screen
row() { sed -n "${1}p" /tmp/scr; }
# output_ok FIRST-ROW: rows FIRST-ROW..25 hold "line K", "line K+1", ... (blank rows allowed
# before them only)
output_ok() {
	sed -n "$1,25p" /tmp/scr | awk '/^$/ && !seen { next } { seen = 1 }
		!/^line [0-9]+$/ { bad = 1 } { k = $2; if (prev && k != prev + 1) bad = 1; prev = k }
		END { exit bad || !seen }'
}
until_screen() {	# PATTERN: up to ~10 s until the screen has it
	i=0
	while screen && ! grep -q "$1" /tmp/scr && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}
exec 4<>/tmp/keys
staprun -M 1 /m/monout.ko </tmp/keys >/dev/tty1 2>&1 &
sp=$!
until_screen '^line 25$'
{ row 1 | cut -c1-7; row 2 | cut -c1-11; row 3 | sed 's/.*(/(/'; row 4 | awk '{ print $1, $2 }'
  row 5 | awk '{ print $1, $2, $NF }'; row 6 | cut -c1-5; output_ok 7 && echo output scrolls below; } >/tmp/o2
printf 'uptime \nglobals: n=\n(sorted by index)\n0 on\n1 fixed end\nkeys:\noutput scrolls below\n' >/tmp/x
check "terminal: the window on rows 1-6, the output scrolling below it" /tmp/x /tmp/o2
printf s >&4
until_screen 'sorted by hits$'
{ row 3 | sed 's/.*(/(/'; row 6; } >/tmp/o2
printf '(sorted by hits)\nsorted by hits\n' >/tmp/x
check "terminal: s sorts by hits" /tmp/x /tmp/o2
printf t1 >&4
until_screen '^toggle probe #: 1$'
row 6 >/tmp/o2
printf '\033' >&4
printf 'toggle probe #: 1\n' >/tmp/x
check "terminal: t shows its prompt on the window's last row" /tmp/x /tmp/o2
printf x >&4
sleep 1.5
screen
{ grep -c uptime /tmp/scr; output_ok 1 && echo the whole screen scrolls; } >/tmp/o2
printf '0\nthe whole screen scrolls\n' >/tmp/x
check "terminal: x hides the window" /tmp/x /tmp/o2
printf x >&4
until_screen '^uptime '
{ row 1 | cut -c1-7; screen; output_ok 7 && echo output below; } >/tmp/o2
printf 'uptime \noutput below\n' >/tmp/x
check "terminal: x shows it again" /tmp/x /tmp/o2
kill -INT $sp
wait $sp; echo "rc=$?" >/tmp/o2
echo rc=0 >/tmp/x
check "terminal: the session ends, status 0" /tmp/x /tmp/o2
echo "$pass passed, $fail failed"
