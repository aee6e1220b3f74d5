#!/bin/bash
# e2e: plots/draw-all redraws the charts from CSVs alone. On a small
# hand-written paper-table CSV (two platforms) plus the reference file it
# writes non-empty PNG (PNG magic) and SVG files for paper-table and
# paper-table-spread, and nothing else; on small CSVs of the 6.1 studies it
# draws modern-table, scaling-61, wheel, locks (with locks-epyc2s.csv),
# rt-expiry and migration, without gnuplot warnings, and none of them as a
# generic sweep chart as well; on an empty results/ it prints a note
# and draws nothing (exit 0); on a CSV missing a column it exits non-zero
# with a message naming the file. Its temporary directory is removed.
# Usage: plots_nosan.sh NUMASIM_BINARY SOURCE_DIR   (the binary is not used)
set -u

src=${2:?usage: plots_nosan.sh NUMASIM_BINARY SOURCE_DIR}
draw=$src/plots/draw-all
. "$src/tests/e2e/lib/common.bash"

command -v gnuplot >/dev/null 2>&1 || die "gnuplot is not installed (gnuplot-nox)"
[ -x "$draw" ] || die "$draw missing or not executable"

header=scenario,platform,cpus,nodes,strategy,cache,calls,mean_cycles,median_cycles,p95_cycles,min_cycles,max_cycles,violations,oopses,seed,seeds,seeds_violating,use_after_free,bugs,sweep_key,sweep_value,sim_cycles,accesses

# Runs draw-all on DIR with its own TMPDIR; sets $rc and $err.
draw_all() {
    mkdir -p "$tmp/tmpdir"
    TMPDIR=$tmp/tmpdir "$draw" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    err=$(cat "$tmp/err")
    if [ "$rc" -ge 126 ]; then
        fail "draw-all $* crashed (exit $rc): $err"
    fi
    if [ -n "$(ls -A "$tmp/tmpdir")" ]; then
        fail "draw-all $* left temporary files: $(ls -A "$tmp/tmpdir")"
        rm -rf "${tmp:?}/tmpdir"/*
    fi
}

is_png() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
is_svg() { [ -s "$1" ] && grep -q '<svg' "$1" && grep -q '</svg>' "$1"; }

# --- a small paper table and the reference ---
good=$tmp/good
mkdir -p "$good/results/reference"
cat >"$good/results/paper-table.csv" <<EOF
$header
paper-table,numa32,32,16,scan,warm,100,538.2,282.0,1086.0,282,1086,0,0,1,1,0,0,0,,,4359327,15215
paper-table,numa32,32,16,last_running,cold,100,810.0,810.0,810.0,810,810,0,0,1,1,0,0,0,,,4449342,9303
paper-table,smp4,4,1,scan,warm,100,123.7,114.0,150.0,104,402,0,0,1,1,0,0,0,,,2000000,5000
paper-table,smp4,4,1,base_tracking,cold,100,966.0,966.0,966.0,966,966,0,0,1,1,0,0,0,,,2000000,5000
EOF
cat >"$good/results/reference/measurements-baseline.csv" <<'EOF'
# measured reference cells (test copy)
# cycles per call
platform,strategy,cache,cycles
numa32,scan,warm,29000
smp4,scan,cold,1220
EOF
draw_all "$good"
[ "$rc" -eq 0 ] || fail "draw-all on a small paper table exited $rc: $err"
for chart in paper-table paper-table-spread; do
    is_png "$good/plots/$chart.png" || fail "no PNG (magic bytes) at plots/$chart.png"
    is_svg "$good/plots/$chart.svg" || fail "no SVG at plots/$chart.svg"
done
grep -qs 'last_running' "$good/plots/paper-table.svg" ||
    fail "paper-table.svg does not print 'last_running' as written"
grep -qs 'measured (Gustafson 2004)' "$good/plots/paper-table.svg" ||
    fail "paper-table.svg has no 'measured (Gustafson 2004)' legend entry"
extra=
for f in "$good"/plots/*; do
    case ${f##*/} in
    paper-table.png | paper-table.svg | paper-table-spread.png | paper-table-spread.svg | "*") ;;
    *) extra="$extra ${f##*/}" ;;
    esac
done
[ -z "$extra" ] || fail "unexpected files in plots/: $extra"
grep -q 'races' <<<"$err" || fail "no note about the missing race CSVs on stderr: $err"
for f in "$good"/results/* "$good"/results/.[!.]*; do
    case ${f##*/} in
    paper-table.csv | reference | "*" | ".[!.]*") ;;
    *) fail "draw-all wrote into results/: ${f##*/}" ;;
    esac
done

# --- the 6.1 studies: their own charts, and no generic sweep chart of them ---
six=$tmp/six
mkdir -p "$six/results"
h=scenario,platform,cpus,strategy,cache,calls,mean_cycles,max_cycles,relax_cycles,work_cycles,sweep_key,sweep_value
{
    echo "$h,p99_cycles,late_mean_jiffies,late_max_jiffies,late_max_share"
    for v in 100 1000 10000; do
        echo "wheel,epyc2s,128,base_tracking,warm,20,$((v * 5)),$((v * 50)),0,0,wheel.timers,$v,$((v * 9)),0,0,0"
        echo "wheel,epyc2s,128,timer_delete_sync,warm,20,$((v * 4)),$((v * 20)),0,0,wheel.timers,$v,$((v * 30)),13.5,64,0.125"
    done
} >"$six/results/wheel.csv"
for f in locks locks-epyc2s; do
    echo "$h,cycles_per_op,fairness" >"$six/results/$f.csv"
done
for n in 2 4; do
    for k in tas ticket qspinlock; do
        echo "locks,numa32,32,timer_delete_sync,warm,20,$((n * 900)),0,0,0,kernel.lock/contend.cpus,$k/$n,$((n * 1000)),1" >>"$six/results/locks.csv"
    done
done
echo "locks-epyc2s,epyc2s,128,timer_delete_sync,warm,10,900,0,0,0,kernel.lock/contend.cpus,tas/64,64000,0.0156" >>"$six/results/locks-epyc2s.csv"
{
    echo "$h"
    for v in 1000 10000; do
        echo "rt-expiry,numa32,32,timer_delete_sync,warm,5,$((v + 1700)),0,$((v / 2)),0,function.cycles,$v"
        echo "rt-expiry,numa32,32,timer_delete_sync_rt,warm,5,$((v / 2 + 1400)),0,10,$((v / 2)),function.cycles,$v"
    done
} >"$six/results/rt-expiry.csv"
{
    echo "$h"
    for m in false true; do
        echo "migration,numa32,32,timer_delete_sync,warm,20,${#m}0,0,0,0,kernel.timers_migration,$m"
        echo "migration,numa32,32,timer_delete_sync,cold,20,${#m}00,0,0,0,kernel.timers_migration,$m"
    done
} >"$six/results/migration.csv"
{
    echo "$h"
    echo "modern-table,smp4,4,scan,warm,20,555,0,0,0,,"
    echo "modern-table,smp4,4,timer_delete_sync_rt,cold,20,585,0,0,0,,"
} >"$six/results/modern-table.csv"
{
    echo "$h"
    for n in 2 4 8; do
        echo "scaling-61,fat$n,$n,timer_delete_sync,warm,10,83,0,0,0,,"
        echo "scaling-61,fat$n,$n,timer_delete_sync_rt,cold,10,767,0,0,0,,"
    done
} >"$six/results/scaling-61.csv"
draw_all "$six"
[ "$rc" -eq 0 ] || fail "draw-all on the 6.1 studies' CSVs exited $rc: $err"
for chart in modern-table scaling-61 wheel locks rt-expiry migration; do
    is_png "$six/plots/$chart.png" || fail "no PNG (magic bytes) at plots/$chart.png"
    is_svg "$six/plots/$chart.svg" || fail "no SVG at plots/$chart.svg"
done
for f in "$six"/plots/*-sweep.* "$six"/plots/locks-epyc2s.*; do
    [ -e "$f" ] && fail "drawn as a generic sweep too: plots/${f##*/}"
done
grep -qi 'warning' <<<"$err" && fail "gnuplot warnings on the 6.1 studies' CSVs: $err"
grep -qs 'epyc2s tas' "$six/plots/locks.svg" || fail "locks.svg has no 'epyc2s tas' (locks-epyc2s.csv not drawn)"
grep -qs '6.1 wheel' "$six/plots/wheel.svg" || fail "wheel.svg has no '6.1 wheel' series"

# --- an empty results/: a note, nothing drawn, not an error ---
empty=$tmp/empty
mkdir -p "$empty/results"
draw_all "$empty"
[ "$rc" -eq 0 ] || fail "draw-all on an empty results/ exited $rc (expected 0 and a note): $err"
grep -q 'nothing to draw' <<<"$err" || fail "no 'nothing to draw' note for an empty results/: $err"
[ -z "$(ls -A "$empty/plots" 2>/dev/null)" ] || fail "charts drawn from an empty results/: $(ls "$empty/plots")"

# --- no results/ at all: same ---
draw_all "$tmp/nonexistent-is-not-a-dir"
[ "$rc" -eq 2 ] || fail "draw-all on a missing source dir exited $rc, expected 2"
mkdir -p "$tmp/nores"
draw_all "$tmp/nores"
[ "$rc" -eq 0 ] || fail "draw-all without results/ exited $rc: $err"
[ ! -e "$tmp/nores/plots" ] || fail "draw-all without results/ created plots/"

# --- a CSV missing a column: non-zero exit naming the file, no chart ---
bad=$tmp/bad
mkdir -p "$bad/results"
printf 'scenario,platform,strategy,cache,calls\npaper-table,smp4,scan,warm,100\n' >"$bad/results/paper-table.csv"
draw_all "$bad"
[ "$rc" -ne 0 ] || fail "draw-all on a CSV without mean_cycles exited 0"
grep -q 'paper-table.csv' <<<"$err" || fail "the error does not name the CSV: $err"
[ ! -e "$bad/plots/paper-table.png" ] || fail "a chart was drawn from a CSV without mean_cycles"

if [ "$fails" -gt 0 ]; then
    echo "plots_nosan: $fails failure(s)" >&2
    exit 1
fi
echo "plots_nosan: ok"
