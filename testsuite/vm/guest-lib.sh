#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# testsuite/vm/guest-lib.sh: helpers for the guest halves of the VM suites (stress, faults,
# flight, mon), sourced by their guest.sh from /m/guest-lib.sh (the host copies it next to
# them). The suites of run_tests define R (its results directory) and leftovers() (what of its
# own outlived a test).

# finish NAME: the kernel log since the last test, and what is left loaded.
finish() {
	dmesg -c >"$R/$1/dmesg" 2>&1
	leftovers >"$R/$1/left"
}

# wait_for FILE TEXT: up to ~20 s until FILE holds TEXT.
wait_for() {
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# run_tests NAME...: each test's function t_NAME with D=$R/NAME (made, with an empty notes
# file), then finish, then its results to the console as a base64 tar between `@@RESULT NAME`
# and `@@ENDRESULT` (a crash loses only the test that caused it); `@@RUN NAME UPTIME` before each.
run_tests() {
	for t in "$@"; do
		D=$R/$t
		mkdir -p "$D"
		: >"$D/notes"
		echo "@@RUN $t $(cut -d' ' -f1 /proc/uptime)"
		"t_$t"
		finish "$t"
		echo "@@RESULT $t"
		tar czf - -C $R "$t" | base64
		echo @@ENDRESULT
	done
	echo "@@RUN done $(cut -d' ' -f1 /proc/uptime)"
}

# check NAME EXPECTED-FILE ACTUAL-FILE: PASS or FAIL (with both files), counted in pass/fail.
pass=0 fail=0
check() {
	if cmp -s "$2" "$3"; then
		echo "PASS: $1"; pass=$((pass + 1))
	else
		echo "FAIL: $1"; fail=$((fail + 1))
		echo "    expected:"; sed 's/^/    | /' "$2"
		echo "    got:"; sed 's/^/    | /' "$3"
	fi
}
