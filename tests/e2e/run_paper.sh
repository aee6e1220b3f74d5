#!/usr/bin/env bash
# numasim run on the paper-table scenario: the 20-row CSV, its columns, the
# calibration against the measured reference, determinism, the resolved
# configuration, and a platform override.
set -u
numasim=$1 src=$2
. "$src/tests/e2e/lib/common.bash"

"$numasim" run -q -o "$tmp/a.csv" "$src/scenarios/paper-table.ini" || die "run exited $?"
head -1 "$tmp/a.csv" | grep -q '^scenario,platform,cpus,nodes,strategy,cache,calls,mean_cycles,median_cycles,p95_cycles,min_cycles,max_cycles,violations,oopses,seed' \
    || die "header: $(head -1 "$tmp/a.csv")"
rows=$(tail -n +2 "$tmp/a.csv" | wc -l)
[ "$rows" -eq 20 ] || die "expected 20 rows, got $rows"
for p in numa32 smp4; do
    for s in scan last_running singleshot naive base_tracking; do
        for c in warm cold; do
            grep -q "^paper-table,$p,[0-9]*,[0-9]*,$s,$c,1000," "$tmp/a.csv" || die "no row $p $s $c"
        done
    done
done
# No strategy violates its promise in this workload.
awk -F, 'NR>1 && ($13 != 0 || $14 != 0) {exit 1}' "$tmp/a.csv" || die "violations in paper-table"

# Calibration: scan within 10% of the measured reference, all four cells.
while IFS=, read -r plat strat cache cyc; do
    case "$plat" in '#'*|platform|'') continue ;; esac
    sim=$(awk -F, -v p="$plat" -v s="$strat" -v c="$cache" '$2==p && $5==s && $6==c {print $8}' "$tmp/a.csv")
    [ -n "$sim" ] || die "no simulated cell for $plat $strat $cache"
    awk -v a="$sim" -v b="$cyc" 'BEGIN { d = (a - b) / b; if (d < 0) d = -d; exit !(d <= 0.10) }' \
        || die "calibration: $plat $strat $cache simulated $sim, measured $cyc"
done < "$src/results/reference/measurements-baseline.csv"

# The scan must cost more on numa32 than the O(1) strategies by 2+ orders.
awk -F, '$2=="numa32" && $6=="warm" {m[$5]=$8} END {exit !(m["scan"] > 100 * m["singleshot"] && m["scan"] > 100 * m["base_tracking"])}' "$tmp/a.csv" \
    || die "scan is not 2 orders of magnitude above singleshot/base_tracking on numa32"

# Determinism: the same seed gives a byte-identical CSV (with other --jobs too).
"$numasim" run -q --jobs 1 -o "$tmp/b.csv" "$src/scenarios/paper-table.ini" || die "second run"
cmp -s "$tmp/a.csv" "$tmp/b.csv" || die "two runs differ"

# The resolved configuration sits beside the CSV.
conf="$tmp/a.resolved.ini"
[ -f "$conf" ] || die "no $conf"
grep -q "numasim" "$conf" && grep -q '^calls = 1000' "$conf" && grep -q '^timekeeper_cpu = 0 ; default' "$conf" \
    || die "resolved configuration incomplete"

# A platform override changes the result and is recorded.
"$numasim" run -q -o "$tmp/c.csv" --set platform.remote_dirty_cycles=100 --set scenario.strategies=scan \
    --set scenario.platforms="$src/platforms/numa32.xml" "$src/scenarios/paper-table.ini" || die "override run"
grep -q 'remote_dirty_cycles = 100   (--set)' "$tmp/c.resolved.ini" || die "override not recorded"
a=$(awk -F, '$5=="scan" && $6=="warm" && $2=="numa32" {print $8}' "$tmp/a.csv")
c=$(awk -F, '$5=="scan" && $6=="warm" {print $8}' "$tmp/c.csv")
awk -v a="$a" -v c="$c" 'BEGIN {exit !(c < a)}' || die "override had no effect ($a -> $c)"

# background.on_caller: the caller makes background calls in its spacing
# too, so the run simulates more accesses; the default leaves it idle.
acc() { awk -F, 'NR==2 {print $23}' "$1"; }
for oc in false true; do
    "$numasim" run -q -o "$tmp/oc-$oc.csv" --set background.on_caller=$oc --set measure.calls=50 \
        --set scenario.strategies=singleshot --set scenario.cache=warm \
        --set scenario.platforms="$src/platforms/smp4.xml" "$src/scenarios/paper-table.ini" || die "on_caller=$oc"
done
[ "$(acc "$tmp/oc-true.csv")" -gt "$(acc "$tmp/oc-false.csv")" ] || die "on_caller=true made no background calls"

# --trace prints the events before the first violation.
"$numasim" run -q --trace -o "$tmp/t.csv" --set measure.calls=20 --set scenario.seeds=1 \
    --set scenario.strategies=naive "$src/scenarios/race-rearm.ini" 2> "$tmp/trace.txt" || die "trace run"
grep -q 'VIOLATION' "$tmp/trace.txt" && grep -q 'cycle.*time_us.*cpu' "$tmp/trace.txt" || die "trace output: $(head -5 "$tmp/trace.txt")"
echo "ok"
