#!/bin/bash
# e2e: numasim under valgrind (memcheck, leak check, every child followed):
#   - a full `numasim run` of a small scenario (smp4, 50 calls, 2 strategies,
#     one child simulation each): no memory error, no leak;
#   - the error paths of a bad scenario file and of a bad platform file: no
#     memory error, no leak, exit 2.
# SimGrid's raw contexts switch stacks under valgrind's feet; SimGrid built
# with valgrind support (Debian's is) registers its stacks, so no option is
# needed. SKIP when valgrind is not installed. About 20 s.
# Usage: valgrind_nosan.sh NUMASIM_BINARY SOURCE_DIR
set -u

numasim=${1:?usage: valgrind_nosan.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: valgrind_nosan.sh NUMASIM_BINARY SOURCE_DIR}
src=$(cd "$src" && pwd)
if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: valgrind is not installed"
    exit 0
fi
. "$src/tests/e2e/lib/common.bash"

# vg EXPECTED_EXIT NAME ARGS...: numasim ARGS under valgrind; exit code 99
# means valgrind found an error (see the log).
vg() {
    local want=$1 name=$2
    shift 2
    valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,possible \
        --trace-children=yes --child-silent-after-fork=no --log-file="$tmp/$name.%p.log" \
        "$numasim" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    local rc=$?
    local errs
    errs=$(grep -h 'ERROR SUMMARY' "$tmp/$name".*.log | grep -vc ' 0 errors from 0 contexts')
    if [ "$rc" -eq 99 ] || [ "$errs" -ne 0 ]; then
        fail "$name: valgrind found errors:"
        grep -h -A25 -E 'Invalid|uninitialised|definitely lost|possibly lost|Mismatched' \
            "$tmp/$name".*.log | head -80 >&2
    elif [ "$rc" -ne "$want" ]; then
        fail "$name: exit code $rc, expected $want: $(head -3 "$tmp/$name.err")"
    else
        local n
        n=$(ls "$tmp/$name".*.log | wc -l)
        echo "ok: $name: exit $rc, $n process(es) checked, no error, no leak"
    fi
}

printf '[scenario]\nplatforms = %s\nstrategies = scan, naive\ncache = warm\n[measure]\ncalls = 50\nwarmup_calls = 1\n' \
    "$src/platforms/smp4.xml" >"$tmp/small.ini"
vg 0 run run -q --jobs 2 -o "$tmp/small.csv" "$tmp/small.ini"
if [ -f "$tmp/small.csv" ]; then
    rows=$(($(wc -l <"$tmp/small.csv") - 1))
    [ "$rows" -eq 2 ] || fail "run: $rows CSV rows, expected 2"
else
    fail "run: no CSV written"
fi

printf '[scenario]\nplatforms = %s\n[measure]\ncalls = many\n' "$src/platforms/smp4.xml" \
    >"$tmp/bad.ini"
vg 2 bad-scenario run -q -o "$tmp/bad.csv" "$tmp/bad.ini"

sed 's/speed="1f"/speed="2f"/' "$src/platforms/smp4.xml" >"$tmp/bad.xml"
vg 2 bad-platform platform "$tmp/bad.xml"

if [ "$fails" -gt 0 ]; then
    echo "valgrind: $fails check(s) failed" >&2
    exit 1
fi
echo "valgrind: all checks passed"
