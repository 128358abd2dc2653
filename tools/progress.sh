# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/progress.sh: a progress line on the terminal while a long step reads a big file
# (a .deb being unpacked). Sourced by tools/fetch-debuginfo and testsuite/vm/fetch-kernel.
#
#   progress_on                  true when progress is shown: stderr is a terminal
#                                (CSTAP_PROGRESS=1 forces it on, CSTAP_PROGRESS=0 off)
#   progress_begin LABEL FILE    from now on, twice a second, "LABEL: NN% (X of Y MB)" on
#                                stderr (one line, rewritten), NN being how far a process of
#                                this script's process group has read FILE (its file position,
#                                from /proc/PID/fdinfo); nothing when progress_on is false
#   progress_end                 stops it and erases the line
#
# The watcher is a background subshell; nothing is shown until a process has FILE open.

_PROGRESS_PID=''

progress_on() {
	case ${CSTAP_PROGRESS-} in
	1) return 0 ;;
	0) return 1 ;;
	esac
	[ -t 2 ]
}

# _progress_pgrp PID: the process group of PID in _PGRP (field 5 of /proc/PID/stat; the
# command name in field 2 may hold spaces and parentheses, so the fields are counted after
# the last ')'). No subshells here and below: the watcher must leave no child behind when
# progress_end kills it.
_progress_pgrp() {
	local s
	_PGRP=''
	read -r s 2>/dev/null <"/proc/$1/stat" || return 1
	s=${s##*) }
	# shellcheck disable=SC2086 # split into fields
	set -- $s
	_PGRP=$3
}

# _progress_find FILE PGRP: "PID FD" of a process of PGRP with FILE open in _WHERE, or ''.
_progress_find() {
	local want=$1 pgrp=$2 d fd
	_WHERE=''
	for d in /proc/[0-9]*; do
		_progress_pgrp "${d#/proc/}" || continue
		[ "$_PGRP" = "$pgrp" ] || continue
		for fd in "$d"/fd/*; do
			if [ "$fd" -ef "$want" ]; then
				_WHERE="${d#/proc/} ${fd##*/}"
				return 0
			fi
		done
	done
	return 0
}

# _progress_watch LABEL FILE PGRP: the background loop.
_progress_watch() {
	local label=$1 file=$2 pgrp=$3 size where pos line pct last=-1 mb total
	size=$(stat -L -c %s "$file" 2>/dev/null) || return 0
	[ "$size" -gt 0 ] || return 0
	total=$(( (size + 524288) / 1048576 ))
	where=''
	# progress_end's SIGTERM: the pause's sleep is reaped before the watcher goes
	local sleeper=''
	trap '[ -z "$sleeper" ] || { kill "$sleeper" 2>/dev/null; wait "$sleeper" 2>/dev/null; }; exit 0' TERM
	while :; do
		if [ -z "$where" ]; then
			_progress_find "$file" "$pgrp"
			where=$_WHERE
		fi
		pos=''
		if [ -n "$where" ]; then
			# shellcheck disable=SC2086 # "PID FD"
			set -- $where
			read -r line 2>/dev/null <"/proc/$1/fdinfo/$2" || { where=''; line=''; }
			case $line in
			pos:*) pos=${line#pos:}; pos=${pos//[[:space:]]/} ;;
			esac
		fi
		if [ -n "$pos" ]; then
			pct=$(( pos * 100 / size ))
			[ $pct -le 100 ] || pct=100
			if [ $pct != "$last" ]; then
				mb=$(( pos / 1048576 ))
				printf '\r%s: %3d%% (%d of %d MB)' "$label" "$pct" "$mb" "$total" >&2
				last=$pct
			fi
		fi
		sleep 0.5 &
		sleeper=$!
		wait "$sleeper"
		sleeper=''
	done
}

progress_begin() {
	local label=$1 file pgrp
	progress_end
	progress_on || return 0
	file=$2
	[ -f "$file" ] || return 0
	_progress_pgrp "$BASHPID" || return 0
	_progress_watch "$label" "$file" "$_PGRP" &
	_PROGRESS_PID=$!
}

progress_end() {
	[ -n "$_PROGRESS_PID" ] || return 0
	kill "$_PROGRESS_PID" 2>/dev/null || true
	wait "$_PROGRESS_PID" 2>/dev/null || true
	_PROGRESS_PID=''
	printf '\r\033[K' >&2
}
