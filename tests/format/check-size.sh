#!/usr/bin/env bash
# The house's file size: no C file of sim/, tests/ or fuzz/ is over 800
# lines. A file that grows past it is split by responsibility (what each
# part models), not by line count. Each offender is one FAIL line.
#   bash check-size.sh SOURCE_DIR [LIMIT]
set -u
src=$(cd "${1:?usage: check-size.sh SOURCE_DIR [LIMIT]}" && pwd) || exit 2
limit=${2:-800}
fail=0
while IFS= read -r f; do
    n=$(wc -l <"$f")
    if [ "$n" -gt "$limit" ]; then
        echo "FAIL: ${f#$src/} has $n lines (at most $limit: split it by responsibility)"
        fail=1
    fi
done < <(find "$src/sim" "$src/tests" "$src/fuzz" -name '*.[ch]' -type f | sort)
[ $fail -eq 0 ] && echo "source_size: every C file has at most $limit lines"
exit $fail
