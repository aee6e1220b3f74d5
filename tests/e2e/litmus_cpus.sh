#!/bin/bash
# e2e: `numasim litmus --cpus LIST` on a simulated platform places process i
# on the i-th CPU of the list in ascending order. Without --cpus, process i
# of n runs on CPU i * ncpus / n: WRC's three processes on numa32 are on
# CPUs 0, 10 and 21, so --cpus 0,10,21 (in any order) must give the same
# report byte for byte, and --cpus 0,1,2 (P0 and P1 on node 0, P2 on
# node 1) a different one.
# Usage: litmus_cpus.sh NUMASIM_BINARY SOURCE_DIR
set -u
numasim=${1:?usage: litmus_cpus.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: litmus_cpus.sh NUMASIM_BINARY SOURCE_DIR}
. "$src/tests/e2e/lib/common.bash"

wrc() { # OUT [--cpus LIST]
    local o=$1
    shift
    run litmus --runs 2000 --platform "$src/platforms/numa32.xml" "$@" "$src/litmus/WRC.litmus"
    [ "$rc" -eq 0 ] || fail "litmus $*: exit $rc: $err"
    cp "$out_file" "$tmp/$o"
    grep -q "^Observation WRC [A-Za-z]* [0-9]* [0-9]*$" "$tmp/$o" || fail "litmus $*: no Observation line"
}
wrc default
wrc listed --cpus 0,10,21
wrc shuffled --cpus 21,0,10
wrc ranges --cpus 0,10,21-21
wrc near --cpus 0-2
cmp -s "$tmp/default" "$tmp/listed" || fail "--cpus 0,10,21 is not the default placement: $(diff "$tmp/default" "$tmp/listed" | head -4)"
cmp -s "$tmp/listed" "$tmp/shuffled" || fail "--cpus 21,0,10 differs from 0,10,21 (not in ascending order?)"
cmp -s "$tmp/listed" "$tmp/ranges" || fail "--cpus 0,10,21-21 differs from 0,10,21"
cmp -s "$tmp/default" "$tmp/near" && fail "--cpus 0-2 gives the default placement's report: the list is ignored"
exit $((fails > 0))
