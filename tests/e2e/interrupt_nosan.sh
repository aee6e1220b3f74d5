#!/usr/bin/env bash
# SIGINT during `numasim run`: the run, its platform loaders (sim/cli/loader.c)
# and the simulations they forked all end, and no result is left behind.
# Two platforms, so that two loaders exist, and enough calls that the run is
# still going when the signal comes.
# Usage: interrupt_nosan.sh NUMASIM_BINARY SOURCE_DIR
set -u
numasim=${1:?usage: interrupt_nosan.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: interrupt_nosan.sh NUMASIM_BINARY SOURCE_DIR}
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash"

absolute_paths
tag="interrupt-$$-$RANDOM"
printf '[scenario]\nname = %s\nplatforms = %s, %s\nseeds = 50\n[measure]\ncalls = 10000000\n' \
    "$tag" "$src/platforms/numa32.xml" "$src/platforms/smp4.xml" >"$tmp/$tag.ini"
"$numasim" run -q --jobs 2 -o "$tmp/out.csv" "$tmp/$tag.ini" >"$tmp/stdout" 2>"$tmp/stderr" &
pid=$!
# wait until the run has forked its simulations (a loader and its jobs)
for _ in $(seq 100); do
    [ "$(pgrep -f -- "$tag" | wc -l)" -ge 3 ] && break
    sleep 0.1
done
[ "$(pgrep -f -- "$tag" | wc -l)" -ge 3 ] || die "the run did not start its simulations"
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "exit $rc after SIGINT, expected 130"
for _ in $(seq 20); do # 2 s, far less than one simulation of 10^7 calls
    [ -z "$(pgrep -f -- "$tag")" ] && break
    sleep 0.1
done
left=$(pgrep -f -- "$tag")
[ -z "$left" ] || {
    fail "processes left after SIGINT: $left"
    kill -9 $left 2>/dev/null
}
[ ! -e "$tmp/out.csv" ] || fail "a result was left after SIGINT"
ls "$tmp" | grep -q '\.tmp\.' && fail "a temporary file was left after SIGINT"

[ "$fails" -eq 0 ] || exit 1
echo "interrupt: the run, its loaders and their simulations ended"
