#!/usr/bin/env bash
# The 6.1 core's studies, small: the tick and contend workloads write their
# extra columns, keep their promises (nothing early, nothing overdue, no
# violation), a second swept key gives every pair, the same seed gives the
# same bytes, and migration moves the deleter's base off its node.
set -u
numasim=$1 src=$2
. "$src/tests/e2e/lib/common.bash"

col() { # col FILE NAME: the values of column NAME, one per row
    awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next }
                       { print $c }' "$1"
}

smp4=$src/platforms/smp4.xml numa32=$src/platforms/numa32.xml

# --- tick: the wheel of each core under 300 timers ---
cat > "$tmp/tick.ini" << EOF
[scenario]
platforms = $smp4
strategies = base_tracking, timer_delete_sync
cache = warm
[measure]
workload = tick
calls = 300
warmup_calls = 20
[kernel]
core = 2.6, 6.1
hz = 1000
[wheel]
timers = 300
timeout_min_jiffies = 5
timeout_max_jiffies = 200
EOF
run run -q -o "$tmp/tick.csv" "$tmp/tick.ini" || die "tick: $err"
head -1 "$tmp/tick.csv" | grep -q ',p99_cycles,fired_per_tick,late_mean_jiffies,late_max_jiffies,late_max_share,fired_early,fired_overdue$' ||
    fail "tick: extra columns: $(head -1 "$tmp/tick.csv")"
[ "$(col "$tmp/tick.csv" fired_early | sort -u)" = 0 ] || fail "tick: a timer fired early"
[ "$(col "$tmp/tick.csv" fired_overdue | sort -u)" = 0 ] || fail "tick: a timer fired overdue"
[ "$(col "$tmp/tick.csv" violations | sort -u)" = 0 ] || fail "tick: violations"
late=$(col "$tmp/tick.csv" late_max_jiffies | tr '\n' ' ')
[ "$late" != "0 0 " ] || fail "tick: the 6.1 wheel was never late ($late)"
awk -F, 'NR > 1 && $8 <= 0 { exit 1 }' "$tmp/tick.csv" || fail "tick: a tick cost nothing"
run run -q -o "$tmp/tick2.csv" "$tmp/tick.ini" || die "tick again"
cmp -s "$tmp/tick.csv" "$tmp/tick2.csv" || fail "tick: two runs differ"

# --- contend: three lock kinds x two contention levels ---
cat > "$tmp/contend.ini" << EOF
[scenario]
platforms = $smp4
strategies = timer_delete_sync
cache = warm
sweep = kernel.lock
sweep_values = tas, ticket, qspinlock
sweep2 = contend.cpus
sweep2_values = 2, 4
[measure]
workload = contend
calls = 40
warmup_calls = 4
expires_jiffies = 1000
[kernel]
core = 6.1
hz = 1000
EOF
run run -q -o "$tmp/contend.csv" "$tmp/contend.ini" || die "contend: $err"
head -1 "$tmp/contend.csv" | grep -q ',p99_cycles,ops,cycles_per_op,fairness$' ||
    fail "contend: extra columns: $(head -1 "$tmp/contend.csv")"
[ "$(col "$tmp/contend.csv" sweep_key | sort -u)" = kernel.lock/contend.cpus ] ||
    fail "contend: sweep_key"
[ "$(col "$tmp/contend.csv" sweep_value | tr '\n' ' ')" = "tas/2 tas/4 ticket/2 ticket/4 qspinlock/2 qspinlock/4 " ] ||
    fail "contend: sweep values $(col "$tmp/contend.csv" sweep_value | tr '\n' ' ')"
col "$tmp/contend.csv" fairness | awk '$1 <= 0 || $1 > 1.0001 { exit 1 }' ||
    fail "contend: fairness out of (0, 1]"
# the fair locks share the base: every contender did its operations
for lock in ticket qspinlock; do
    f=$(awk -F, -v v="$lock/4" 'NR > 1 && $21 == v' "$tmp/contend.csv" | awk -F, '{ print $NF }')
    awk -v f="$f" 'BEGIN { exit !(f > 0.9) }' || fail "contend: $lock/4 fairness $f"
done

# --- migration: an idle CPU's timer goes to a busy CPU of another node ---
cat > "$tmp/mig.ini" << EOF
[scenario]
platforms = $numa32
strategies = timer_delete_sync
cache = warm
sweep = kernel.timers_migration
sweep_values = false, true
[measure]
arm_idle = true
calls = 20
warmup_calls = 2
spacing_cycles = 100000
[kernel]
core = 6.1
hz = 1000
[background]
ops_per_tick = 1
idle_caller_node = true
EOF
run run -q -o "$tmp/mig.csv" "$tmp/mig.ini" || die "migration: $err"
remote=$(col "$tmp/mig.csv" c2c_remote | tr '\n' ' ')
awk -v r="$remote" 'BEGIN { split(r, a, " "); exit !(a[1] == 0 && a[2] > 0) }' ||
    fail "migration: remote transfers off/on: $remote"
[ "$(col "$tmp/mig.csv" violations | sort -u)" = 0 ] || fail "migration: violations"

[ $fails -eq 0 ] || exit 1
echo ok
