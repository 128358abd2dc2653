# SPDX-License-Identifier: GPL-2.0-or-later
# testsuite/examples-lib.sh: helpers shared by testsuite/examples-survey and
# testsuite/examples-run (sourced, not run): reading the examples' .meta command lines,
# shell-word splitting without execution, first errors of a stderr, exit statuses.
# shellcheck shell=bash

# first_error FILE: the first line of a stderr that says what went wrong: not a warning, a
# tip, a `Pass N:` line or an indented continuation. A context line (`... while resolving
# probe point: ...`, `... while processing probe ...`, `... in expansion of alias ...`) gets
# the next such line appended after ` | `.
first_error() {
	awk '/^(WARNING|Tip:|Pass [0-9])/ || /^[[:space:]]/ || /^$/ { next }
	{
		gsub(/\t/, " ")
		line = line (line == "" ? "" : " | ") $0
		if ($0 !~ /while (resolving probe point|processing probe)|in expansion of alias/) exit
	}
	END { printf "%s", substr(line, 1, 300) }' "$1" 2>/dev/null
	echo
}

# quoted WORDS...: the words shell-quoted ('...' where needed), space-separated.
quoted() {
	local w sep='' sq="'\\''"
	for w in "$@"; do
		if [[ $w =~ ^[A-Za-z0-9_@%+=:,./-]+$ ]]; then
			printf '%s%s' "$sep" "$w"
		else
			printf "%s'%s'" "$sep" "${w//\'/$sq}"
		fi
		sep=' '
	done
}

# status RC: the table's form of an exit status.
status() {
	local rc=$1
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo timeout
	elif [ "$rc" -gt 128 ]; then
		echo "SIG$(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128)))"
	else
		echo "$rc"
	fi
}


# shell_words STRING: POSIX shell word splitting of STRING (single quotes, double quotes with
# their backslash escapes, backslashes outside quotes), into WORDS. Nothing is executed:
# outside single quotes `$$` becomes 1 and a `command` substitution what subst_cmd says.
shell_words() {
	local s=$1 i=0 n=${#1} c w='' inword=0 q='' j bs=$'\\'
	WORDS=()
	while [ "$i" -lt "$n" ]; do
		c=${s:i:1}
		if [ "$q" = "'" ]; then
			if [ "$c" = "'" ]; then q=; else w+=$c; fi
		elif [ "$c" = '$' ] && [ "${s:i+1:1}" = '$' ]; then
			i=$((i + 1)) w+=1 inword=1
		elif [ "$c" = '`' ]; then
			j=$((i + 1))
			while [ "$j" -lt "$n" ] && [ "${s:j:1}" != '`' ]; do j=$((j + 1)); done
			w+=$(subst_cmd "${s:i+1:j-i-1}") inword=1 i=$j
		elif [ "$q" = '"' ]; then
			if [ "$c" = '"' ]; then
				q=
			elif [ "$c" = "$bs" ] && [ $((i + 1)) -lt "$n" ] && [[ ${s:i+1:1} == [\"\\\$\`] ]]; then
				i=$((i + 1)) w+=${s:i:1}
			else
				w+=$c
			fi
		else
			case $c in
			' ' | $'\t')
				if [ $inword = 1 ]; then WORDS+=("$w"); fi
				w='' inword=0 ;;
			"'" | '"') q=$c inword=1 ;;
			"$bs") i=$((i + 1)) w+=${s:i:1} inword=1 ;;
			*) w+=$c inword=1 ;;
			esac
		fi
		i=$((i + 1))
	done
	if [ $inword = 1 ]; then WORDS+=("$w"); fi
}

# subst_cmd TEXT: what the .meta files' `TEXT` substitutions stand for: `which stap` is the
# stap surveyed, `grep "SYM" /proc/kallsyms | ...` SYM's address in $SYSMAP (default
# /boot/System.map-REL; ffffffff81000000 without one); anything else is left as it was written.
subst_cmd() {
	local a=
	if [ "$1" = "which stap" ]; then
		printf '%s' "$STAP"
	elif [[ $1 =~ ^grep\ \"([A-Za-z0-9_]+)\"\ /proc/kallsyms ]]; then
		local map=${SYSMAP:-/boot/System.map-$REL}
		if [ -f "$map" ]; then
			a=$(awk -v s="${BASH_REMATCH[1]}" '$3 == s { print $1; exit }' "$map")
		fi
		printf '%s' "${a:-ffffffff81000000}"
	else
		# shellcheck disable=SC2016  # literal backquotes
		printf '`%s`' "$1"
	fi
}

# meta_line SCRIPT: the stap command line of SCRIPT's .meta (test_check, else
# test_installcheck); empty when there is none.
meta_line() {
	local meta=${1%.stp}.meta key l
	[ -f "$meta" ] || return 0
	for key in test_check test_installcheck; do
		l=$(grep -m1 -E "^$key:" -- "$meta" || true)
		l=${l#*:}
		l=${l#"${l%%[![:space:]]*}"}
		case $l in stap\ *) break ;; *) l= ;; esac
	done
	printf '%s\n' "$l"
}

# parse_meta LINE SCRIPTNAME: splits a `stap OPTIONS SCRIPT ARGS` line into OOPTS (ours),
# ROPTS (the reference) and SARGS. Options may follow the script (stap permutes them).
# For a run, also: RUNOPTS, what stap hands to staprun (-T SECS, -c CMD, -x PID, -o FILE),
# MODOPTS, each -G NAME=VALUE as a module option NAME=VALUE, BOPTS and RBOPTS, OOPTS and
# ROPTS without the staprun-only -c, -x, -o, -T, except that RBOPTS keeps -T: the reference
# compiles its time limit into the module (a timer probe calling exit()), its staprun's -T is
# something else; PASS, the -p given (empty when none).
parse_meta() {
	local w o i k seen=0
	OOPTS=() ROPTS=() SARGS=() RUNOPTS=() MODOPTS=() BOPTS=() RBOPTS=() PASS=''
	shell_words "$1"
	local -a ws=("${WORDS[@]:1}")
	i=0
	while [ $i -lt ${#ws[@]} ]; do
		w=${ws[i]}
		i=$((i + 1))
		case $w in
		--bpf) continue ;;
		--) continue ;;
		--*) OOPTS+=("$w"); ROPTS+=("$w"); BOPTS+=("$w"); RBOPTS+=("$w"); continue ;;
		-?*) ;;
		*)
			if [ $seen = 0 ] && [ "$w" = "$2" ]; then seen=1; else SARGS+=("$w"); fi
			continue ;;
		esac
		# short options, possibly bundled (-gp4, -wp4)
		k=1
		while [ $k -lt ${#w} ]; do
			o=${w:k:1}
			k=$((k + 1))
			case $o in
			[pITGDxcdrmosRae])
				local v=${w:k}
				if [ -z "$v" ]; then v=${ws[i]:-}; i=$((i + 1)); fi
				case $o in
				p) PASS=$v ;;
				T) RUNOPTS+=(-T "$v"); RBOPTS+=(-T "$v") ;;
				[cxo]) OOPTS+=("-$o" "$v"); ROPTS+=("-$o" "$v"); RUNOPTS+=("-$o" "$v") ;;
				*) OOPTS+=("-$o" "$v"); ROPTS+=("-$o" "$v")
					BOPTS+=("-$o" "$v"); RBOPTS+=("-$o" "$v")
					if [ "$o" = G ]; then MODOPTS+=("$v"); fi ;;
				esac
				break ;;
			*) OOPTS+=("-$o"); ROPTS+=("-$o"); BOPTS+=("-$o"); RBOPTS+=("-$o") ;;
			esac
		done
	done
}
