#!/usr/bin/env bash
# numasim run --native: the same scenarios on this host's threads and memory.
# Shape of the CSV, the oracle on the host (base_tracking never violates),
# and bad input (a CPU the host lacks) as one line with exit code 2.
set -u
numasim=$1 src=$2
. "$src/tests/e2e/lib/common.bash"

ncpu=$(nproc)
[ "$ncpu" -ge 2 ] || die "the native tests need 2 CPUs, this host has $ncpu"

# paper-table, shortened: 5 strategies x warm/cold = 10 rows on the host
run run --native -q --set measure.calls=40 --set measure.warmup_calls=2 \
    -o "$tmp/pt.csv" "$src/scenarios/paper-table.ini"
[ "$rc" -eq 0 ] || fail "native paper-table: exit $rc: $err"
[ "$(wc -l < "$tmp/pt.csv")" -eq 11 ] || fail "native paper-table: $(wc -l < "$tmp/pt.csv") lines, expected 11"
run run -q --set measure.calls=2 --set measure.warmup_calls=0 --set scenario.platforms="$src/platforms/smp4.xml" \
    -o "$tmp/sim.csv" "$src/scenarios/paper-table.ini"
head -1 "$tmp/pt.csv" | cmp -s - <(head -1 "$tmp/sim.csv") ||
    fail "native CSV header differs from the simulated one"
awk -F, -v n="$ncpu" 'NR > 1 && ($2 != "host" || $3 != n || $7 != 40 || $8 <= 0 || $13 != 0) { bad = 1 }
    END { exit bad }' "$tmp/pt.csv" || fail "native paper-table rows: $(cat "$tmp/pt.csv")"
grep -q '^;   model = ' "$tmp/pt.resolved.ini" || fail "resolved configuration lacks the host's model"
grep -q '^;   clock = ' "$tmp/pt.resolved.ini" || fail "resolved configuration lacks the host's clock"

# the oracle on real hardware: base_tracking stays correct under the rearm race
run run --native -q --set measure.arm_cpu=1 --set measure.calls=100 --set scenario.strategies=base_tracking \
    -o "$tmp/rr.csv" "$src/scenarios/race-rearm.ini"
[ "$rc" -eq 0 ] || fail "native race-rearm: exit $rc: $err"
awk -F, 'NR == 2 && $5 == "base_tracking" && $13 == 0 && $14 == 0 { ok = 1 } END { exit !ok }' "$tmp/rr.csv" ||
    fail "base_tracking violated on the host: $(cat "$tmp/rr.csv")"

# the latency probes on the host: the same programs as on a platform
run probe --native -q --reps 50 -o "$tmp/probe.csv"
[ "$rc" -eq 0 ] || fail "probe --native: exit $rc: $err"
head -1 "$tmp/probe.csv" | grep -q '^probe,platform,from_cpu,to_cpu,from_node,to_node,median_cycles,p10_cycles,p90_cycles,reps$' ||
    fail "probe --native: bad header"
for p in timer_overhead hit atomic_held timer_ops load_mem load_dirty pingpong_ldst pingpong_cas; do
    grep -q "^$p,host," "$tmp/probe.csv" || fail "probe --native: no $p row"
done

# the front end's probe on the host: code_N calls a generated function of N
# cold lines, so every row costs something and 64 lines more than one (the
# medians only: the host's timing is noisy; x86 and aarch64, where numasim
# generates code)
case $(uname -m) in
x86_64 | i?86 | aarch64)
    run probe --native -q --only-core --reps 200 --chase-max 1048576 -o "$tmp/core.csv"
    [ "$rc" -eq 0 ] || fail "probe --native --only-core: exit $rc: $err"
    code() { awk -F, -v n="code_$1" '$1 == n { print $7 }' "$tmp/core.csv"; }
    awk -F, '$1 ~ /^code_/ { n++; if (!($7 > 0)) bad = bad " " $1 "=" $7 }
        END { if (bad != "" || n != 20) { print n " rows, not above 0:" bad; exit 1 } }' \
        "$tmp/core.csv" >"$tmp/code.err" || fail "probe --native code_N: $(cat "$tmp/code.err")"
    awk -v a="$(code 64)" -v b="$(code 1)" 'BEGIN { exit !(a > b) }' ||
        fail "probe --native: code_64 = $(code 64) is not above code_1 = $(code 1)"
    ;;
esac

# bad input: one line, exit 2, nothing written
expect2() { # NAME PATTERN ARGS...
    local name=$1 pat=$2
    shift 2
    run "$@"
    check_user_error "$name" "$tmp/bad.csv"
    case $err in *"$pat"*) ;; *) fail "$name: '$err' lacks '$pat'" ;; esac
}
expect2 cpu "measure.cpu = $ncpu, but platform host has CPUs 0..$((ncpu - 1))" \
    run --native -q --set "measure.cpu=$ncpu" -o "$tmp/bad.csv" "$src/scenarios/paper-table.ini"
expect2 arm-cpu "race-rearm.ini:" \
    run --native -q -o "$tmp/bad.csv" "$src/scenarios/race-rearm.ini"
expect2 cpus-list "--cpus: CPU 4096 is not available" \
    run --native -q --cpus 4096 -o "$tmp/bad.csv" "$src/scenarios/paper-table.ini"
expect2 cpus-syntax "--cpus: expected a list" \
    run --native -q --cpus 0,x -o "$tmp/bad.csv" "$src/scenarios/paper-table.ini"
expect2 trace "--trace" run --native --trace -q -o "$tmp/bad.csv" "$src/scenarios/paper-table.ini"
expect2 cpus-alone "--native" run --cpus 0 -q -o "$tmp/bad.csv" "$src/scenarios/paper-table.ini"

# the watchdog: the timer fires 1 jiffy after it is armed, its function
# lasts seconds, and the call comes 10^7 cycles (a few ms) after arming, so
# the scan waits for the function; a 1-second timeout stops the run with one
# line, exit 2, and no CSV
expect2 watchdog "native: the run made no progress for 1 s" \
    run --native -q --timeout 1 --set measure.arm_cpu=1 --set function.cycles=8000000000 \
    --set function.rearm=false --set measure.spacing_cycles=10000000 \
    --set measure.spacing_jitter_cycles=0 --set measure.calls=3 --set scenario.strategies=scan \
    --set scenario.seeds=1 -o "$tmp/bad.csv" "$src/scenarios/race-rearm.ini"

[ "$fails" -eq 0 ] || exit 1
echo "native: all checks passed"
