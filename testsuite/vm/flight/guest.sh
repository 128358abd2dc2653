# testsuite/vm/flight/guest.sh: the flight-recorder checks, in the guest
# (testsuite/vm/flight-recorder puts fr_tick.ko, fr_exit.ko and staprun here).
. /m/guest-lib.sh	# check, pass, fail
gone() {	# the module is unloaded
	[ ! -d /sys/module/$1 ]
}

# -L: starts, detaches, says how to reconnect; the module stays
staprun -L /m/fr_tick.ko >/tmp/o 2>/tmp/e; echo "rc=$?" >>/tmp/o
[ -d /sys/module/fr_tick ] && echo loaded >>/tmp/o
printf 'rc=0\nloaded\n' >/tmp/x
check "-L exits 0, module loaded" /tmp/x /tmp/o
printf '\nDisconnecting from systemtap module.\nTo reconnect, type "staprun -A fr_tick"\n' >/tmp/x
check "-L message" /tmp/x /tmp/e
sleep 1
# a second -A while one is attached is refused; the first one gets everything
staprun -A fr_tick -T 2 >/tmp/o 2>/tmp/e &
sp=$!
sleep 1
staprun -A fr_tick >/tmp/o2 2>/tmp/e2; echo "rc=$?" >>/tmp/o2
wait $sp; echo "rc=$?" >>/tmp/o
gone fr_tick && echo unloaded >>/tmp/o
printf 'begin\ntick 1\ntick 2\ntick 3\nend after 3+ ticks\nrc=0\nunloaded\n' >/tmp/x
check "-A streams the buffered and new output, ends the session, unloads" /tmp/x /tmp/o
printf 'WARNING: tick two\n' >/tmp/x
check "-A gets the messages queued while detached" /tmp/x /tmp/e
printf 'rc=1\n' >/tmp/x
check "a second -A is refused" /tmp/x /tmp/o2
grep -q "Device or resource busy" /tmp/e2 && echo busy >/tmp/o2
printf 'busy\n' >/tmp/x
check "a second -A says why" /tmp/x /tmp/o2

# -A -o FILE
staprun -L /m/fr_tick.ko 2>/dev/null
sleep 1
staprun -A fr_tick.ko -T 1 -o /tmp/fo >/tmp/o 2>/dev/null; echo "rc=$?" >>/tmp/o
printf 'rc=0\n' >/tmp/x
check "-A -o: nothing on stdout" /tmp/x /tmp/o
printf 'begin\ntick 1\ntick 2\ntick 3\nend after 3+ ticks\n' >/tmp/x
check "-A -o: the output in the file" /tmp/x /tmp/fo

# -d ends and unloads a detached module without reading it
staprun -L /m/fr_tick.ko 2>/dev/null
staprun -d fr_tick >/tmp/o 2>&1; echo "rc=$?" >>/tmp/o
gone fr_tick && echo unloaded >>/tmp/o
printf 'rc=0\nunloaded\n' >/tmp/x
check "-d unloads a detached module" /tmp/x /tmp/o
staprun -A fr_tick >/tmp/o 2>&1; echo "rc=$?" >>/tmp/o
printf "ERROR: No module 'fr_tick' is loaded\nrc=1\n" >/tmp/x
check "-A of a module that is not loaded" /tmp/x /tmp/o

# exit() while detached: the session ends once -A attaches
staprun -L /m/fr_exit.ko 2>/dev/null
sleep 1
[ -d /sys/module/fr_exit ] && echo still-loaded >/tmp/o
staprun -A fr_exit >>/tmp/o 2>&1; echo "rc=$?" >>/tmp/o
gone fr_exit && echo unloaded >>/tmp/o
printf 'still-loaded\nexiting\nend\nrc=0\nunloaded\n' >/tmp/x
check "exit() while detached ends at -A" /tmp/x /tmp/o

# bad combinations
staprun -L -c true /m/fr_tick.ko >/dev/null 2>&1; echo "rc=$?" >/tmp/o
staprun -A fr_tick -x 1 >/dev/null 2>&1; echo "rc=$?" >>/tmp/o
gone fr_tick && echo not-loaded >>/tmp/o
printf 'rc=1\nrc=1\nnot-loaded\n' >/tmp/x
check "-L -c and -A -x are refused" /tmp/x /tmp/o

if dmesg | grep -qE 'BUG:|WARNING:|Oops|fr_(tick|exit): staprun closed'; then
	echo "FAIL: kernel log"; dmesg | grep -E 'BUG:|WARNING:|Oops|fr_' | sed 's/^/    | /'
	fail=$((fail + 1))
else
	echo "PASS: kernel log clean"; pass=$((pass + 1))
fi
echo "$pass passed, $fail failed"
