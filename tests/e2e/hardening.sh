#!/bin/bash
# e2e: `numasim run` under hostile conditions. Results are written atomically
# (sim/util/outfile.h): whatever happens, the target CSV is either the complete
# new one or untouched (absent, or the old file byte for byte), no temporary
# file is left behind on an error or on SIGTERM, and no simulation process
# outlives numasim.
#   - unwritable output: -o under /proc, under a regular file, into a
#     read-only directory (not as root: root ignores the mode), onto a
#     directory -> exit 2, one line on stderr, nothing left;
#   - full disk: an 8 KiB tmpfs (needs root and mount; SKIP otherwise) and a
#     sweep whose CSV is bigger -> exit 2, nothing left;
#   - SIGTERM and SIGKILL in the middle of a run, with and without an old CSV
#     at the target;
#   - determinism: the same scenario twice (and with another --jobs) gives
#     byte-identical CSVs.
# Usage: hardening.sh NUMASIM_BINARY SOURCE_DIR
set -u

numasim=${1:?usage: hardening.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: hardening.sh NUMASIM_BINARY SOURCE_DIR}
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash"
absolute_paths
mounted=
bg=
# Replaces the shared EXIT trap: a run to kill, a tmpfs and read-only dirs first.
cleanup() {
    [ -n "$bg" ] && kill -KILL "$bg" 2>/dev/null
    [ -n "$mounted" ] && umount -l "$mounted" 2>/dev/null
    chmod -R u+w "$tmp" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

# scen NAME BODY: writes $tmp/NAME.ini on smp4 with 50 calls, then BODY.
scen() {
    printf '[scenario]\nplatforms = %s\nstrategies = scan, naive\ncache = warm\n%s\n' \
        "$src/platforms/smp4.xml" "$2" >"$tmp/$1.ini"
    printf '[measure]\ncalls = 50\nwarmup_calls = 1\n' >>"$tmp/$1.ini"
}

# stdin without the warning ASan prints, in the sanitizer build, each time
# SimGrid switches stacks (3 lines per process).
asan_filter() {
    grep -v -e '^==[0-9]*==WARNING: ASan is ignoring requested __asan_handle_no_return' \
        -e '^False positive error reports may follow$' \
        -e '^For details see https://github.com/google/sanitizers/issues/189$'
}

# Temporary files (*.tmp.*) in directory $1, one per line.
tmp_files() {
    [ -d "$1" ] && [ -r "$1" ] && find "$1" -maxdepth 1 -name '*.tmp.*' -printf '%f\n'
}

# expect_clean_error WHAT TARGET SCENARIO [ARGS...]: numasim run -o TARGET
# must exit 2 with one line on stderr that names TARGET (or the resolved
# configuration beside it, which is written first), leave no file at TARGET,
# no configuration and no temporary file beside it.
expect_clean_error() {
    local what=$1 target=$2 scenario=$3
    shift 3
    "$numasim" run -q -o "$target" "$@" "$scenario" >"$tmp/out" 2>"$tmp/err.raw"
    local rc=$?
    asan_filter <"$tmp/err.raw" >"$tmp/err"
    [ "$rc" -eq 2 ] || fail "$what: exit code $rc, expected 2 (stderr: $(head -3 "$tmp/err"))"
    local lines
    lines=$(wc -l <"$tmp/err")
    [ "$lines" -eq 1 ] || fail "$what: $lines lines on stderr, expected 1: $(cat "$tmp/err")"
    [ -s "$tmp/out" ] && fail "$what: printed on stdout: $(head -3 "$tmp/out")"
    local conf="${target%.csv}.resolved.ini"
    grep -qF -e "$target" -e "$conf" "$tmp/err" \
        || fail "$what: the error names neither $target nor $conf: $(cat "$tmp/err")"
    if [ -f "$target" ] || [ -L "$target" ]; then
        fail "$what: a file was left at $target"
    fi
    [ -f "$conf" ] && [ -d "$(dirname "$target")" ] && fail "$what: a configuration was left at $conf"
    local left
    left=$(tmp_files "$(dirname "$target")")
    [ -n "$left" ] && fail "$what: temporary files left: $(echo $left)"
    echo "ok: $what: $(cat "$tmp/err")"
}

scen small ''

# --- unwritable output -------------------------------------------------------
expect_clean_error "-o under /proc" /proc/nope/x.csv "$tmp/small.ini"

: >"$tmp/regular"
expect_clean_error "-o under a regular file" "$tmp/regular/out.csv" "$tmp/small.ini"

mkdir "$tmp/ro"
chmod 555 "$tmp/ro"
if [ "$(id -u)" -eq 0 ]; then
    echo "SKIP: read-only directory (root ignores the mode)"
else
    expect_clean_error "-o into a read-only directory" "$tmp/ro/out.csv" "$tmp/small.ini"
fi
chmod 755 "$tmp/ro"

# The target is a directory: every simulation runs, then the rename fails.
mkdir -p "$tmp/isdir/out.csv"
expect_clean_error "-o onto a directory" "$tmp/isdir/out.csv" "$tmp/small.ini"
rmdir "$tmp/isdir/out.csv"

# --- full disk ---------------------------------------------------------------
# 4 x 40 rows of about 105 bytes: the CSV is about 17 KiB.
scen sweep "sweep = measure.warmup_calls
sweep_values = $(seq -s, 0 39)
cache = both"
sed -i '/^cache = warm$/d; /^warmup_calls/d' "$tmp/sweep.ini"
mkdir "$tmp/full"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=8k tmpfs "$tmp/full" 2>/dev/null; then
    mounted=$tmp/full
    expect_clean_error "full disk (8 KiB tmpfs)" "$tmp/full/out.csv" "$tmp/sweep.ini"
    umount "$tmp/full" && mounted=
else
    echo "SKIP: full disk (cannot mount a tmpfs here)"
fi

# --- killed in the middle ----------------------------------------------------
# 4 simulations of 200000 calls on numa32: several seconds, killed after 0.5 s.
slow=$tmp/slow-$$-$RANDOM.ini
printf '[scenario]\nplatforms = %s\nstrategies = scan, naive\ncache = both\n[measure]\ncalls = 200000\n' \
    "$src/platforms/numa32.xml" >"$slow"

# Number of processes (numasim and its simulations) running $slow.
procs() { pgrep -f -- "$slow" | wc -l; }

# kill_run SIGNAL OLD: runs $slow with -o, sends SIGNAL after 0.5 s; with
# OLD=old, an old CSV (and resolved.ini) is at the target beforehand.
kill_run() {
    local sig=$1 old=$2 dir=$tmp/kill-$1-$2
    local target=$dir/out.csv conf=$dir/out.resolved.ini what="SIG$1 ($2 CSV)"
    mkdir "$dir"
    if [ "$old" = old ]; then
        printf 'scenario,platform\nold,result\n' >"$target"
        printf '; old resolved configuration\n' >"$conf"
        cp "$target" "$dir.csv.orig"
        cp "$conf" "$dir.ini.orig"
    fi
    "$numasim" run -q --jobs 2 -o "$target" "$slow" >/dev/null 2>"$dir.err" &
    bg=$!
    sleep 0.5
    local n
    n=$(procs)
    if ! kill -0 "$bg" 2>/dev/null; then
        fail "$what: the run ended before the kill (too fast? $(cat "$dir.err"))"
    elif [ "$n" -lt 2 ]; then
        fail "$what: only $n numasim process(es) running before the kill, expected simulations"
    fi
    kill -"$sig" "$bg" 2>/dev/null
    { wait "$bg"; } 2>/dev/null
    local rc=$?
    bg=
    local want=$((128 + $(kill -l "$sig")))
    [ "$rc" -eq "$want" ] || fail "$what: exit code $rc, expected $want"
    # No simulation survives its parent (SIGKILL: via PR_SET_PDEATHSIG).
    local i
    for i in $(seq 50); do
        n=$(procs)
        [ "$n" -eq 0 ] && break
        sleep 0.1
    done
    if [ "$n" -ne 0 ]; then
        fail "$what: $n simulation process(es) still running after the kill"
        pkill -KILL -f -- "$slow"
    fi
    if [ "$old" = old ]; then
        cmp -s "$target" "$dir.csv.orig" || fail "$what: the old CSV was changed"
        cmp -s "$conf" "$dir.ini.orig" || fail "$what: the old resolved.ini was changed"
    else
        [ -e "$target" ] && fail "$what: a CSV was left at the target: $(head -c 200 "$target")"
        [ -e "$conf" ] && fail "$what: a resolved.ini was left at the target"
    fi
    local left
    left=$(tmp_files "$dir")
    if [ "$sig" = TERM ] && [ -n "$left" ]; then
        fail "$what: temporary files left after SIGTERM: $left"
    fi
    echo "ok: $what: exit $rc${left:+, temporary files left (allowed after SIGKILL): $(echo $left)}"
}

kill_run TERM none
kill_run TERM old
kill_run KILL none
kill_run KILL old

# --- determinism -------------------------------------------------------------
scen det 'seeds = 3
jitter_cycles = 500
cache = both'
sed -i '/^cache = warm$/d' "$tmp/det.ini"
for run in a b c; do
    jobs=2
    [ "$run" = c ] && jobs=1
    "$numasim" run -q --jobs "$jobs" -o "$tmp/det-$run.csv" "$tmp/det.ini" 2>"$tmp/err" ||
        fail "determinism: run $run failed: $(cat "$tmp/err")"
done
if [ -s "$tmp/det-a.csv" ]; then
    cmp "$tmp/det-a.csv" "$tmp/det-b.csv" || fail "determinism: two runs differ"
    cmp "$tmp/det-a.csv" "$tmp/det-c.csv" || fail "determinism: --jobs 2 and --jobs 1 differ"
    rows=$(($(wc -l <"$tmp/det-a.csv") - 1))
    [ "$rows" -eq 4 ] || fail "determinism: $rows rows, expected 4"
    echo "ok: determinism ($rows rows, byte-identical)"
fi

if [ "$fails" -gt 0 ]; then
    echo "hardening: $fails check(s) failed" >&2
    exit 1
fi
echo "hardening: all checks passed"
