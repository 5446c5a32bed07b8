#!/usr/bin/env bash
# Profiles `rebuildEntitlements` alone under callgrind, with a simulated 1 MiB last-level cache, at one history size:
# the history is generated and decoded without instrumentation (fast), which is switched on once it is ready.
#
#     Scripts/profile-rebuild.sh BENCH SIZE CALLS OUT
#
# BENCH is a release build of entitlements-bench; OUT receives callgrind's profile. Prints callgrind's totals; the
# instructions and the last-level misses (reads and writes) per transaction are those totals divided by SIZE × CALLS.
set -euo pipefail
bench=$1 size=$2 calls=$3 out=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkfifo "$work/in"
SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --instr-atstart=no --cache-sim=yes --LL=1048576,16,64 \
    --toggle-collect='$s18FamilyEntitlements07rebuildB0*' --callgrind-out-file="$out" \
    "$bench" --rebuild-probe "$size" "$calls" --wait <"$work/in" >"$work/log" 2>&1 &
pid=$!
exec 3>"$work/in"
until grep -q "history ready" "$work/log"; do
    kill -0 "$pid" 2>/dev/null || { cat "$work/log"; exit 1; }
    sleep 1
done
callgrind_control -i on "$pid" >/dev/null
echo >&3
wait "$pid"
grep -E "rebuild,|Collected|refs|LL misses" "$work/log"
