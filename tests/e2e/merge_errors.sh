#!/usr/bin/env bash
# numasim merge refuses parts that do not make one whole run: missing,
# duplicated, truncated, foreign (another configuration) or another
# version's part, or a file that is no part. Each is one line on stderr,
# exit code 2, and no output file. Also --slice's own errors.
set -u
numasim=$1 src=$2
. "$src/tests/e2e/lib/common.bash"
cd "$tmp" || exit 1
scen=$src/scenarios/paper-table.ini
small=(--set measure.calls=20 --set scenario.platforms="$src/platforms/smp4.xml" --set scenario.strategies=scan,naive)
for i in 0 1 2; do
    "$numasim" run -q --slice "$i/3" -o "p$i" "${small[@]}" "$scen" || fail "slice $i/3 exited $?"
done
"$numasim" run -q --slice 1/3 -o foreign "${small[@]}" --set measure.calls=21 "$scen" || fail "foreign slice"
"$numasim" run -q --slice 1/4 -o four "${small[@]}" "$scen" || fail "slice 1/4"
sed 's/^version\t.*/version\t0.0.1/' p1 > oldver
head -c $(($(wc -c < p1) - 30)) p1 > cut
echo "scenario,platform" > notapart

# The good merge works (and equals a plain run's CSV).
run merge -q -o good.csv p2 p0 p1
[ "$rc" -eq 0 ] || fail "merge of good parts exited $rc: $err"
"$numasim" run -q -o plain.csv "${small[@]}" "$scen" && cmp -s good.csv plain.csv || fail "merged CSV differs from the plain run"

expect_error() { # WANT ARGS...
    local want=$1
    shift
    rm -f out.csv out.resolved.ini
    run "$@"
    check_user_error "numasim $*" out.csv out.resolved.ini
    case "$err" in *"$want"*) ;; *) fail "numasim $*: '$err' lacks '$want'" ;; esac
    ls out.* 2>/dev/null | grep -q . && fail "numasim $*: left $(ls out.*)"
}
expect_error "slices to rerun: 1 (of 0..2; missing: 1)" merge -o out.csv p0 p2
expect_error "slices to rerun: 0,1,2" merge --slices 3 -o out.csv
expect_error "slice 2/3 given twice" merge -o out.csv p0 p1 p2 p2
expect_error "truncated: 1" merge -o out.csv p0 cut p2
expect_error "foreign: a part of another scenario or configuration" merge -o out.csv p0 p2 foreign
expect_error "parts of two submissions" merge -o out.csv p0 four p2
expect_error "oldver: written by numasim 0.0.1" merge -o out.csv p0 oldver p2
expect_error "notapart:1: not a numasim part file" merge -o out.csv p0 notapart p2
expect_error "nothere: cannot read" merge -o out.csv p0 nothere p2
expect_error "-o OUT.csv is required" merge p0 p1 p2
expect_error "cannot write" merge -o /proc/out.csv p0 p1 p2
expect_error "--slice: expected I/N" run --slice 3/3 -o x "$scen"
expect_error "--slice takes one scenario file" run --slice 0/2 "$scen" "$scen"
[ "$fails" -eq 0 ] || exit 1
echo ok
