#!/usr/bin/env bash
# The house style: every C file of sim/, tests/ and fuzz/ is as clang-format
# writes it with the committed .clang-format (scripts/setup installs
# clang-format). A file that is not fails the test with clang-format's own
# message, which names the line.
#   bash check.sh SOURCE_DIR
set -u
src=$(cd "${1:?usage: check.sh SOURCE_DIR}" && pwd) || exit 2
command -v clang-format >/dev/null || { echo "FAIL: clang-format is not installed (scripts/setup installs it)"; exit 1; }
[ -f "$src/.clang-format" ] || { echo "FAIL: no .clang-format in $src"; exit 1; }
mapfile -t files < <(find "$src/sim" "$src/tests" "$src/fuzz" -name '*.[ch]' -type f | sort)
[ "${#files[@]}" -gt 0 ] || { echo "FAIL: no C files under $src"; exit 1; }
if ! out=$(cd "$src" && clang-format --dry-run -Werror "${files[@]}" 2>&1); then
    printf '%s\n' "$out" | grep 'error:' | head -20
    echo "FAIL: $(printf '%s\n' "$out" | grep -c 'error:') lines differ from clang-format's (run clang-format -i on the files above)"
    exit 1
fi
echo "format: ${#files[@]} C files as clang-format writes them"
