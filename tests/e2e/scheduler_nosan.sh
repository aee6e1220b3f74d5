#!/usr/bin/env bash
# The fast scheduler (baton passing, lookahead, spin fast-forward) must give
# exactly the results of the reference one (a SimGrid sleep until every step)
# on whole scenarios: races with long spins, ticks and helpers, and the paper
# table. Not in the sanitizer build: the reference scheduler is slow.
set -u
numasim=$1 src=$2
. "$src/tests/e2e/lib/common.bash"
both() { # both NAME SCENARIO ARGS...
    local name=$1 scen=$2
    shift 2
    "$numasim" run -q -o "$tmp/$name-fast.csv" "$@" "$scen" || die "$name: fast run"
    NUMASIM_SCHEDULER=yield "$numasim" run -q -o "$tmp/$name-ref.csv" "$@" "$scen" || die "$name: reference run"
    cmp -s "$tmp/$name-fast.csv" "$tmp/$name-ref.csv" || {
        diff "$tmp/$name-fast.csv" "$tmp/$name-ref.csv" >&2
        die "$name: the two schedulers differ"
    }
}
both rearm "$src/scenarios/race-rearm.ini" --set measure.calls=60 --set scenario.seeds=2
both overlap "$src/scenarios/race-overlap.ini" --set measure.calls=6 --set scenario.seeds=1
both first "$src/scenarios/race-first-run.ini" --set measure.calls=20 --set scenario.seeds=20
both paper "$src/scenarios/paper-table.ini" --set measure.calls=200
both scaling "$src/scenarios/scaling.ini" --set scenario.platforms="$src/platforms/fat64.xml" --set measure.calls=3
echo "ok"
