#!/bin/bash
# e2e: the kernel's own litmus tests (issue 41), as Debian's linux-source-6.1
# ships them: tools/memory-model/litmus-tests/ and Documentation/litmus-tests/
# (atomic/, rcu/), unpacked from /usr/src/linux-source-6.1.tar.xz into a
# temporary directory (about 30 s). Every file must parse and run on smp4
# as sc, tso and weak (weak also at the stress setting inval_queue_cycles=
# 2000, and on numa32), and natively on two CPUs (the tests with more
# processes are skipped there), and no test whose "Result:" is Never may show
# its outcome (numasim litmus exits 1 then). Fewer runs than the documented
# table (docs/litmus-kernel.md): the whole test takes about a minute.
# SKIP when the tarball is absent (scripts/setup installs linux-source-6.1).
#   LINUX_SOURCE_TARBALL  another tarball of the same tree
# Usage: litmus_kernel_nosan.sh NUMASIM_BINARY SOURCE_DIR
set -u
numasim=${1:?usage: litmus_kernel_nosan.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: litmus_kernel_nosan.sh NUMASIM_BINARY SOURCE_DIR}
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
if [ ! -r "$tarball" ]; then
    echo "SKIP: $tarball is absent (Debian package linux-source-6.1)"
    exit 0
fi
. "$src/tests/e2e/lib/common.bash"
runs=${LITMUS_KERNEL_RUNS:-1000}

top=$(tar -tJf "$tarball" 2>/dev/null | head -1 | cut -d/ -f1)
[ -n "$top" ] || die "cannot list $tarball"
tar -xJf "$tarball" -C "$tmp" --wildcards "$top/tools/memory-model/litmus-tests/*" \
    "$top/Documentation/litmus-tests/*" || die "cannot unpack the litmus tests from $tarball"
dirs=("$tmp/$top/tools/memory-model/litmus-tests" "$tmp/$top/Documentation/litmus-tests")
n=$(find "${dirs[@]}" -name '*.litmus' | wc -l)
[ "$n" -ge 38 ] || fail "only $n .litmus files unpacked (38 in 6.1)"

kernel() { # WHAT ARGS...: runs the whole suite; every test must run, none forbidden
    local what=$1
    shift
    run litmus --runs "$runs" --expect "$@" "${dirs[@]}"
    [ "$rc" -eq 0 ] || fail "$what: exit $rc: $err$(grep -E 'FORBIDDEN|failed' <<<"$out")"
    local sum
    sum=$(grep '^Summary:' <<<"$out")
    case $sum in
    "Summary: $n tests, $n run; "*" 0 forbidden seen" | "Summary: $n tests, "*" run, "*" skipped "*" 0 forbidden seen") ;;
    *) fail "$what: $sum" ;;
    esac
    echo "$what: $sum"
}
for model in sc tso weak; do
    kernel "smp4 $model" --platform "$src/platforms/smp4.xml" --set memory_model=$model
done
kernel "smp4 weak stress" --platform "$src/platforms/smp4.xml" --set memory_model=weak \
    --set inval_queue_cycles=2000
kernel "numa32 weak" --platform "$src/platforms/numa32.xml" --set memory_model=weak
if [ "$(nproc)" -ge 2 ]; then
    kernel native --native
fi
exit $((fails > 0))
