#!/usr/bin/env bash
# scripts/validate --smoke: the whole host-validation loop, short, with its
# results kept in a temporary directory (the repository's are not touched):
# native probes and measurements of paper-table and race-rearm, twice,
# interleaved, a platform fitted to the probes, the prediction, compared cell
# by cell with each cell's spread over the repeats and the split halves (the
# host's odd repeat against its even one, the model against each); then the
# spacing sweep, natively and predicted, and its chart; and the last line,
# "validation: model M, host H".
set -u
numasim=$1 src=$2
. "$src/tests/e2e/lib/common.bash"

before=$(cksum "$src/results/host-validation.csv" 2>/dev/null)
NUMASIM=$numasim "$src/scripts/validate" --smoke -o "$tmp/v" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || die "scripts/validate --smoke: exit $rc: $(tail -5 "$tmp/err")"
csv=$tmp/v/published/results/host-validation.csv
[ -f "$csv" ] || die "no host-validation.csv"
head -1 "$csv" | grep -q '^scenario,strategy,cache,predicted_cycles,measured_cycles,error,.*,measured_min,measured_max,repeats,measured_odd,measured_even,host_factor,model_factor,pass$' ||
    fail "bad header: $(head -1 "$csv")"
# the measured median of a cell lies within the spread of its 2 repeats
awk -F, 'NR > 1 && !($10 <= $5 && $5 <= $11 && $12 == 2) { bad = 1; print } END { exit bad }' "$csv" ||
    fail "a cell whose measured median is outside its spread, or not of 2 repeats"
for f in spacing-sweep-host spacing-sweep-predicted; do
    [ "$(grep -c ',measure.spacing_cycles,' "$tmp/v/published/results/$f.csv")" -eq 6 ] ||
        fail "$f.csv: not 2 strategies x 3 spacings"
done
[ -s "$tmp/v/published/plots/spacing-sweep.png" ] || fail "no spacing-sweep chart"
# paper-table: 5 strategies x 2 caches; race-rearm: its 6 strategies, warm
[ "$(grep -c '^paper-table,' "$csv")" -eq 10 ] || fail "paper-table cells: $(grep -c '^paper-table,' "$csv")"
[ "$(grep -c '^race-rearm,' "$csv")" -eq 6 ] || fail "race-rearm cells: $(grep -c '^race-rearm,' "$csv")"
awk -F, 'NR > 1 && !($4 != "" && $4 >= 0 && $5 > 0) { bad = 1; print } END { exit bad }' "$csv" ||
    fail "a cell without a prediction or a measurement"
grep -q '^geometric-mean error factor: ' "$tmp/out" || fail "no error factor printed"
# the split halves: with 2 repeats, each half is one repeat; the host's factor
# is max/min of the two, the model's the mean of its factors against each,
# and a cell passes when the model's is at most the host's
awk -F, 'function f(x, y) { return x > y ? x / y : y / x }
    NR > 1 { h = f($13, $14); p = $4 < 1 ? 1 : $4; m = (f(p, $13) + f(p, $14)) / 2
      # (a tie to the 3 decimals of the CSV may have gone either way)
      tie = ($16 - $15) ^ 2 < 1e-6
      if (!($15 >= 1 && $16 >= 1 && (h - $15) ^ 2 < 1e-4 && (m - $16) ^ 2 < 1e-4 && (tie || $17 == ($16 <= $15 ? "yes" : "no"))) ||
          !(($13 == $10 && $14 == $11) || ($13 == $11 && $14 == $10))) { bad = 1; print } } END { exit bad }' "$csv" ||
    fail "a cell whose split halves or factors do not add up"
grep -Eq '^the host against itself, split halves .*: [1-9][0-9]*\.[0-9]{2} on medians; the model against each half: [1-9][0-9]*\.[0-9]{2}; [0-9]+ of 16 cells pass' "$tmp/out" ||
    fail "no split-half line"
# the last line, once: the geometric means of the model's and the host's factors
[ "$(grep -c '^validation:' "$tmp/out")" -eq 1 ] || fail "not exactly one validation: line"
last=$(tail -1 "$tmp/out")
[[ $last =~ ^validation:\ model\ ([0-9]+\.[0-9]{2}),\ host\ ([0-9]+\.[0-9]{2})$ ]] || fail "bad last line: '$last'"
want=$(awk -F, 'NR > 1 { h += log($15); m += log($16); n++ } END { printf "validation: model %.2f, host %.2f", exp(m / n), exp(h / n) }' "$csv")
[ "$last" = "$want" ] || fail "last line '$last', from the CSV '$want'"
# the host against itself: a factor of at least 1 between its 2 repeats
grep -Eq '^the host against itself, within this run .*: [1-9][0-9]*\.[0-9]+ on medians' "$tmp/out" ||
    fail "no within-run factor of the host against itself"
grep -q '<prop id="insn_cycles"' "$tmp/v/published/platforms/host-tuned.xml" || fail "no fitted platform"
[ -s "$tmp/v/published/plots/host-validation.png" ] || fail "no chart"
[ "$(cksum "$src/results/host-validation.csv" 2>/dev/null)" = "$before" ] ||
    fail "--smoke wrote into the repository's results"
# an odd or too small count of repeats has no split halves
for k in 1 3 0; do
    "$src/scripts/validate" --repeat "$k" -o "$tmp/bad" >/dev/null 2>"$tmp/err-$k"
    rc=$?
    if [ "$rc" -ne 2 ] || ! grep -q 'even count' "$tmp/err-$k"; then
        fail "--repeat $k: exit $rc: $(cat "$tmp/err-$k")"
    fi
done
[ "$fails" -eq 0 ] || exit 1
echo "validate --smoke: $(grep '^geometric-mean' "$tmp/out"); $last"
