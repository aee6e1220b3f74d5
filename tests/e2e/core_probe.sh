#!/bin/bash
# e2e: the core's probes recover the core they run on. On smp4 without its
# cache levels (every load of the chase a miss of mem_local_cycles) and
# with an out-of-order core of known core_mshr and core_fetch_ahead, the
# simulated mlp_K rows give the miss's cost (mlp_1) and the miss registers
# (mlp_1 / mlp_16) within 10%, and the code_N rows the stream (the first N
# whose cost passes one miss is core_fetch_ahead + 2); with core none the
# mlp curve is flat and code_N is N misses. tune --probe-target fits
# core_mshr and core_fetch_ahead back from 2 and 1 to the probe of the
# core, and core_fetch_ahead from 4 to 0; core_width (a fraction) from 4
# back to 2.5, and to its bound 1 for a row slower than that.
# core_clock_cycles comes back as the empty timing (timer_overhead).
# --only-cache with --only-core is a user error.
# Usage: core_probe.sh NUMASIM_BINARY SOURCE_DIR
set -u

numasim=${1:?usage: core_probe.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: core_probe.sh NUMASIM_BINARY SOURCE_DIR}
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash"

base=$src/platforms/smp4.xml
miss=$(prop "$base" mem_local_cycles)
mshr=6 ahead=4

# flat FILE PROPS...: smp4 without cache levels and its own core, with the
# props added
flat() {
    local f=$1
    shift
    without_core "$base" "$f.nocore"
    grep -v -E 'prop id="(l1i|l1d|l2|l3)_|prop id="l1d_write_through"' "$f.nocore" |
        awk -v add="$*" '{ print } /<prop id="memory_model"/ {
        n = split(add, kv, " "); for (i = 1; i <= n; i++) { split(kv[i], p, "=")
        printf "    <prop id=\"%s\" value=\"%s\"/>\n", p[1], p[2] } }' >"$f"
}

# row NAME: the median of row NAME of $out
row() { awk -F, -v n="$1" '$1 == n { print $7 }' <<<"$out"; }

flat "$tmp/ooo.xml" core=ooo core_width=4 core_rob=192 core_mshr=$mshr core_fetch_ahead=$ahead
run probe --only-core -o - "$tmp/ooo.xml"
[ "$rc" -eq 0 ] || die "probe --only-core on an ooo core: exit $rc: $err"
m1=$(row mlp_1) m16=$(row mlp_16)
within "$m1" "$miss" 0.10 || fail "mlp_1 = $m1, expected one miss ($miss) within 10%"
est=$(awk -v a="$m1" -v b="$m16" 'BEGIN { print a / b }')
within "$est" "$mshr" 0.10 || fail "mlp_1 / mlp_16 = $est, expected core_mshr $mshr within 10%"
# 1/K up to the limit, then flat
for k in 2 3 4 5 6; do
    within "$(row mlp_$k)" "$(awk -v m="$m1" -v k=$k 'BEGIN { print m / k }')" 0.10 ||
        fail "mlp_$k = $(row mlp_$k), expected mlp_1 / $k"
done
for k in 8 12 16; do
    within "$(row mlp_$k)" "$(awk -v m="$m1" -v k=$mshr 'BEGIN { print m / k }')" 0.10 ||
        fail "mlp_$k = $(row mlp_$k), expected the flat mlp_1 / $mshr"
done
c1=$(row code_1)
within "$c1" "$miss" 0.10 || fail "code_1 = $c1, expected one miss ($miss)"
step=$(awk -F, -v c="$c1" '$1 ~ /^code_/ { n = substr($1, 6) + 0
    if ($7 > 1.5 * c && (first == "" || n < first)) first = n } END { print first }' <<<"$out")
[ "$step" = $((ahead + 2)) ] || fail "code_N passes one miss at N = $step, expected $((ahead + 2))"
c64=$(row code_64)
within "$c64" "$(awk -v m="$miss" -v a=$ahead 'BEGIN { print m * int((64 + a) / (a + 1)) }')" 0.10 ||
    fail "code_64 = $c64, expected a miss per $((ahead + 1)) lines"

# the fit: from core_mshr 2 and core_fetch_ahead 1 back to the target's
printf '%s\n' "$out" >"$tmp/target.csv"
flat "$tmp/start.xml" core=ooo core_width=4 core_rob=192 core_mshr=2 core_fetch_ahead=1
run tune --probe-target "$tmp/target.csv" --params core_mshr,core_fetch_ahead \
    -o "$tmp/tuned.xml" "$tmp/start.xml"
[ "$rc" -eq 0 ] || fail "tune --probe-target of the core: exit $rc: $err"
[ "$(prop "$tmp/tuned.xml" core_mshr)" = $mshr ] ||
    fail "tuned core_mshr = $(prop "$tmp/tuned.xml" core_mshr), expected $mshr"
[ "$(prop "$tmp/tuned.xml" core_fetch_ahead)" = $ahead ] ||
    fail "tuned core_fetch_ahead = $(prop "$tmp/tuned.xml" core_fetch_ahead), expected $ahead"

# core_fetch_ahead 0 (no line fetched ahead) is a value the fit reaches:
# it fits the value + 1, on logarithms
flat "$tmp/ahead0.xml" core=ooo core_width=4 core_rob=192 core_mshr=$mshr core_fetch_ahead=0
run probe --only-core -o "$tmp/target0.csv" "$tmp/ahead0.xml"
[ "$rc" -eq 0 ] || die "probe --only-core with core_fetch_ahead 0: exit $rc: $err"
run tune --probe-target "$tmp/target0.csv" --params core_fetch_ahead -o "$tmp/tuned0.xml" "$tmp/ooo.xml"
[ "$rc" -eq 0 ] || fail "tune --probe-target to core_fetch_ahead 0: exit $rc: $err"
[ "$(prop "$tmp/tuned0.xml" core_fetch_ahead)" = 0 ] ||
    fail "tuned core_fetch_ahead = $(prop "$tmp/tuned0.xml" core_fetch_ahead), expected 0"

# core_width, a fraction: fitted from 4 back to 2.5 by the timer_ops row;
# a row slower than width 1 gives fits 1, the bound, not a failed probe
flat "$tmp/w25.xml" core=ooo core_width=2.5 core_rob=192 core_mshr=$mshr core_fetch_ahead=$ahead
run probe -q --chase-max 4096 --pauses 0 -o - "$tmp/w25.xml"
[ "$rc" -eq 0 ] || die "probe with core_width 2.5: exit $rc: $err"
grep -e '^probe,' -e '^timer_ops,' <<<"$out" >"$tmp/width.csv"
awk -F, -v OFS=, '$1 == "timer_ops" { $7 *= 3 } { print }' "$tmp/width.csv" >"$tmp/slow.csv"
flat "$tmp/w4.xml" core=ooo core_width=4 core_rob=192 core_mshr=$mshr core_fetch_ahead=$ahead
run tune --probe-target "$tmp/width.csv" --params core_width -o "$tmp/w.xml" "$tmp/w4.xml"
[ "$rc" -eq 0 ] || fail "tune core_width: exit $rc: $err"
within "$(prop "$tmp/w.xml" core_width)" 2.5 0.05 ||
    fail "tuned core_width = $(prop "$tmp/w.xml" core_width), expected 2.5"
run tune --probe-target "$tmp/slow.csv" --params core_width -o "$tmp/w1.xml" "$tmp/w4.xml"
[ "$rc" -eq 0 ] || fail "tune core_width to a slow row: exit $rc: $err"
[ "$(prop "$tmp/w1.xml" core_width)" = 1 ] ||
    fail "core_width for a row slower than width 1: $(prop "$tmp/w1.xml" core_width), expected 1"

# core_clock_cycles: the empty timing (timer_overhead) reads it back, and a
# batched row (512 loads timed together) keeps its cost
flat "$tmp/clock.xml" core=ooo core_width=4 core_rob=192 core_mshr=$mshr core_fetch_ahead=$ahead \
    core_clock_cycles=40
run probe --only-core -o - "$tmp/clock.xml"
[ "$rc" -eq 0 ] || die "probe --only-core with core_clock_cycles: exit $rc: $err"
[ "$(row timer_overhead)" = 40 ] || fail "core_clock_cycles=40: timer_overhead = $(row timer_overhead)"
within "$(row mlp_1)" "$miss" 0.10 || fail "core_clock_cycles=40: mlp_1 = $(row mlp_1), expected $miss"

# core none: the same probe, every miss in series
flat "$tmp/none.xml"
run probe --only-core -o - "$tmp/none.xml"
[ "$rc" -eq 0 ] || die "probe --only-core without a core: exit $rc: $err"
for k in 1 2 6 16; do
    within "$(row mlp_$k)" "$miss" 0.01 || fail "core none: mlp_$k = $(row mlp_$k), expected $miss"
done
within "$(row code_16)" $((16 * miss)) 0.01 || fail "core none: code_16 = $(row code_16)"

run probe --only-core --only-cache -o "$tmp/x.csv" "$tmp/none.xml"
check_user_error "--only-core with --only-cache" "$tmp/x.csv"

if [ "$fails" -ne 0 ]; then
    echo "e2e core_probe: $fails check(s) failed" >&2
    exit 1
fi
echo "e2e core_probe: all checks passed"
