#!/bin/bash
# e2e: `numasim tune --probe-target`. The target is the simulated probe of
# the unmodified fat4 (2 nodes); a copy of fat4 whose mem_local_cycles,
# remote_dirty_cycles and link.exit are off by +38%, -28% and -26% must be
# tuned back to the file's values within 3%, with every cell within 2%.
# Also: the tuned file loads, and user errors exit 2 with one line.
# Usage: tune_probe.sh NUMASIM_BINARY SOURCE_DIR
set -u

numasim=${1:?usage: tune_probe.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: tune_probe.sh NUMASIM_BINARY SOURCE_DIR}
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash"
absolute_paths
cd "$tmp" || exit 1

# fat4 as sc: on its weak model a timed store retires into the store buffer,
# and the stores' costs would leave the fit nothing to see them by
fat4=$tmp/fat4-sc.xml
without_core "$src/platforms/fat4.xml" "$tmp/fat4-nocore.xml"
sed 's/<prop id="memory_model" value="weak"\/>/<prop id="memory_model" value="sc"\/>/' \
    "$tmp/fat4-nocore.xml" >"$fat4"
grep -q '<prop id="memory_model" value="sc"/>' "$fat4" || fail "could not make fat4 sc"
run probe -q -o all.csv "$fat4"
[ "$rc" -eq 0 ] || die "probe: exit $rc: $err"
# the memory probes only: the chase and pause rows fit the cache parameters
# (tests/e2e/caches_fit.sh)
grep -v -e '^chase_' -e '^timer_ops_pause' all.csv >target.csv
mem=$(prop "$fat4" mem_local_cycles)
dirty=$(prop "$fat4" remote_dirty_cycles)
exitl=$(sed -n 's/.*id="exit0"[^>]*latency="\([^"]*\)s".*/\1/p' "$fat4")
sed -e "s/<prop id=\"mem_local_cycles\" value=\"$mem\"/<prop id=\"mem_local_cycles\" value=\"330\"/" \
    -e "s/<prop id=\"remote_dirty_cycles\" value=\"$dirty\"/<prop id=\"remote_dirty_cycles\" value=\"400\"/" \
    -e "s/latency=\"${exitl}s\"/latency=\"90s\"/" "$fat4" >pert.xml
[ "$(prop pert.xml mem_local_cycles)" = 330 ] && grep -q 'latency="90s"' pert.xml || fail "could not perturb fat4"
# the target must see all three, or the test proves nothing
run probe -q -o pert-all.csv pert.xml
grep -v -e '^chase_' -e '^timer_ops_pause' pert-all.csv >pert.csv
cmp -s target.csv pert.csv && fail "the perturbation does not change the probes"

run tune --probe-target target.csv --params mem_local_cycles,remote_dirty_cycles,link.exit \
    -o tuned.xml pert.xml
[ "$rc" -eq 0 ] || die "tune --probe-target: exit $rc: $err"
got_mem=$(prop tuned.xml mem_local_cycles)
got_dirty=$(prop tuned.xml remote_dirty_cycles)
got_exit=$(sed -n 's/.*id="exit0"[^>]*latency="\([^"]*\)s".*/\1/p' tuned.xml)
within "$got_mem" "$mem" 0.03 || fail "mem_local_cycles $got_mem, want $mem"
within "$got_dirty" "$dirty" 0.03 || fail "remote_dirty_cycles $got_dirty, want $dirty"
within "$got_exit" "$exitl" 0.03 || fail "link.exit $got_exit, want $exitl"
# A ping-pong ends when the waiting CPU's next poll sees the flag: a poll is
# one hit plus one relax (26 cycles on fat4), so a round trip moves by that
# step when a parameter moves the phase; those cells get 5%.
echo "$out" | awk '$NF ~ /%$/ && $1 ~ /^(hit|atomic|timer|load|store|pingpong)/ { e = $NF; sub(/%/, "", e); e += 0;
    t = $1 ~ /^pingpong/ ? 5 : 2; if (e > t || e < -t) { print; bad = 1 } } END { exit bad }' ||
    fail "cells off by more than 2% (ping-pong 5%): $out"
echo "$out" | grep -q '^rms relative error' || fail "no error summary: $out"
grep -q 'tuned by numasim tune .* to probe cells' tuned.xml || fail "no tuning comment in tuned.xml"
run platform tuned.xml
[ "$rc" -eq 0 ] || fail "tuned.xml does not load: $err"

# errors
echo "probe,x" >bad.csv
for args in "--probe-target nosuch.csv pert.xml" "--probe-target bad.csv pert.xml" \
    "--probe-target target.csv --target target.csv pert.xml" "--probe-target target.csv" \
    "--probe-target target.csv --params nosuch pert.xml" "--probe-target target.csv --set run.x=1 pert.xml" \
    "--probe-target target.csv $src/platforms/smp4.xml"; do
    # shellcheck disable=SC2086
    run tune -o out.xml $args
    [ "$rc" -eq 2 ] || fail "tune $args: exit $rc, want 2 ($err)"
    [ "$(printf '%s\n' "$err" | grep -vc '^iter ')" -eq 1 ] || fail "tune $args: not one line: $err"
    [ ! -e out.xml ] || fail "tune $args left out.xml"
done

[ "$fails" -eq 0 ] && echo "tune_probe.sh: all checks passed"
exit $((fails > 0))
