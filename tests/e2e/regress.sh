#!/bin/bash
# e2e: every platform file of tests/regress/platform/ through `numasim
# platform`, which validates it (libxml2) and then loads it in SimGrid. Each
# must either load (exit 0) or be refused with exit 2 and one line on stderr,
# never reach SimGrid's own parser with something it aborts on (a backtrace,
# "Parse error", exit 134). Files holding NUL bytes (fuzzer inputs: the file,
# then overrides) are tried whole and cut at the first NUL.
# (tests/test_regress.c feeds the same files, and the scenario ones, to the
# parsers directly.)
# Usage: regress.sh NUMASIM_BINARY SOURCE_DIR
set -u

numasim=${1:?usage: regress.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: regress.sh NUMASIM_BINARY SOURCE_DIR}
. "$src/tests/e2e/lib/common.bash"
loaded=0 refused=0

check() { # FILE NAME
    "$numasim" platform "$1" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    local bad=0
    grep -qaiE 'backtrace|xbt_|exception|Parse error|Aborted|terminate called' \
        "$tmp/out" "$tmp/err" && bad=1
    [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ] && bad=1
    if [ "$bad" -eq 1 ]; then
        fail "$2: exit $rc, SimGrid got a file it cannot take: $(grep -av '^$' "$tmp/err" | head -2)"
    elif [ "$rc" -eq 2 ]; then
        [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$2: error is not one line: $(cat "$tmp/err")"
        [ -s "$tmp/out" ] && fail "$2: printed on stdout after an error"
        refused=$((refused + 1))
    else
        loaded=$((loaded + 1))
    fi
}

for f in "$src"/tests/regress/platform/*; do
    [ -f "$f" ] || continue
    name=$(basename "$f")
    check "$f" "$name"
    if [ "$(tr -d '\0' <"$f" | wc -c)" -ne "$(wc -c <"$f")" ]; then
        head -z -n 1 "$f" | tr -d '\0' >"$tmp/cut.xml"
        check "$tmp/cut.xml" "$name (cut at the first NUL)"
    fi
done

echo "regress: $loaded loaded, $refused refused with one line, $fails failed"
[ "$fails" -eq 0 ]
