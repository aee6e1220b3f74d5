#!/bin/bash
# e2e: `numasim platform --from-host --executed`: callgrind counts the
# instructions each code unit runs per call, in native runs of numasim
# itself (paper-table and modern-table, warm). A unit the measured program
# calls gets its executed count, below objdump's count of every instruction
# of its functions and with a comment naming the calls; a unit no run calls
# keeps objdump's count and says so. Without valgrind, or when a captured
# run fails (its own error in the message): the one-line error, exit 2, no
# file. SKIP when valgrind is not installed. About 3 minutes.
# Usage: from_host_executed_nosan.sh NUMASIM_BINARY SOURCE_DIR
set -u

numasim=${1:?usage: from_host_executed_nosan.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: from_host_executed_nosan.sh NUMASIM_BINARY SOURCE_DIR}
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash"
absolute_paths
cd "$tmp" || exit 1
unset HWLOC_XMLFILE

# without valgrind on the PATH
PATH=/nonexistent "$numasim" platform --from-host --executed -o nv.xml >nv.out 2>nv.err
rc=$?
err=$(cat nv.err)
check_user_error "--executed without valgrind" nv.xml
case "$err" in *"valgrind unavailable"*) ;; *) fail "--executed without valgrind: '$err'" ;; esac

if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: valgrind is not installed"
    [ "$fails" -eq 0 ] || exit 1
    exit 0
fi
before=$(ls -d /tmp/numasim-executed-* 2>/dev/null)

# a captured run that fails: its own one-line error, exit 2, no file, no
# directory left (here the scenario's platforms are missing)
mkdir -p noplat/scenarios && cp "$src/scenarios/paper-table.ini" noplat/scenarios/
cd noplat || exit 1
run platform --from-host --executed -o np.xml
check_user_error "--executed with a failing capture" np.xml
case "$err" in *"valgrind's run of paper-table failed (exit 2): scenarios/paper-table.ini:"*"does not exist"*) ;;
*) fail "--executed with a failing capture: '$err'" ;; esac
[ "$(ls -d /tmp/numasim-executed-* 2>/dev/null)" = "$before" ] || fail "a failed capture left its directory in /tmp"
cd "$tmp" || exit 1

cd "$src" || exit 1 # the runs find paper-table and modern-table by name
run platform --from-host -o "$tmp/static.xml"
[ "$rc" -eq 0 ] || die "--from-host: exit $rc: $err"
run platform --from-host --executed -o "$tmp/ex.xml"
[ "$rc" -eq 0 ] || die "--from-host --executed: exit $rc: $err"
cd "$tmp" || exit 1
run platform ex.xml
[ "$rc" -eq 0 ] || fail "numasim platform ex.xml: exit $rc: $err"

# units the measured program calls: executed, at least 1, below the static count
for u in mod_timer del_timer del_timer_sync_last_running del_timer_sync_base_tracking \
    timer_delete_sync; do
    s=$(prop static.xml "code_${u}_insns") x=$(prop ex.xml "code_${u}_insns")
    [ -n "$x" ] && [ "$x" -ge 1 ] && [ "$x" -le "$s" ] ||
        fail "code_${u}_insns: executed $x, objdump $s"
    grep -B1 "id=\"code_${u}_insns\"" ex.xml | grep -q "instructions executed per call, callgrind: [0-9]* in [0-9]* calls of .* by the measured program (objdump counts $s " ||
        fail "code_${u}_insns: no comment on the executed count"
done
# del_timer's full path is some two thirds of its functions; a warm
# last_running delete runs its own pending test and del_timer
x=$(prop ex.xml code_del_timer_insns) s=$(prop static.xml code_del_timer_insns)
[ "$x" -lt "$s" ] || fail "del_timer: executed $x, not below objdump's $s"
# a unit no scenario of the capture calls (shortcut is in neither): objdump's
[ "$(prop ex.xml code_del_timer_sync_shortcut_insns)" = "$(prop static.xml code_del_timer_sync_shortcut_insns)" ] &&
    grep -B1 'id="code_del_timer_sync_shortcut_insns"' ex.xml | grep -q "callgrind's runs did not call this unit" ||
    fail "shortcut: not objdump's count with its reason"
# no file of the capture is left behind
[ "$(ls -d /tmp/numasim-executed-* 2>/dev/null)" = "$before" ] || fail "the capture left its directory in /tmp"
[ "$fails" -eq 0 ] || exit 1
echo ok
