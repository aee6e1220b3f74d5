#!/usr/bin/env bash
# The documentation stays short enough to read: README.md, the front page,
# has at most 200 lines, and each page of docs/ at most 400. One line per
# page over its limit, and exit code 1.
#   bash check-size.sh SOURCE_DIR
set -u
src=$(cd "${1:?usage: check-size.sh SOURCE_DIR}" && pwd) || exit 2
fails=0
check() { # FILE LIMIT
    local n
    n=$(wc -l <"$1")
    if [ "$n" -gt "$2" ]; then
        echo "FAIL: ${1#"$src"/} has $n lines, more than $2"
        fails=$((fails + 1))
    fi
}
[ -f "$src/README.md" ] || { echo "FAIL: no README.md in $src"; exit 1; }
check "$src/README.md" 200
n=1
for f in "$src"/docs/*.md; do
    [ -f "$f" ] || continue
    check "$f" 400
    n=$((n + 1))
done
[ $fails -eq 0 ] && echo "docs: README.md within 200 lines, the $((n - 1)) pages of docs/ within 400"
exit $((fails > 0))
