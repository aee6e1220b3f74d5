#!/usr/bin/env bash
# SIGTERM to `numasim litmus` and to `numasim run` while their children run:
# the command exits 143 and no process of its session remains (children,
# platform loaders and their workers die with it, util/child.c), and no
# result, final or temporary, is left behind (util/outfile.c).
# Each command starts in a session of its own (setsid), so that what it
# forked can be found afterwards even when its parent is gone.
# Usage: sigterm_nosan.sh NUMASIM_BINARY SOURCE_DIR
set -u
numasim=${1:?usage: sigterm_nosan.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: sigterm_nosan.sh NUMASIM_BINARY SOURCE_DIR}
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash"

absolute_paths
cd "$tmp" || exit 1

# The processes of session $1 (its leader included), as "pid command".
session() { ps -e -o sid=,pid=,comm= | awk -v s="$1" '$1 == s { print $2, $3 }'; }

# sigterm WHAT MIN CMD...: starts CMD in a new session, waits until the
# session holds at least MIN processes, sends SIGTERM to CMD, and checks its
# exit code and that the session is empty 2 s later.
sigterm() {
    local what=$1 min=$2 pid rc left
    shift 2
    setsid "$@" >"$tmp/$what.out" 2>"$tmp/$what.err" &
    pid=$!
    sleep 0.1
    # setsid execs the command when the shell runs without job control
    [ "$(ps -o sid= -p "$pid" | tr -d ' ')" = "$pid" ] || die "$what: setsid did not run it as a session leader"
    for _ in $(seq 300); do
        [ "$(session "$pid" | wc -l)" -ge "$min" ] && break
        sleep 0.1
    done
    [ "$(session "$pid" | wc -l)" -ge "$min" ] || {
        fail "$what: fewer than $min processes after 30 s: $(session "$pid" | tr '\n' ' ')"
        kill -9 -- -"$pid" 2>/dev/null
        wait "$pid"
        return
    }
    sleep 0.3 # the children are under way
    kill -TERM "$pid"
    wait "$pid"
    rc=$?
    [ "$rc" -eq 143 ] || fail "$what: exit $rc after SIGTERM, expected 143"
    for _ in $(seq 20); do
        [ -z "$(session "$pid")" ] && break
        sleep 0.1
    done
    left=$(session "$pid")
    [ -z "$left" ] || {
        fail "$what: processes left after SIGTERM: $(echo "$left" | tr '\n' ' ')"
        kill -9 -- -"$pid" 2>/dev/null
    }
}

# litmus: one child per test, each of 10^8 runs (minutes).
sigterm litmus 2 "$numasim" litmus --runs 100000000 --platform "$src/platforms/smp4.xml" \
    "$src/litmus/SB.litmus" "$src/litmus/MP.litmus" "$src/litmus/IRIW.litmus"
[ ! -s "$tmp/litmus.err" ] || fail "litmus: stderr after SIGTERM: $(cat "$tmp/litmus.err")"

# run: race-run-wmb (about 24 s) on two jobs: the run, a platform loader and
# its workers.
sigterm run 3 "$numasim" run -q --jobs 2 -o "$tmp/out.csv" "$src/scenarios/race-run-wmb.ini"
[ ! -e "$tmp/out.csv" ] || fail "run: a result was left after SIGTERM"
[ ! -e "$tmp/out.resolved.ini" ] || fail "run: a configuration was left after SIGTERM"
ls -A "$tmp" | grep -q '\.tmp' && fail "run: a temporary file was left: $(ls -A "$tmp")"

[ "$fails" -eq 0 ] || exit 1
echo "sigterm: litmus and run, their children with them, ended"
