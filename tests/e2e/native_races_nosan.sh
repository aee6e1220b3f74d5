#!/usr/bin/env bash
# The rearm race on real hardware: naive and singleshot return while the
# re-arming function still runs (violations) or oops, base_tracking never.
# 6 seeds x 202 calls per strategy; the host's CPU 1 runs the timer.
set -u
numasim=$1 src=$2
. "$src/tests/e2e/lib/common.bash"

run run --native -q --set measure.arm_cpu=1 --set scenario.seeds=6 \
    --set scenario.strategies=naive,singleshot,base_tracking \
    -o "$tmp/rr.csv" "$src/scenarios/race-rearm.ini"
[ "$rc" -eq 0 ] || fail "native race-rearm: exit $rc: $err"
get() { awk -F, -v s="$1" -v c="$2" '$5 == s { print $c }' "$tmp/rr.csv"; }
[ "$(get naive 13)" -gt 0 ] || fail "naive showed no violation on the host: $(cat "$tmp/rr.csv")"
[ $(($(get singleshot 13) + $(get singleshot 14))) -gt 0 ] ||
    fail "singleshot showed neither violation nor oops on the host: $(cat "$tmp/rr.csv")"
[ "$(get base_tracking 13)" -eq 0 ] || fail "base_tracking violated on the host: $(cat "$tmp/rr.csv")"
[ "$fails" -eq 0 ] || exit 1
echo "native races: naive $(get naive 13) violations, singleshot $(get singleshot 13) violations and $(get singleshot 14) oopses, base_tracking 0"
