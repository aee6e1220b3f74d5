#!/bin/bash
# e2e: `numasim tune --probe-target` fits the pause rows by their ratio to
# timer_ops_pause_0 (what the pause adds to the pair), so a host whose every
# row is 30% slower (a slow phase) gives the same footprint: the target is
# the simulated pause probe of platforms/host-tuned.xml with its noise at
# 60,000 lines per 10^6 cycles, once as is and once with every pause row
# x1.3; both fits, from 64, must give one rate, and the table must say how
# it compares the rows. A target without timer_ops_pause_0 is fitted on the
# rows' own values (the scaled one then gives another rate).
# Usage: tune_pause_ratio_nosan.sh NUMASIM_BINARY SOURCE_DIR
set -u

numasim=${1:?usage: tune_pause_ratio_nosan.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: tune_pause_ratio_nosan.sh NUMASIM_BINARY SOURCE_DIR}
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash"
absolute_paths
cd "$tmp" || exit 1

set_noise() { sed "s|<prop id=\"noise_lines_per_mcycle\" value=\"[^\"]*\"|<prop id=\"noise_lines_per_mcycle\" value=\"$1\"|" \
    "$src/platforms/host-tuned.xml" >"$2"; }
set_noise 60000 made.xml
set_noise 64 start.xml
[ "$(prop made.xml noise_lines_per_mcycle)" = 60000 ] || die "could not set the noise"
run probe -q --only-cache --chase-max 4096 --pauses 0,10000,100000,1000000 -o all.csv made.xml
[ "$rc" -eq 0 ] || die "probe: exit $rc: $err"
grep -e '^probe,' -e '^timer_ops_pause_[0-9]*,' all.csv >same.csv
awk -F, -v OFS=, '$1 ~ /^timer_ops_pause_[0-9]+$/ { $7 *= 1.3; $8 *= 1.3; $9 *= 1.3 } { print }' \
    same.csv >slow.csv
fit() { # TARGET OUT: the fitted noise
    run tune --probe-target "$1" --params noise_lines_per_mcycle -o "$2" start.xml
    [ "$rc" -eq 0 ] || { fail "tune on $1: exit $rc: $err"; return; }
    printf '%s\n' "$out" >"$2.txt"
    prop "$2" noise_lines_per_mcycle
}
a=$(fit same.csv same.xml)
grep -q 'scaled by the measured timer_ops_pause_0' same.xml.txt || fail "tune does not say it compares by ratio"
b=$(fit slow.csv slow.xml)
[ -n "$a" ] && [ "$a" = "$b" ] || fail "the slow host's rows gave noise $b, the same rows at their own level $a"
# without the pair back to back the rows are fitted as they are
grep -v '^timer_ops_pause_0,' slow.csv >nozero.csv
c=$(fit nozero.csv nozero.xml)
grep -q 'scaled by the measured timer_ops_pause_0' nozero.xml.txt && fail "tune says it scales without timer_ops_pause_0"
[ -n "$c" ] && [ "$c" != "$a" ] || fail "without timer_ops_pause_0 the slow rows still gave $c"

if [ "$fails" -ne 0 ]; then
    echo "e2e tune_pause_ratio: $fails check(s) failed" >&2
    exit 1
fi
echo "e2e tune_pause_ratio: all checks passed"
