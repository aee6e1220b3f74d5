#!/bin/bash
# e2e: `numasim platform` on a good file (text and --csv) and on bad files
# (missing, malformed, negative property, a bad core): exit 2, one line on stderr that
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

# --- the core's props: each bad value is one line at its own line ---
with_core() { # FILE PROPS...: numa32 without its own core, with the props after its memory_model
    local f=$1
    shift
    without_core "$good" "$f.nocore"
    awk -v add="$*" '{ print } /<prop id="memory_model"/ {
        n = split(add, kv, " "); for (i = 1; i <= n; i++) { split(kv[i], p, "=")
        printf "    <prop id=\"%s\" value=\"%s\"/>\n", p[1], p[2] } }' "$f.nocore" >"$f"
}
with_core "$tmp/core_ok.xml" core=ooo core_width=4 core_rob=128 core_mshr=8 \
    core_serialize_cycles=30 core_fetch_ahead=4
run platform "$tmp/core_ok.xml"
[ "$rc" -eq 0 ] || fail "a good core: exit $rc: $err"
grep -q '^core: out of order, 4 instructions a cycle, window 128, 8 misses outstanding' <<<"$out" ||
    fail "a good core: no core line in: $(grep core <<<"$out")"
with_core "$tmp/core_frac.xml" core=ooo core_width=2.5 core_rob=3
run platform "$tmp/core_frac.xml"
[ "$rc" -eq 0 ] || fail "a fractional width: exit $rc: $err"
grep -q '^core: out of order, 2.5 instructions a cycle, window 3' <<<"$out" ||
    fail "a fractional width: no core line in: $(grep core <<<"$out")"
run platform "$good"
grep -q '^core: in order, 3 instructions a cycle' <<<"$out" ||
    fail "numa32's in-order core: no core line in: $(grep core <<<"$out")"
without_core "$good" "$tmp/nocore.xml"
run platform "$tmp/nocore.xml"
! grep -q '^core:' <<<"$out" || fail "core none printed a core line"
while IFS='|' read -r props bad what; do
    f=$tmp/core_bad.xml
    # shellcheck disable=SC2086 # props are words
    with_core "$f" $props
    expect_user_error "$f" "$what"
    line=$(grep -n "id=\"$bad\"" "$f" | cut -d: -f1)
    [[ "$err" == "$f:$line: "*"'$bad'"* ]] || fail "$what: expected '$f:$line: ...$bad...', got: $err"
done <<'EOF'
core=superscalar|core|unknown core
core=ooo core_width=0|core_width|width 0
core=inorder core_width=65|core_width|width above 64
core=ooo core_width=4 core_rob=2|core_rob|rob below width
core=ooo core_width=2.5 core_rob=2|core_rob|rob below a fractional width
core=ooo core_width=0.5|core_width|width below 1
core=ooo core_width=two|core_width|width not a number
core=inorder core_rob=64|core_rob|rob on an in-order core
core=ooo core_mshr=0|core_mshr|no miss register
core=ooo core_fetch_ahead=65|core_fetch_ahead|fetch ahead above 64
core=ooo core_serialize_cycles=-1|core_serialize_cycles|negative serialise cost
core_mshr=4|core_mshr|core prop without core
core=none core_width=2|core_width|core prop with core none
core=ooo core_insn_bytes=0|core_insn_bytes|no bytes an instruction
core=inorder core_irq_serialize=2|core_irq_serialize|irq serialise not 0 or 1
core=ooo core_rmw_overlap=2|core_rmw_overlap|rmw overlap not 0 or 1
core=inorder core_rmw_overlap=1|core_rmw_overlap|rmw overlap on an in-order core
core=ooo core_clock_cycles=-1|core_clock_cycles|negative clock read
core=ooo core_clock_cycles=100001|core_clock_cycles|clock read above 100000
core=inorder core_clock_cycles=40|core_clock_cycles|clock read latency on an in-order core
code_tick_insns=0|code_tick_insns|a unit of no instructions
code_nosuch_insns=5|code_nosuch_insns|instructions of a unit without bytes
EOF

if [ "$fails" -ne 0 ]; then
    echo "e2e platform: $fails check(s) failed" >&2
    exit 1
fi
echo "e2e platform: all checks passed"
