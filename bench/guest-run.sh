#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/guest-run.sh: the guest half of bench/probe-overhead and bench/output-rate (busybox sh,
# run by run-vm). Usage: guest-run.sh N K ENTRY...
#   base                      K runs of `/m/readloop N` without a module
#   LABEL:STAPRUN:MODULE      STAPRUN -o /tmp/LABEL.out MODULE in the background; once the module
#                             is in /proc/modules (and 2 s more, for the probes to be registered),
#                             K runs of readloop; then SIGINT, and the module's end output
# Prints "R LABEL NS" per run, then per module "RC LABEL STATUS", "HITS LABEL N" (from the
# script's "hits N" line), "LINES LABEL N" (lines of output), "BYTES LABEL N" and "ERR LABEL
# TEXT" for each line staprun wrote on stderr.
N=$1 K=$2
shift 2
runs() { # LABEL
	i=0
	while [ $i -lt "$K" ]; do
		echo "R $1 $(/m/readloop "$N")"
		i=$((i + 1))
	done
}
for e in "$@"; do
	case $e in
	base) runs base ;;
	*)
		label=${e%%:*} rest=${e#*:}
		srun=${rest%%:*} mod=${rest#*:}
		name=$(basename "$mod" .ko)
		"$srun" -o "/tmp/$label.out" "$mod" 2>"/tmp/$label.err" &
		p=$!
		w=0
		while ! grep -q "^$name " /proc/modules && [ $w -lt 300 ]; do
			sleep 0.1
			w=$((w + 1))
		done
		sleep 2
		runs "$label"
		sleep 1	# output still in the buffers drains before the end probe prints
		kill -INT $p
		wait $p
		echo "RC $label $?"
		echo "HITS $label $(sed -n 's/^hits \([0-9]*\)$/\1/p' "/tmp/$label.out" | tail -n 1)"
		echo "LINES $label $(wc -l <"/tmp/$label.out")"
		echo "BYTES $label $(wc -c <"/tmp/$label.out")"
		sed "s/^/ERR $label /" "/tmp/$label.err"
		rm -f "/tmp/$label.out"
		;;
	esac
done
echo DONE
