#!/bin/bash
# e2e: `numasim bench` on small scenarios: it prints the paper-table run, the
# simulation rate against bare SimGrid (whole, and at the margin), the cost of an access to a held line
# and one row per scaling platform; -o
# writes those rows as CSV (the header, one row per platform, positive
# figures); an unwritable -o fails at once with one line and exit 2.
# Usage: bench_nosan.sh NUMASIM_BINARY SOURCE_DIR
set -u
numasim=${1:?usage: bench_nosan.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: bench_nosan.sh NUMASIM_BINARY SOURCE_DIR}
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash"

small() { # NAME PLATFORMS CALLS
    sed -e "s|^name = .*|name = $1|" -e "s|^platforms = .*|platforms = $2|" \
        -e "s|^calls = .*|calls = $3|" -e '/^default/d' "$src/scenarios/scaling.ini" >"$tmp/$1.ini"
}
small paper "$src/platforms/numa32.xml" 20
small scale "$src/platforms/fat8.xml, $src/platforms/fat16.xml" 4

run bench --paper "$tmp/paper.ini" --scaling "$tmp/scale.ini" -o "$tmp/b.csv"
[ "$rc" -eq 0 ] || die "bench exited $rc: $err"
grep -q '^ratio numasim / bare SimGrid: [0-9]*%$' <<<"$out" || fail "no ratio line in: $out"
grep -q '^ratio at the margin: [0-9]*%$' <<<"$out" || fail "no margin ratio line in: $out"
held=$(grep '^an access to a held line' <<<"$out")
[[ "$held" =~ read\ ([0-9.]+)\ ns,\ write\ ([0-9.]+)\ ns$ ]] || fail "no held-line line in: $out"
awk -v r="${BASH_REMATCH[1]:-0}" -v w="${BASH_REMATCH[2]:-0}" 'BEGIN { exit !(r > 0 && w > 0) }' ||
    fail "held-line costs not positive: $held"
[ "$(head -1 "$tmp/b.csv")" = \
    cpus,wall_s,peak_mib,o1_wall_s,o1_us_per_cpu_call,scan_wall_s,scan_accesses,scan_ns_per_access,o1_margin_us_per_cpu_call ] ||
    fail "CSV header: $(head -1 "$tmp/b.csv")"
[ "$(tail -n +2 "$tmp/b.csv" | cut -d, -f1 | tr '\n' ' ')" = "8 16 " ] ||
    fail "CSV rows: $(cat "$tmp/b.csv")"
awk -F, 'NR > 1 { for (i = 2; i <= 8; i++) if (!($i > 0)) { print "row " NR ": column " i " = " $i; bad = 1 }
    if (NF != 9 || $9 == "") { print "row " NR ": no margin column"; bad = 1 } }
    END { exit bad }' "$tmp/b.csv" || fail "a non-positive figure in $(cat "$tmp/b.csv")"

run bench --paper "$tmp/paper.ini" --scaling "$tmp/scale.ini" -o "$tmp/no/such/dir/b.csv"
check_user_error "unwritable -o" "$tmp/no/such/dir/b.csv"
[ -z "$out" ] || fail "unwritable -o: the benchmark ran anyway: $out"

grep -q '^start-up of a numasim process (exec, dynamic linking): [0-9.]* s' <<<"$(
    "$numasim" bench --paper "$tmp/paper.ini" --no-scaling 2>&1)" || fail "no start-up line"

# --cpus and --hz belong to --native: one line, exit 2
for opt in "--cpus 0" "--hz 100"; do
    run bench $opt --no-scaling
    [ "$rc" -eq 2 ] && [ "$(wc -l <<<"$err")" -eq 1 ] && grep -q "native" <<<"$err" ||
        fail "bench $opt without --native: exit $rc, '$err'"
done

if [ "$fails" -ne 0 ]; then
    echo "e2e bench: $fails check(s) failed" >&2
    exit 1
fi
echo "e2e bench: all checks passed"
