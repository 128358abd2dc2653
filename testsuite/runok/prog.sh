# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# testsuite/runok/prog.sh: how a runok test's `# PROG:` program is built and found (sourced by
# testsuite/runok/run, which runs it, and testsuite/run, which translates the scripts).
#
#   runok_prog_flags WORD...     RUNOK_PROG_FLAGS = the gcc options for a PROG whose
#                                `# PROG-CFLAGS:` words are WORD...: -static -O1 -g -Wall, then
#                                the words; -static-pie replaces -static (gcc cannot link both),
#                                and -dynamic (the runner's word, not gcc's) drops it
#   runok_prog_named SCRIPT BASE whether SCRIPT names its program /m/prog/BASE for the
#                                translator: in a probe point (process("/m/prog/BASE")) or in
#                                its OPTS (-c /m/prog/BASE, for bare process.* points); such a
#                                script is translated with --sysroot holding the program

runok_prog_flags() {
	local w static=1
	for w in "$@"; do
		case $w in -static-pie | -dynamic) static=0 ;; esac
	done
	RUNOK_PROG_FLAGS=()
	[ $static = 0 ] || RUNOK_PROG_FLAGS+=(-static)
	RUNOK_PROG_FLAGS+=(-O1 -g -Wall)
	for w in "$@"; do
		[ "$w" = -dynamic ] || RUNOK_PROG_FLAGS+=("$w")
	done
}

runok_prog_named() {
	grep -q "\"/m/prog/$2\"" "$1" ||
		grep -m1 -E '^#[[:space:]]*OPTS:' "$1" | grep -q "/m/prog/$2\\b"
}
