#!/usr/bin/env bash
# The race scenarios show each known fault (README, "Results: the races").
# Not run in the sanitizer build: these are long simulations.
set -u
bin=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
col() { # col CSV STRATEGY COLUMN-NAME
    awk -F, -v s="$2" -v c="$3" 'NR==1 {for (i = 1; i <= NF; i++) if ($i == c) k = i; next} $5==s {print $k}' "$1"
}
for s in rearm overlap first-run; do
    "$bin" run -q -o "$tmp/$s.csv" "$src/scenarios/race-$s.ini" || fail "race-$s exited $?"
done
r="$tmp/rearm.csv" o="$tmp/overlap.csv" f="$tmp/first-run.csv"
[ "$(col "$r" naive violations)" -gt 0 ] || fail "race-rearm: naive has no violation"
[ "$(col "$r" singleshot oopses)" -gt 0 ] || fail "race-rearm: singleshot has no oops"
[ "$(col "$o" last_running violations)" -gt 0 ] || fail "race-overlap: last_running has no violation"
[ "$(col "$f" last_running seeds_violating)" -gt 0 ] || fail "race-first-run: the window was never hit"
for csv in "$r" "$o" "$f"; do
    for s in scan base_tracking; do
        [ "$(col "$csv" $s violations)" -eq 0 ] || fail "$csv: $s has violations"
    done
done
[ "$(col "$r" last_running violations)" -eq 0 ] || fail "race-rearm: last_running violations"
echo "ok"
