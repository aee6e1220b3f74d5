#!/usr/bin/env bash
# The race scenarios show each known fault (docs/races.md),
# and the correct strategies show none.
# Not run in the sanitizer build: these are long simulations.
# As sc: these are the faults of the sequentially consistent model, which the
# README's race table reports; docs/memory-ordering.md gives the counts on
# tso and weak (numa32's own model), where some windows close (last_running's
# two stores to one line become visible together) and some open.
set -u
numasim=$1 src=$2
. "$src/tests/e2e/lib/common.bash"
col() { # col CSV STRATEGY COLUMN-NAME
    awk -F, -v s="$2" -v c="$3" 'NR==1 {for (i = 1; i <= NF; i++) if ($i == c) k = i; next} $5==s {print $k}' "$1"
}
race() { # race NAME [--set ...]
    local s=$1
    shift
    "$numasim" run -q -o "$tmp/$s.csv" --set platform.memory_model=sc "$@" \
        "$src/scenarios/race-$s.ini" || die "race-$s exited $?"
}
race rearm
race overlap
race first-run
race single-shot
# the two long ones, with the strategies they are about
race scan-refire --set scenario.strategies=scan,base_tracking
race hop --set scenario.strategies=last_running,base_tracking
r="$tmp/rearm.csv" o="$tmp/overlap.csv" f="$tmp/first-run.csv" s1="$tmp/single-shot.csv"
sr="$tmp/scan-refire.csv" h="$tmp/hop.csv"
[ "$(col "$r" naive violations)" -gt 0 ] || die "race-rearm: naive has no violation"
[ "$(col "$r" singleshot oopses)" -gt 0 ] || die "race-rearm: singleshot has no oops"
[ "$(col "$o" last_running violations)" -gt 0 ] || die "race-overlap: last_running has no violation"
[ "$(col "$f" last_running seeds_violating)" -gt 0 ] || die "race-first-run: the window was never hit"
[ "$(col "$s1" shortcut violations)" -gt 0 ] || die "race-single-shot: shortcut has no violation"
[ "$(col "$sr" scan violations)" -gt 0 ] || die "race-scan-refire: scan has no violation"
[ "$(col "$h" last_running violations)" -gt 0 ] || die "race-hop: last_running has no violation"
for csv in "$r" "$o" "$f" "$s1" "$sr" "$h"; do
    [ "$(col "$csv" base_tracking violations)" -eq 0 ] || die "$csv: base_tracking has violations"
done
[ "$(col "$sr" base_tracking calls)" -ge 10000 ] || die "race-scan-refire: under 10^4 calls"
[ "$(col "$h" base_tracking calls)" -ge 10000 ] || die "race-hop: under 10^4 calls"
for csv in "$r" "$o" "$f" "$s1"; do
    [ "$(col "$csv" scan violations)" -eq 0 ] || die "$csv: scan has violations"
done
for s in singleshot naive; do
    [ "$(col "$s1" $s violations)" -eq 0 ] || die "race-single-shot: $s has violations"
done
[ "$(col "$r" last_running violations)" -eq 0 ] || die "race-rearm: last_running violations"
echo "ok"
