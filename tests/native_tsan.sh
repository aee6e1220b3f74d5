#!/usr/bin/env bash
# The native machine under ThreadSanitizer (run by scripts/test on a
# -DNUMASIM_TSAN=ON build of numasim): short native runs of paper-table and
# of the rearm race, and the native probes. Any report fails.
#
# No race is deliberate: every word the CPUs share (the timer core's memory,
# the oracle's counters, the run's requests) is read and written with
# __atomic builtins; the fields a CPU shares with its own tick handler
# (irq_off, pending, irq_cycles) are volatile with signal fences, on one
# thread. Usage: native_tsan.sh TSAN_NUMASIM SOURCE_DIR
set -u
numasim=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TSAN_OPTIONS="halt_on_error=0 log_path=$tmp/tsan"
fails=0
"$numasim" run --native -q --set measure.calls=50 --set measure.warmup_calls=2 \
    -o "$tmp/pt.csv" "$src/scenarios/paper-table.ini" || fails=$((fails + 1))
"$numasim" run --native -q --set measure.arm_cpu=1 --set measure.calls=50 \
    -o "$tmp/rr.csv" "$src/scenarios/race-rearm.ini" || fails=$((fails + 1))
"$numasim" probe --native -q --reps 200 -o "$tmp/probe.csv" || fails=$((fails + 1))
if ls "$tmp"/tsan* >/dev/null 2>&1; then
    echo "ThreadSanitizer reports:" >&2
    cat "$tmp"/tsan* >&2
    exit 1
fi
[ "$fails" -eq 0 ] || { echo "FAIL: a native run failed under ThreadSanitizer" >&2; exit 1; }
echo "native machine under ThreadSanitizer: 3 runs, no report"
