# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# bench/lib.sh: what bench/build, bench/probe-overhead and bench/output-rate share (sourced).
#
#   bench_tree REL DIR      a kernel build tree for REL at DIR: symlinks to /lib/modules/REL/build's
#                           entries plus DIR/System.map made from the guest's kallsyms (cached by
#                           testsuite/vm/kallsyms). The reference stap resolves kprobe.function
#                           names only through a System.map, which Debian's headers lack (and
#                           /boot is not ours to change); both translators get -r DIR
#   ref_puts                fills PUTS with run-vm --put arguments that install the reference's
#                           staprun + stapio and their libraries in the guest (as
#                           testsuite/observed/observe.sh does): /usr/bin/staprun there
#   now_ns                  the host's CLOCK_REALTIME in ns
#   median                  the median of the numbers on stdin (one a line)
#
# REF_STAP (default /work/shared/tools/reference-stap: the Debian package's stap 4.8 with its
# runtime patched for the 6.1.19x kernels) is the reference translator.

REF_STAP=${REF_STAP:-/work/shared/tools/reference-stap}
BENCH_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VMDIR=$BENCH_TOP/testsuite/vm

bench_tree() { # REL DIR
	local rel=$1 dir=$2 f map
	[ -d "/lib/modules/$rel/build" ] || { echo "bench: no /lib/modules/$rel/build (linux-headers-$rel)" >&2; return 1; }
	map=$("$VMDIR/kallsyms" --release "$rel" --path) || { echo "bench: no kallsyms for $rel" >&2; return 1; }
	mkdir -p "$dir"
	for f in "/lib/modules/$rel/build/"* "/lib/modules/$rel/build/".[!.]*; do
		[ -e "$f" ] && ln -sfn "$f" "$dir/$(basename "$f")"
	done
	grep -v '\[' "$map" >"$dir/System.map"
	# The reference finds the tracepoint headers (kernel.trace, its syscall.* aliases) under
	# the tree's `source`, which Debian's split headers lack (as in testsuite/vm/batch.sh).
	if [ ! -e "$dir/source" ]; then
		f=$(sed -n 's/^include \(\/.*\)\/Makefile$/\1/p' "$dir/Makefile" 2>/dev/null | head -n 1)
		if [ -n "$f" ] && [ -d "$f/include/trace/events" ]; then ln -s "$f" "$dir/source"; fi
	fi
}

ref_puts() {
	local f
	PUTS=(--put /usr/bin/staprun:/usr/bin/ --put /usr/lib/systemtap/stapio:/usr/lib/systemtap/
		--put /lib64/ld-linux-x86-64.so.2:/lib64/)
	for f in $(ldd /usr/bin/staprun /usr/lib/systemtap/stapio | grep -o '/[^ ]*\.so[^ ]*' | sort -u); do
		PUTS+=(--put "$(readlink -f "$f"):/lib/x86_64-linux-gnu/$(basename "$f")")
	done
}

now_ns() { date +%s%N; }

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

# build_pair NAME SCRIPT DIR [REF-OPTS...]: DIR/ours_NAME.ko with our stap and DIR/ref_NAME.ko
# with the reference (-p4 -r TREE, TREE = $BENCH_TREE), each in its default cache
# ($SYSTEMTAP_DIR or ~/.systemtap). REF-OPTS go to the reference only, the words of
# $PAIR_OPTS (e.g. -u) to both. Logs in DIR/*.log.
build_pair() { # (PAIR_OURS_ONLY=1: ours only)
	local name=$1 script=$2 dir=$3
	local -a both=()
	shift 3
	read -r -a both <<<"${PAIR_OPTS:-}"
	(cd "$dir" && "$BENCH_TOP/stap" -r "$BENCH_TREE" -p4 ${both[@]+"${both[@]}"} -m "ours_$name" "$script") \
		>"$dir/ours_$name.log" 2>&1 || { echo "bench: our build of $script failed:" >&2; tail -n 5 "$dir/ours_$name.log" >&2; return 1; }
	[ -z "${PAIR_OURS_ONLY:-}" ] || return 0
	(cd "$dir" && "$REF_STAP" -r "$BENCH_TREE" -p4 ${both[@]+"${both[@]}"} "$@" -m "ref_$name" "$script") \
		>"$dir/ref_$name.log" 2>&1 || { echo "bench: the reference's build of $script failed:" >&2; tail -n 5 "$dir/ref_$name.log" >&2; return 1; }
}

# run_guest DIR [-w] PROG N K ENTRY...: one boot (one CPU; run-vm --icount $BENCH_ICOUNT and
# --append $BENCH_APPEND when those are set) running bench/guest-run.sh [-w] PROG N K ENTRY...
# with DIR/*.ko and the workloads bench/syscallloop and bench/readloop (built static into DIR)
# in /m, our staprun-static as /bin/staprun and the reference's as /usr/bin/staprun. Its output
# goes to DIR/guest.out; returns run-vm's status.
run_guest() {
	local dir=$1 p
	shift
	for p in syscallloop readloop; do
		gcc -O2 -static -o "$dir/$p" "$BENCH_TOP/bench/$p.c" || return 1
	done
	mkdir -p "$dir/m"
	cp "$dir"/*.ko "$dir/syscallloop" "$dir/readloop" "$BENCH_TOP/bench/guest-run.sh" "$dir/m/"
	ref_puts
	local ic=()
	[ -z "${BENCH_ICOUNT:-}" ] || ic=(--icount "$BENCH_ICOUNT")
	[ -z "${BENCH_APPEND:-}" ] || ic+=(--append "$BENCH_APPEND")
	"$VMDIR/run-vm" --release "$BENCH_REL" --timeout "${BENCH_TIMEOUT:-900}" ${ic[@]+"${ic[@]}"} "${PUTS[@]}" \
		--put "$BENCH_TOP/staprun-static:/bin/staprun" --put "$dir/m:/m" \
		-- "sh /m/guest-run.sh $*" >"$dir/guest.out" 2>"$dir/guest.err"
}

# runs_median FILE LABEL: the median of the "R LABEL NS" lines of FILE (their first number).
runs_median() { awk -v l="$2" '$1 == "R" && $2 == l { print $3 }' "$1" | median; }
# extras FILE LABEL: for each "R LABEL NS" line of FILE, NS less the mean of the base runs just
# before and just after it (the nearest "R base" lines), one a line. Interleaving base runs
# with the others cancels the drift of a noisy host (and of the guest).
extras() {
	awk -v l="$2" '
		$1 != "R" { next }
		$2 == "base" {
			for (i = 0; i < np; i++) print pend[i] - (prev + $3) / 2
			np = 0
			prev = $3
			next
		}
		$2 == l { pend[np++] = $3 }' "$1"
}
# field FILE KEY LABEL: the third field of the "KEY LABEL VALUE" line of FILE.
field() { awk -v k="$2" -v l="$3" '$1 == k && $2 == l { print $3; exit }' "$1"; }
