#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/guest-run.sh: the guest half of bench/probe-overhead and bench/output-rate (busybox sh,
# run by run-vm). Usage: guest-run.sh [-w] PROG N K ENTRY...
#   PROG                      the workload in /m (syscallloop, readloop), run as `/m/PROG N`
#   -w                        in a module's runs, `/m/PROG N /tmp/LABEL.out`: the workload
#                             also waits for the module's output to arrive (see syscallloop.c)
#   base                      K runs of the workload without a module
#   LABEL:STAPRUN:MODULE[:OPTS]
#                             STAPRUN [OPTS] -o /tmp/LABEL.out MODULE in the background (OPTS:
#                             staprun's options, with commas for spaces); once the module is in
#                             /proc/modules (and 2 s more, for the probes to be registered), K
#                             runs of the workload; then SIGINT, and the module's end output
# Prints "R LABEL NS..." per run (the workload's output), then per module "KPROBES LABEL N"
# (lines of /sys/kernel/debug/kprobes/list and /sys/kernel/tracing/enabled_functions while it
# was loaded: kprobes, and function entries armed through ftrace), "RC LABEL STATUS", "HITS LABEL
# N" (from the script's "hits N" line), "LINES LABEL N" (lines of output), "BYTES LABEL N",
# "SEQ LABEL LINES MAX BAD FIRST GAP" (the output's lines that start with a 10-digit sequence
# number, the largest number, how many of them were not one more than the line before, the
# number expected at the first such break, and the largest run of numbers missing at one break)
# and "ERR LABEL TEXT" for each line staprun wrote on stderr.
WAIT=0
[ "$1" != -w ] || { WAIT=1; shift; }
PROG=$1 N=$2 K=$3
shift 3
runs() { # LABEL [FILE]
	i=0
	while [ $i -lt "$K" ]; do
		echo "R $1 $("/m/$PROG" "$N" ${2:+"$2"})"
		i=$((i + 1))
	done
}
for e in "$@"; do
	case $e in
	base) runs base ;;
	*)
		label=${e%%:*} rest=${e#*:}
		srun=${rest%%:*} mod=${rest#*:} opts=''
		case $mod in *:*) opts=$(echo "${mod#*:}" | tr , ' ') mod=${mod%%:*} ;; esac
		name=$(basename "$mod" .ko)
		# shellcheck disable=SC2086 # OPTS are words
		"$srun" $opts -o "/tmp/$label.out" "$mod" 2>"/tmp/$label.err" &
		p=$!
		w=0
		while ! grep -q "^$name " /proc/modules && [ $w -lt 300 ]; do
			sleep 0.1
			w=$((w + 1))
		done
		sleep 2
		echo "KPROBES $label $(($(wc -l </sys/kernel/debug/kprobes/list) + $(wc -l </sys/kernel/tracing/enabled_functions)))"
		if [ $WAIT = 1 ]; then runs "$label" "/tmp/$label.out"; else runs "$label"; fi
		sleep 1	# output still in the buffers drains before the end probe prints
		kill -INT $p
		wait $p
		echo "RC $label $?"
		echo "HITS $label $(sed -n 's/^hits \([0-9]*\)$/\1/p' "/tmp/$label.out" | tail -n 1)"
		echo "LINES $label $(wc -l <"/tmp/$label.out")"
		echo "BYTES $label $(wc -c <"/tmp/$label.out")"
		# (leading zeros stripped: busybox awk reads 0-prefixed numbers as octal)
		awk -v l="$label" '/^[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9] / {
				s = $1; sub(/^0+/, "", s); v = s + 0; c++
				if (v != p + 1) { bad++; if (!f) f = p + 1; if (v - p - 1 > g) g = v - p - 1 }
				p = v; if (v > m) m = v }
			END { print "SEQ", l, c + 0, m + 0, bad + 0, f + 0, g + 0 }' "/tmp/$label.out"
		sed "s/^/ERR $label /" "/tmp/$label.err"
		rm -f "/tmp/$label.out"
		;;
	esac
done
echo DONE
