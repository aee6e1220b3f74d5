#!/usr/bin/env bash
# A loader's worker runs simulation after simulation in one process
# (sim/cli/loader.h): a simulation must give the same row whichever ran
# before it in its worker, or none. Every combination of a small paper-table
# on three platforms (weak and tso models, caches, TLBs, footprints and
# noise) runs alone (one simulation per `numasim run`, so a fresh worker),
# then all together with --jobs 1 and with the strategies reversed with
# --jobs 2: the rows must be byte-identical.
set -u
numasim=$1 src=$2
. "$src/tests/e2e/lib/common.bash"

plats="$src/platforms/numa32.xml,$src/platforms/smp4.xml,$src/platforms/host-tuned.xml"
common=(--set scenario.platforms="$plats" --set measure.calls=40 --set measure.warmup_calls=2)
strats=(scan last_running singleshot naive base_tracking)
sorted() { tail -n +2 "$1" | sort; }

"$numasim" run -q -j1 -o "$tmp/j1.csv" "${common[@]}" "$src/scenarios/paper-table.ini" \
    || die "--jobs 1 run"
reversed=$(printf '%s\n' "${strats[@]}" | tac | paste -sd,)
"$numasim" run -q -j2 -o "$tmp/rev.csv" "${common[@]}" --set scenario.strategies="$reversed" \
    "$src/scenarios/paper-table.ini" || die "reversed run"
sorted "$tmp/j1.csv" > "$tmp/j1.sorted"
sorted "$tmp/rev.csv" > "$tmp/rev.sorted"
[ "$(wc -l < "$tmp/j1.sorted")" -eq 30 ] || die "expected 30 rows, got $(wc -l < "$tmp/j1.sorted")"
cmp -s "$tmp/j1.sorted" "$tmp/rev.sorted" || {
    diff "$tmp/j1.sorted" "$tmp/rev.sorted" >&2
    fail "the order of the simulations in the workers changed a row"
}

: > "$tmp/alone.csv"
for p in numa32 smp4 host-tuned; do
    for s in "${strats[@]}"; do
        for c in warm cold; do
            "$numasim" run -q -o "$tmp/one.csv" "${common[@]}" \
                --set scenario.platforms="$src/platforms/$p.xml" --set scenario.strategies="$s" \
                --set scenario.cache="$c" "$src/scenarios/paper-table.ini" || die "$p $s $c alone"
            tail -n +2 "$tmp/one.csv" >> "$tmp/alone.csv"
        done
    done
done
sort "$tmp/alone.csv" > "$tmp/alone.sorted"
cmp -s "$tmp/alone.sorted" "$tmp/j1.sorted" || {
    diff "$tmp/alone.sorted" "$tmp/j1.sorted" >&2
    fail "a simulation after others in its worker differs from the same simulation alone"
}
[ "$fails" -eq 0 ] || exit 1
echo "ok"
