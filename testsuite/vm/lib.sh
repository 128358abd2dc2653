# SPDX-License-Identifier: GPL-2.0-or-later
# testsuite/vm/lib.sh: helpers shared by the VM harness scripts (sourced, not run).
# shellcheck shell=bash

# shellcheck disable=SC2034 # used by the scripts that source this file
VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck disable=SC2034
VM_CACHE=${CSTAP_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cstap-vm}
PROG=${PROG:-$(basename "$0")}

die() {
	printf '%s: %s\n' "$PROG" "$*" >&2
	exit 1
}

note() {
	printf '%s: %s\n' "$PROG" "$*" >&2
}

# usage_from_header FILE: print the comment block after the SPDX line (the help text).
usage_from_header() {
	sed -n '3,/^[^#]/{/^#/!q;s/^# \{0,1\}//;p}' "$1"
}

# need_qemu: exit 2 with the package to install when qemu-system-x86_64 is missing.
need_qemu() {
	if ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
		printf '%s: qemu-system-x86_64 not found: install the Debian package qemu-system-x86\n' "$PROG" >&2
		printf '%s:   apt-get install --no-install-recommends qemu-system-x86\n' "$PROG" >&2
		exit 2
	fi
}

# read_kv FILE KEY: print the value of the first KEY=VALUE line of FILE.
read_kv() {
	local line
	while IFS= read -r line; do
		if [ "${line%%=*}" = "$2" ]; then
			printf '%s\n' "${line#*=}"
			return 0
		fi
	done <"$1"
	return 1
}

# sha256_of FILE...: the hex SHA-256 of the concatenation of the arguments' contents.
sha256_of() {
	cat "$@" | sha256sum | cut -d' ' -f1
}

# default_release LINE: the release of LINE's kernel as last resolved by fetch-kernel (its
# record in the cache), or as fetch-kernel resolves it now (which also fetches it).
default_release() {
	local rel
	if [ -f "$VM_CACHE/line-$1" ] && rel=$(read_kv "$VM_CACHE/line-$1" release); then
		printf '%s\n' "$rel"
		return 0
	fi
	"$VM_DIR/fetch-kernel" --cache "$VM_CACHE" --line "$1" >"$VM_CACHE/.resolve.$$" || {
		rm -f "$VM_CACHE/.resolve.$$"
		return 1
	}
	rel=$(read_kv "$VM_CACHE/.resolve.$$" release)
	rm -f "$VM_CACHE/.resolve.$$"
	printf '%s\n' "$rel"
}
