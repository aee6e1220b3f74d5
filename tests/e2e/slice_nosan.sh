#!/usr/bin/env bash
# numasim run --slice I/N + numasim merge give the CSV and resolved
# configuration of a plain run byte for byte: paper-table (20 combinations)
# and sweep-background (21), for N from 1 to more slices than
# combinations (1, 2, 3, 7, 20, 21, 22, 40), parts in a shuffled
# order. (_nosan: ~230 runs of numasim.)
set -u
numasim=$1 src=$2
. "$src/tests/e2e/lib/common.bash"
cd "$tmp" || exit 1
for name in paper-table sweep-background; do
    scen=$src/scenarios/$name.ini
    "$numasim" run -o out.csv -q "$scen" || fail "$name: plain run exited $?"
    mv out.csv plain.csv && mv out.resolved.ini plain.resolved.ini
    for n in 1 2 3 7 20 21 22 40; do
        rm -f part-*
        for i in $(seq 0 $((n - 1))); do
            "$numasim" run -q --slice "$i/$n" --jobs 2 -o "part-$i" "$scen" || fail "$name: slice $i/$n exited $?"
        done
        run merge -q -o out.csv $(ls part-* | shuf --random-source=<(yes))
        [ "$rc" -eq 0 ] || { fail "$name: merge of $n slices exited $rc: $err"; continue; }
        cmp -s out.csv plain.csv || fail "$name: CSV of $n slices differs from the plain run"
        cmp -s out.resolved.ini plain.resolved.ini || fail "$name: resolved configuration of $n slices differs"
        rm -f out.csv out.resolved.ini
    done
done
[ "$fails" -eq 0 ] || exit 1
echo ok
