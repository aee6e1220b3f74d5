#!/bin/bash
# e2e: the kernel's litmus dialect, one construct per test of
# tests/litmus/ (comments, locations, filter, pointers, atomic_t, the lock
# operations, RCU, the conditions), on smp4 as sc, tso and weak (weak at
# the stress setting inval_queue_cycles=2000, where relaxed outcomes show
# most) and natively. Each test's "numasim-expect:" says what its
# proposition must do per model (as litmus_nosan.sh reads it; natively,
# a Never must stay Never and an Always stay Always); then what each
# construct prints: locations and pointers in the state, filter's runs;
# and --grace-period, the cost of RCU's synchronize_rcu.
# Usage: litmus_dialect.sh NUMASIM_BINARY SOURCE_DIR
set -u
numasim=${1:?usage: litmus_dialect.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: litmus_dialect.sh NUMASIM_BINARY SOURCE_DIR}
. "$src/tests/e2e/lib/common.bash"
runs=1000
smp4=$src/platforms/smp4.xml

check() { # MODEL FILE OBSERVATION
    local model=$1 f=$2 obs=$3 name want kind pos neg
    name=$(basename "$f" .litmus)
    read -r _ _ kind pos neg <<<"$obs"
    [ -n "$kind" ] || { fail "$name on $model: no Observation"; return; }
    if [ "$model" = native ]; then # the host's own model: what the weakest must do
        want=$(grep -o "numasim-expect:.*" "$f" | grep -o "weak=[A-Za-z]*" | cut -d= -f2)
        [ "$want" = Sometimes ] && want=Allowed
    else
        want=$(grep -o "numasim-expect:.*" "$f" | grep -o "$model=[A-Za-z]*" | cut -d= -f2)
    fi
    case $want in
    Never) [ "$pos" -eq 0 ] || fail "$name on $model: forbidden outcome seen: $obs" ;;
    Sometimes) [ "$pos" -gt 0 ] || fail "$name on $model: relaxed outcome never seen: $obs" ;;
    Always) [ "$neg" -eq 0 ] || fail "$name on $model: must always hold: $obs" ;;
    Allowed) ;;
    *) fail "$name: no expectation for $model ('$want')" ;;
    esac
}

for model in sc tso weak; do
    set=(--set memory_model=$model)
    [ "$model" = weak ] && set+=(--set inval_queue_cycles=2000)
    for f in "$src"/tests/litmus/*.litmus; do
        run litmus --runs $runs --platform "$smp4" "${set[@]}" "$f"
        [ "$rc" -eq 0 ] || { fail "$(basename "$f") on $model: exit $rc: $err"; continue; }
        check $model "$f" "$(grep '^Observation' "$out_file")"
        cp "$out_file" "$tmp/$model-$(basename "$f" .litmus).out"
    done
done
if [ "$(nproc)" -ge 2 ]; then
    for f in "$src"/tests/litmus/*.litmus; do
        run litmus --native --runs $runs "$f"
        [ "$rc" -eq 0 ] || { fail "$(basename "$f") natively: exit $rc: $err"; continue; }
        check native "$f" "$(grep '^Observation' "$out_file")"
    done
fi

# locations: 0:r1 and y are in every state, with the condition's registers
grep -qE '>0:r0=[01]; 0:r1=1; 1:r0=[01]; y=1;$' "$tmp/weak-locations.out" ||
    fail "locations: 0:r1 and y not in the state: $(cat "$tmp/weak-locations.out")"
# filter: only the runs that pass it are counted
read -r _ _ _ pos neg <<<"$(grep '^Observation' "$tmp/sc-filter.out")"
[ $((pos + neg)) -gt 0 ] && [ $((pos + neg)) -lt $runs ] ||
    fail "filter: $((pos + neg)) of $runs runs counted"
# pointers print as the variable they point to
grep -qE '>1:r0=x; 1:r1=1;$' "$tmp/weak-pointers.out" && grep -qE '>1:r0=a; 1:r1=7;$' "$tmp/weak-pointers.out" ||
    fail "pointers: states are not 1:r0=x/1 and 1:r0=a/7: $(cat "$tmp/weak-pointers.out")"
# the grace period's cost: synchronize_rcu on the machine, every CPU a reader
run litmus --grace-period --platform "$smp4"
[ "$rc" -eq 0 ] || fail "--grace-period: exit $rc: $err"
grep -qE '^Grace period on smp4 \(4 CPUs, no reader inside\): mean [1-9][0-9]* cycles, min [1-9][0-9]*, max [1-9][0-9]* over 8$' <<<"$out" ||
    fail "--grace-period: $out"
run litmus --grace-period --platform "$smp4" "$src/tests/litmus/rcu.litmus"
check_user_error "--grace-period with a test"
exit $((fails > 0))
