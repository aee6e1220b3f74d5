#!/bin/bash
# e2e: `numasim platform --generate`. fat32 has numa32's latency matrix; fat64
# and fat1024 have the tree's latencies (same-brick round trip + 75 cycles per
# router crossed, growing with the routers crossed); output to stdout or -o;
# the build's platforms/fat*.xml (target "platforms") are what the generator
# writes now, and git does not track them; bad
# arguments exit 2 with one line on stderr and write nothing.
# Usage: generate.sh NUMASIM_BINARY SOURCE_DIR
set -u

numasim=${1:?usage: generate.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: generate.sh NUMASIM_BINARY SOURCE_DIR}
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash"

# Generates N CPUs to $tmp/fatN.xml and its --csv matrix to $tmp/fatN.csv.
gen_matrix() {
    run platform --generate --cpus "$1" -o "$tmp/fat$1.xml"
    [ "$rc" -eq 0 ] || fail "--generate --cpus $1 exited $rc: $err"
    [ -s "$tmp/out" ] && fail "--generate -o printed on stdout"
    ls "$tmp"/fat"$1".xml.tmp* >/dev/null 2>&1 && fail "--cpus $1 left a temporary file"
    run platform --csv "$tmp/fat$1.xml"
    [ "$rc" -eq 0 ] || fail "platform --csv fat$1 exited $rc: $err"
    cp "$out_file" "$tmp/fat$1.csv"
}

# Checks a --csv matrix against the tree: symmetric, 0 on the diagonal, and
# base + step x routers crossed elsewhere, with base the same-brick round trip
# (nodes 0-1), step > 0 one router's (nodes 0-2 minus base), and the routers
# crossed: 0 in a brick (nodes 2b, 2b+1), 1 under a leaf router (8 nodes),
# else 2k-2 for the smallest group of 2^(k-1) leaf routers holding both.
# Prints the distinct latencies, in increasing order, on stdout.
check_tree() { # CSV NODES
    awk -F, -v nodes="$2" '
        function crossed(a, b,   la, lb, k) {
            if (int(a / 2) == int(b / 2)) return 0
            la = int(a / 8); lb = int(b / 8)
            if (la == lb) return 1
            for (k = 1; la != lb; k++) { la = int(la / 2); lb = int(lb / 2) }
            return 2 * k - 2
        }
        NR > 1 { for (j = 2; j <= NF; j++) m[NR - 2, j - 2] = $j; rows++ }
        END {
            if (rows != nodes) { print "rows " rows " != " nodes > "/dev/stderr"; exit 1 }
            base = m[0, 1]; step = m[0, 2] - base
            if (!(base > 0 && step > 0)) { print "base " base ", step " step > "/dev/stderr"; exit 1 }
            for (a = 0; a < rows; a++) for (b = 0; b < rows; b++) {
                want = a == b ? 0 : base + step * crossed(a, b)
                if (m[a, b] != want || m[a, b] != m[b, a]) {
                    print "node " a " to " b ": " m[a, b] ", tree says " want > "/dev/stderr"
                    exit 1
                }
                seen[m[a, b]] = 1
            }
            n = 0
            for (v in seen) vals[++n] = v + 0
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
                if (vals[j] < vals[i]) { t = vals[i]; vals[i] = vals[j]; vals[j] = t }
            for (i = 1; i <= n; i++) printf "%s%s", vals[i], i < n ? " " : "\n"
        }' "$1"
}

# --- fat32 is numa32 ---
gen_matrix 32
run platform --csv "$src/platforms/numa32.xml"
[ "$rc" -eq 0 ] || fail "platform --csv numa32.xml exited $rc: $err"
cmp -s "$out_file" "$tmp/fat32.csv" || {
    fail "fat32's matrix differs from numa32's:"
    diff "$out_file" "$tmp/fat32.csv" | head -5 >&2
}
run platform "$tmp/fat32.xml"
grep -q '^platform fat32 .*: 32 CPUs in 16 NUMA nodes' "$out_file" ||
    fail "fat32 text output: $(head -1 "$out_file")"
# the zone's props (memory model, cache levels, code sizes) and their source
# comments are numa32's, line for line
zone_props() { awk '/<prop id="tunable"/ { print; exit } on && !/<!-- 1.5 GHz/ { print } /<zone id=/ { on = 1 }' "$1"; }
diff <(zone_props "$src/platforms/numa32.xml") <(zone_props "$tmp/fat32.xml") >"$tmp/props.diff" ||
    fail "fat32's zone props differ from numa32's: $(head -3 "$tmp/props.diff")"
[ "$(prop "$tmp/fat32.xml" l3_bytes)" = 6291456 ] && [ "$(prop "$tmp/fat32.xml" code_mod_timer_bytes)" -gt 0 ] ||
    fail "fat32 has no cache levels or code sizes"

# --- fat64: 32 nodes, the tree's latencies, growing with the routers crossed ---
gen_matrix 64
vals=$(check_tree "$tmp/fat64.csv" 32) || fail "fat64's matrix is not the tree's"
base=$(awk -F, 'NR == 2 { print $3 }' "$tmp/fat64.csv")
step=$(awk -F, 'NR == 2 { print $4 - $3 }' "$tmp/fat64.csv")
# 0 on the diagonal, then 0, 1, 2 and 4 routers crossed (numa32: 488 563 638)
want="0 $base $((base + step)) $((base + 2 * step)) $((base + 4 * step))"
[ "$vals" == "$want" ] || fail "fat64's latencies are '$vals', expected '$want'"
[ "$base $step" == "$(awk -F, 'NR == 2 { print $3, $4 - $3 }' "$tmp/fat32.csv")" ] ||
    fail "fat64's brick and router latencies differ from fat32's"

# --- a bigger tree: 512 nodes, levels up to 7 (12 routers crossed) ---
gen_matrix 1024
vals=$(check_tree "$tmp/fat1024.csv" 512) || fail "fat1024's matrix is not the tree's"
[ "$(wc -w <<<"$vals")" -eq 9 ] || fail "fat1024: expected 9 distinct latencies, got: $vals"

# --- K CPUs per node, stdout ---
run platform --generate --cpus 48 --cpus-per-node 4
[ "$rc" -eq 0 ] || fail "--cpus 48 --cpus-per-node 4 exited $rc: $err"
cp "$out_file" "$tmp/k4.xml"
grep -q '<zone id="fat48-k4"' "$tmp/k4.xml" || fail "--cpus-per-node 4: zone is not fat48-k4"
run platform --csv "$tmp/k4.xml"
[ "$rc" -eq 0 ] || fail "platform --csv on the stdout output exited $rc: $err"
check_tree "$out_file" 12 >/dev/null || fail "fat48-k4's matrix is not the tree's"
run platform "$tmp/k4.xml"
grep -q '48 CPUs in 12 NUMA nodes' "$out_file" || fail "fat48-k4: $(head -1 "$out_file")"
# the same file as with -o (but for the command in the header comment)
run platform --generate --cpus 48 --cpus-per-node 4 -o "$tmp/k4o.xml"
cmp -s <(grep -v '^       numasim platform' "$tmp/k4.xml") \
    <(grep -v '^       numasim platform' "$tmp/k4o.xml") || fail "stdout and -o outputs differ"

# --- the build wrote platforms/fat*.xml as the generator does; not in git ---
for n in 2 4 8 16 32 64 128 256 512 1024 2048 4096 8192; do
    f=$src/platforms/fat$n.xml
    if [ ! -f "$f" ]; then
        fail "platforms/fat$n.xml is missing (the build's target 'platforms' writes it)"
        continue
    fi
    run platform --generate --cpus "$n" -o "$tmp/c.xml"
    cmp -s <(grep -v '^       numasim platform' "$f") <(grep -v '^       numasim platform' "$tmp/c.xml") ||
        fail "platforms/fat$n.xml is not what the generator writes now (rebuild)"
    grep -q "^       numasim platform - -generate - -cpus $n -o platforms/fat$n.xml\$" "$f" ||
        fail "platforms/fat$n.xml does not say the command that made it"
    if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
        [ -z "$(git -C "$src" ls-files "platforms/fat$n.xml")" ] ||
            fail "platforms/fat$n.xml is tracked by git (it is a build product)"
    fi
done
run platform "$src/platforms/fat2.xml"
grep -q '2 CPUs in 1 NUMA nodes' "$out_file" || fail "fat2: $(head -1 "$out_file")"
run platform --csv "$src/platforms/fat4.xml"
[ "$(tail -n +2 "$out_file" | tr '\n' ' ')" == "0,0,$base 1,$base,0 " ] ||
    fail "fat4 is not one brick: $(tr '\n' ' ' <"$out_file")"

# --- bad arguments: exit 2, one line on stderr, nothing written ---
expect_user_error() { # WHAT ARGS...
    local what=$1
    shift
    run platform --generate "$@"
    [ -s "$out_file" ] && fail "$what: printed on stdout: $(head -c 200 "$out_file")"
    check_user_error "$what"
}
expect_user_error "--cpus 3" --cpus 3
expect_user_error "--cpus 16384" --cpus 16384
expect_user_error "--cpus 1" --cpus 1 --cpus-per-node 1
expect_user_error "--cpus abc" --cpus abc
expect_user_error "no --cpus" -o "$tmp/none.xml"
expect_user_error "--cpus-per-node 0" --cpus 64 --cpus-per-node 0
expect_user_error "--cpus-per-node 128" --cpus 256 --cpus-per-node 128
expect_user_error "unknown option" --cpus 64 --bogus
expect_user_error "missing value" --cpus
expect_user_error "stray argument" --cpus 64 extra.xml
expect_user_error "unwritable -o" --cpus 64 -o /nonexistent/dir/x.xml
[[ "$err" == /nonexistent/dir/x.xml:* ]] || fail "unwritable -o: error does not name the file: $err"
[ -e "$tmp/none.xml" ] && fail "an error wrote $tmp/none.xml"

if [ "$fails" -ne 0 ]; then
    echo "e2e generate: $fails check(s) failed" >&2
    exit 1
fi
echo "e2e generate: all checks passed"
