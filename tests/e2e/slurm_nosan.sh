#!/usr/bin/env bash
# numasim slurm on a real, throwaway single-node Slurm cluster (munged,
# slurmctld, slurmd started here in a temporary directory with their own key,
# socket, ports and state, all stopped by PID on exit):
#   1. `numasim slurm --tasks 4 --wait` gives a CSV and resolved configuration
#      identical to a local `numasim run` of the same scenario;
#   2. with one array task cancelled (scancel of one element), the merge job
#      writes nothing, --wait exits 1 and names the failed slice;
#   3. `numasim slurm --rerun --wait` runs that slice alone and merges.
# If the cluster cannot start, the test fails (it never skips).
# Not run under ASan: it needs daemons and the binary on the job's PATH.
set -u
numasim=$1 src=$2
. "$src/tests/e2e/lib/common.bash"
absolute_paths

for cmd in munged mungekey slurmctld slurmd sbatch squeue scontrol scancel; do
    command -v "$cmd" >/dev/null || die "$cmd not installed (scripts/setup installs slurm-wlm and munge)"
done

# A short directory: munge's socket path must stay under 108 bytes.
D=$(mktemp -d /tmp/nsl.XXXXXX) || exit 1
NODE=simnode
stop_cluster() {
    export SLURM_CONF=$D/slurm.conf
    if scontrol ping >/dev/null 2>&1; then # job steps outlive the daemons
        scancel --user="$(id -un)" 2>/dev/null
        local n=0
        while [ -n "$(squeue -h 2>/dev/null)" ] && [ $((n += 1)) -lt 100 ]; do sleep 0.2; done
    fi
    local p pids t
    pids=$(cat "$D/slurmd.bgpid" "$D/slurmctld.bgpid" "$D/munged.bgpid" 2>/dev/null)
    [ -n "$pids" ] && kill -TERM $pids 2>/dev/null
    t=$((SECONDS + 10))
    for p in $pids; do
        while kill -0 "$p" 2>/dev/null && [ $SECONDS -lt $t ]; do sleep 0.1; done
        kill -0 "$p" 2>/dev/null && kill -KILL "$p"
    done
    rm -rf "$D" "$tmp"
}
trap stop_cluster EXIT

alive() { # alive DAEMON...
    local d
    for d in "$@"; do
        kill -0 "$(cat "$D/$d.bgpid" 2>/dev/null)" 2>/dev/null || { echo "$d died: $(tail -3 "$D/log/$d.out" 2>/dev/null)" >&2; return 1; }
    done
}

start_cluster() {
    mkdir -p "$D"/munge "$D"/state "$D"/spool "$D"/log && chmod 755 "$D" "$D/munge" || return 1
    mungekey -c -k "$D/munge/munge.key" || return 1
    local me port slots mem t
    me=$(id -un) port=$((20000 + RANDOM % 20000)) slots=8
    mem=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
    cat >"$D/slurm.conf" <<CONF
ClusterName=numasimtest
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$me
SlurmdUser=$me
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$D/munge/sock
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
DependencyParameters=kill_invalid_depend
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MinJobAge=5
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$slots RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
    munged -F --socket="$D/munge/sock" --key-file="$D/munge/munge.key" --pid-file="$D/munge/pid" \
        --seed-file="$D/munge/seed" --log-file="$D/log/munged.log" >"$D/log/munged.out" 2>&1 &
    echo $! >"$D/munged.bgpid"
    t=$((SECONDS + 30))
    until [ -S "$D/munge/sock" ]; do
        alive munged && [ $SECONDS -lt $t ] || return 1
        sleep 0.05
    done
    export SLURM_CONF=$D/slurm.conf
    slurmctld -D >"$D/log/slurmctld.out" 2>&1 &
    echo $! >"$D/slurmctld.bgpid"
    slurmd -D -N $NODE >"$D/log/slurmd.out" 2>&1 &
    echo $! >"$D/slurmd.bgpid"
    until scontrol ping >/dev/null 2>&1 &&
        scontrol show node $NODE -o 2>/dev/null | grep -q ' State=IDLE '; do
        alive munged slurmctld slurmd && [ $SECONDS -lt $t ] || return 1
        sleep 0.1
    done
}

t0=$SECONDS
if ! start_cluster; then
    echo "FAIL: the throwaway Slurm cluster did not start; logs:" >&2
    tail -n 5 "$D"/log/* >&2 2>/dev/null
    exit 1
fi
export SLURM_CONF=$D/slurm.conf
echo "cluster up after $((SECONDS - t0)) s"

# A small scenario (a few seconds in all): paper-table with 100 calls.
scen=$src/scenarios/paper-table.ini
sets=(--set measure.calls=100)
cd "$tmp" || exit 1

# The local reference, run as the slurm tasks' merge describes it.
"$numasim" run -o "$tmp/out.csv" -q "${sets[@]}" "$scen" || fail "local run exited $?"
mv "$tmp/out.csv" "$tmp/local.csv" && mv "$tmp/out.resolved.ini" "$tmp/local.resolved.ini"

# --dry-run submits nothing and writes nothing.
run slurm --dry-run --tasks 4 "${sets[@]}" -o "$tmp/out.csv" --dir "$tmp/job" "$scen"
[ "$rc" -eq 0 ] || fail "dry run exited $rc: $err"
grep -q -- '--array=0-3' "$out_file" && grep -q 'afterany:ARRAY_JOB_ID' "$out_file" || fail "dry run: $out"
[ ! -e "$tmp/job" ] || fail "dry run created $tmp/job"

# 1. The whole chain, waited for.
run slurm --tasks 4 --wait "${sets[@]}" -o "$tmp/out.csv" --dir "$tmp/job" "$scen"
[ "$rc" -eq 0 ] || fail "slurm --wait exited $rc: $err"
grep -q '^array job [0-9]*: ' "$out_file" && grep -q '^merge job [0-9]*: ' "$out_file" || fail "no job ids: $out"
grep -q "^merged 4 slices: $tmp/out.csv" "$out_file" || fail "no merge reported: $out"
cmp "$tmp/out.csv" "$tmp/local.csv" || fail "Slurm CSV differs from the local run"
cmp "$tmp/out.resolved.ini" "$tmp/local.resolved.ini" || fail "Slurm resolved configuration differs"
[ "$(ls "$tmp/job/parts" | wc -l)" -eq 4 ] || fail "expected 4 parts: $(ls "$tmp/job/parts")"
echo "1 ok after $((SECONDS - t0)) s"

# 2. A second submission with one array task cancelled before it runs: the
# array is held, element 2 cancelled, the rest released.
hold=(--sbatch-arg=--hold)
run slurm --tasks 4 "${hold[@]}" "${sets[@]}" -o "$tmp/out2.csv" --dir "$tmp/job2" "$scen"
[ "$rc" -eq 0 ] || fail "second submission exited $rc: $err"
aid=$(sed -n 's/^array job \([0-9]*\):.*/\1/p' "$out_file")
mid=$(sed -n 's/^merge job \([0-9]*\):.*/\1/p' "$out_file")
[ -n "$aid" ] && [ -n "$mid" ] || fail "no job ids: $out"
scancel "${aid}_2" || fail "scancel ${aid}_2"
scontrol release "$aid" && scontrol release "$mid" || fail "release"
n=0
until [ -e "$tmp/job2/merge.rc" ] || [ $((n += 1)) -gt 600 ]; do sleep 0.1; done
[ -e "$tmp/job2/merge.rc" ] || fail "the merge job did not run after the cancelled task"
[ "$(cat "$tmp/job2/merge.rc")" = 2 ] || fail "merge job exit $(cat "$tmp/job2/merge.rc"), expected 2"
[ ! -e "$tmp/out2.csv" ] && [ ! -e "$tmp/out2.resolved.ini" ] || fail "a result appeared despite the cancelled slice"
grep -q 'slices to rerun: 2 ' "$tmp/job2/logs/merge.out" || fail "merge log does not name slice 2: $(cat "$tmp/job2/logs/merge.out")"
ls "$tmp/job2/parts" | grep -q 'part-2' && fail "a part of the cancelled slice exists"

# --rerun --dry-run names the failed slice; --rerun reruns it alone.
run slurm --rerun --dry-run "${sets[@]}" -o "$tmp/out2.csv" --dir "$tmp/job2" "$scen"
grep -q -- '--array=2 ' "$out_file" || fail "rerun dry run does not name slice 2: $out"
run slurm --rerun --wait "${sets[@]}" -o "$tmp/out2.csv" --dir "$tmp/job2" "$scen"
[ "$rc" -eq 0 ] || fail "rerun exited $rc: $err"
grep -q '^array job [0-9]*: slices 2 of 4' "$out_file" || fail "rerun did not submit slice 2 alone: $out"
cmp "$tmp/out2.csv" "$tmp/local.csv" || fail "the rerun's merged CSV differs from the local run"
echo "2 ok after $((SECONDS - t0)) s"

# 3. --wait reports a failed slice, judged from the parts: cancel a running
# task of a third submission and wait.
"$numasim" slurm --tasks 4 --wait --sbatch-arg=--hold "${sets[@]}" -o "$tmp/out3.csv" \
    --dir "$tmp/job3" "$scen" >"$tmp/o3" 2>"$tmp/e3" &
waiter=$!
n=0
until grep -q '^merge job' "$tmp/o3" || [ $((n += 1)) -gt 300 ]; do sleep 0.1; done
aid3=$(sed -n 's/^array job \([0-9]*\):.*/\1/p' "$tmp/o3")
mid3=$(sed -n 's/^merge job \([0-9]*\):.*/\1/p' "$tmp/o3")
[ -n "$aid3" ] && [ -n "$mid3" ] || fail "third submission: no job ids: $(cat "$tmp/o3" "$tmp/e3")"
scancel "${aid3}_1"
scontrol release "$aid3" && scontrol release "$mid3"
wait $waiter
rc3=$?
[ "$rc3" -eq 1 ] || fail "--wait exited $rc3 with a cancelled slice, expected 1"
grep -q 'slices 1 (1: missing)' "$tmp/e3" || fail "--wait does not name slice 1: $(cat "$tmp/e3")"
[ ! -e "$tmp/out3.csv" ] || fail "a result appeared for the third submission"
echo "3 ok after $((SECONDS - t0)) s"

[ "$fails" -eq 0 ] || exit 1
echo "ok ($((SECONDS - t0)) s)"
