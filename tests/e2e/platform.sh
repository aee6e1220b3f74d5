#!/bin/bash
# e2e: `numasim platform` on a good file (text and --csv) and on bad files
# (missing, malformed, negative property): exit 2, one line on stderr that
# starts with the file path, nothing on stdout, never a SimGrid backtrace.
# Usage: platform.sh NUMASIM_BINARY SOURCE_DIR
set -u

numasim=${1:?usage: platform.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: platform.sh NUMASIM_BINARY SOURCE_DIR}
good=$src/platforms/numa32.xml
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash"

# --- the good file, as text ---
run platform "$good"
[ "$rc" -eq 0 ] || fail "platform numa32.xml exited $rc: $err"
grep -q '32 CPUs in 16 NUMA nodes' <<<"$out" || fail "no '32 CPUs in 16 NUMA nodes' in: $(head -1 <<<"$out")"
# Matrix rows: a node number then 16 latencies, 0 on the diagonal.
rows=$(awk 'NF == 17 { for (i = 1; i <= NF; i++) if ($i !~ /^[0-9]+$/) next; print }' <<<"$out")
nrows=$(grep -c . <<<"$rows")
[ "$nrows" -eq 16 ] || fail "expected 16 matrix rows, got $nrows"
diag=$(awk 'NF == 17 && $($1 + 2) != 0 { bad++ } END { print bad + 0 }' <<<"$rows")
[ "$diag" -eq 0 ] || fail "$diag matrix rows have a non-zero diagonal"

# --- the good file, as CSV: the same matrix ---
run platform --csv "$good"
[ "$rc" -eq 0 ] || fail "platform --csv exited $rc: $err"
nlines=$(grep -c . <<<"$out")
[ "$nlines" -eq 17 ] || fail "--csv printed $nlines lines, expected 17"
[[ "$(head -1 <<<"$out")" == node,0,1,* ]] || fail "--csv header is '$(head -1 <<<"$out")'"
[ "$(tail -n +2 <<<"$out")" == "$(tr -s ' ' <<<"$rows" | sed 's/^ //; s/ /,/g')" ] ||
    fail "--csv matrix differs from the text matrix"
asym=$(tail -n +2 <<<"$out" | awk -F, '{ for (j = 2; j <= NF; j++) m[NR - 1, j - 2] = $j }
    END { for (a = 0; a < NR; a++) for (b = 0; b < NR; b++) if (m[a, b] != m[b, a]) bad++
          print bad + 0 }')
[ "$asym" -eq 0 ] || fail "--csv matrix is not symmetric ($asym cells)"

# --- bad files: exit 2, one stderr line starting with the path, no stdout ---
expect_user_error() { # FILE WHAT
    run platform "$1"
    check_user_error "$2"
    [ -z "$out" ] || fail "$2: printed on stdout: $out"
    [[ "$err" == "$1:"* ]] || fail "$2: stderr does not start with '$1:': $err"
}

expect_user_error "$tmp/no_such.xml" "missing file"

head -c 2000 "$good" >"$tmp/truncated.xml"
expect_user_error "$tmp/truncated.xml" "malformed file"
[[ "$err" =~ ^"$tmp/truncated.xml":[0-9]+:\  ]] || fail "malformed file: no line number in: $err"

sed -E 's/(<prop id="mem_local_cycles" value=")[^"]*"/\1-5"/' "$good" >"$tmp/negative.xml"
grep -q 'value="-5"' "$tmp/negative.xml" || fail "could not write the negative file"
expect_user_error "$tmp/negative.xml" "negative property"
line=$(grep -n 'value="-5"' "$tmp/negative.xml" | cut -d: -f1)
[[ "$err" == "$tmp/negative.xml:$line: "*mem_local_cycles* ]] ||
    fail "negative property: expected '$tmp/negative.xml:$line: ...mem_local_cycles...', got: $err"

if [ "$fails" -ne 0 ]; then
    echo "e2e platform: $fails check(s) failed" >&2
    exit 1
fi
echo "e2e platform: all checks passed"
