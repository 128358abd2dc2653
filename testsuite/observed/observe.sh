#!/bin/bash
# observe.sh NAME...: build testsuite/observed/NAME.stp with the reference stap 4.8
# (pass 4 only, on the host), run the module with the reference staprun inside the
# QEMU guest (testsuite/vm/run-vm), and record NAME.out, NAME.err and the '# RC:' line.
# Options: '# OPTS:' line of NAME.stp -> stap, '# STAPRUN:' line -> staprun.
set -u
here=$(cd "$(dirname "$0")" && pwd)
OBS=$here
RUNVM=$here/../vm/run-vm
REL=${REL:-6.1.0-56-amd64}
B=${OBS_BUILD:-/tmp/obs/build}
mkdir -p "$B"
# staprun + stapio + every shared library they need (ldd) + the dynamic loader
PUTS="--put /usr/bin/staprun:/usr/bin/ --put /usr/lib/systemtap/stapio:/usr/lib/systemtap/"
PUTS="$PUTS --put /lib64/ld-linux-x86-64.so.2:/lib64/"
for f in $(ldd /usr/bin/staprun /usr/lib/systemtap/stapio | grep -o '/[^ ]*\.so[^ ]*' | sort -u); do
  PUTS="$PUTS --put $(readlink -f "$f"):/lib/x86_64-linux-gnu/$(basename "$f")"
done
for name in "$@"; do
  src=$OBS/$name.stp
  opts=$(sed -n 's/^# OPTS:[ ]*//p' "$src" | head -1)
  sropts=$(sed -n 's/^# STAPRUN:[ ]*//p' "$src" | head -1)
  mod=obs_$name
  rm -f "$B/$mod.ko"
  # shellcheck disable=SC2086
  ( cd "$B" && /work/shared/tools/reference-stap -r "$REL" -p4 -m "$mod" $opts "$src" ) \
    >"$B/$name.build.out" 2>"$B/$name.build.err"
  if [ ! -f "$B/$mod.ko" ]; then echo "$name: BUILD FAILED"; cat "$B/$name.build.err"; continue; fi
  # /m, not /tmp: run-vm mounts a tmpfs over /tmp after unpacking the initramfs.
  # Output goes through base64 so that NUL and high bytes survive the serial console.
  # shellcheck disable=SC2086
  "$RUNVM" --release "$REL" --timeout 120 $PUTS --put "$B/$mod.ko:/m/" -- \
    "staprun $sropts /m/$mod.ko >/tmp/o 2>/tmp/e; rc=\$?; echo @@OUT; base64 /tmp/o; echo @@ERR; base64 /tmp/e; echo @@RC \$rc" \
    >"$B/$name.vm" 2>"$B/$name.vmerr"
  vmrc=$?
  if [ $vmrc -ne 0 ]; then echo "$name: run-vm exit $vmrc"; tail -30 "$B/$name.vmerr"; continue; fi
  awk '/^@@OUT/{s=1;next} /^@@ERR/{s=0} s' "$B/$name.vm" | base64 -d > "$OBS/$name.out"
  awk '/^@@ERR/{s=1;next} /^@@RC/{s=0} s' "$B/$name.vm" | base64 -d > "$OBS/$name.err"
  rc=$(sed -n 's/^@@RC //p' "$B/$name.vm")
  if grep -q '^# RC:' "$src"; then sed -i "s/^# RC:.*/# RC: $rc/" "$src"; else sed -i "1i # RC: $rc" "$src"; fi
  echo "$name: rc=$rc out=$(wc -c <"$OBS/$name.out") err=$(wc -c <"$OBS/$name.err")"
done
