#!/bin/bash
# e2e: `numasim probe`. The simulated probes of numa32 must measure what the
# model calls them: a hit costs l1d_cycles (hit_cycles without levels), an atomic on a held line
# atomic_cycles, a load missing to node h's memory mem_local_cycles plus the
# round trip to h (from `numasim platform --csv`), a load of a line dirty in
# another CPU's cache c2c_node_cycles on the same node or mem_local + round
# trip + remote_dirty_cycles across nodes, a store to a shared line the
# farthest sharer's invalidation, and a ping-pong round trip two transfers
# plus at most one spin-loop iteration per side. Also: --set changes the
# figures, the row set, and user errors (exit 2, no output file).
# numa32 runs as sc here: on its own weak model a store costs the CPU one hit
# and its transaction goes on behind it (docs/memory-ordering.md), so the
# store probe would time the store buffer, not the invalidation.
# Usage: probe.sh NUMASIM_BINARY SOURCE_DIR
set -u

numasim=${1:?usage: probe.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: probe.sh NUMASIM_BINARY SOURCE_DIR}
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash"
absolute_paths
cd "$tmp" || exit 1

# the coherence costs by hand: numa32 without its core
plat=$tmp/numa32.xml
without_core "$src/platforms/numa32.xml" "$plat"

# the coherence costs, without the store buffers of the platform's memory
# model (a buffered store costs only a hit: checked below)
sc=(--set platform.memory_model=sc)
run probe -q -o p.csv "${sc[@]}" "$plat"
[ "$rc" -eq 0 ] || die "probe exited $rc: $err"
run platform --csv "$plat"
[ "$rc" -eq 0 ] || die "platform --csv exited $rc: $err"
cp "$out_file" lat.csv
run platform "$plat"
# CPU -> node, from the "node  CPUs" table
awk '/^node  CPUs/ { t = 1; next } t && NF == 0 { exit } t { for (i = 2; i <= NF; i++) print $i "," $1 }' \
    "$out_file" >cpunode.csv
[ "$(wc -l <cpunode.csv)" -eq 32 ] || fail "could not read the CPU->node table"

# a hit costs the first data level's latency where the platform has levels
hitc=$(prop "$plat" l1d_cycles)
[ -n "$hitc" ] || hitc=$(prop "$plat" hit_cycles)
check=$(awk -F, -v hit="$hitc" -v atom="$(prop "$plat" atomic_cycles)" \
    -v mem="$(prop "$plat" mem_local_cycles)" -v c2c="$(prop "$plat" c2c_node_cycles)" \
    -v dirty="$(prop "$plat" remote_dirty_cycles)" -v inv="$(prop "$plat" inval_node_cycles)" \
    -v relax="$(prop "$plat" relax_cycles)" '
    FILENAME == "lat.csv" { if (FNR > 1) for (j = 2; j <= NF; j++) lat[$1, j - 2] = $j; next }
    FILENAME == "cpunode.csv" { node[$1] = $2; next }
    FNR == 1 { next }
    function bad(what) { printf "%s: got %s, want %s\n", $0, $7, what; nbad++ }
    function transfer(a, b) { return a == b ? c2c : mem + lat[a, b] + dirty }
    { n[$1]++; a = $5; b = $6; v = $7 }
    $1 == "timer_overhead" && v != 0 { bad(0) }
    $1 == "hit" && v != hit { bad(hit) }
    $1 == "atomic_held" && v != atom { bad(atom) }
    $1 == "load_mem" && v != mem + lat[a, b] { bad(mem + lat[a, b]) }
    $1 == "load_dirty" && v != transfer(a, b) { bad(transfer(a, b)) }
    $1 ~ /^store_inval_/ {
        k = substr($1, 13) + 0; w = 0
        for (s = 1; s <= k; s++) { sn = node[($3 + s) % 32]; c = sn == a ? inv : lat[a, sn]; if (c > w) w = c }
        if (v != w) bad(w)
    }
    $1 ~ /^pingpong_/ {
        t = 2 * transfer(a, b)
        if (v < t || v > t + 2 * (hit + relax)) bad(t " .. " t + 2 * (hit + relax))
    }
    END {
        if (n["load_mem"] != 256 || n["load_dirty"] != 256 || n["pingpong_ldst"] != 136 ||
            n["pingpong_cas"] != 136 || n["hit"] != 1 || n["store_inval_31"] != 1)
            { print "row counts: load_mem " n["load_mem"] " load_dirty " n["load_dirty"] \
                    " pingpong_ldst " n["pingpong_ldst"] " pingpong_cas " n["pingpong_cas"]; nbad++ }
        print nbad + 0
    }' lat.csv cpunode.csv p.csv)
[ "$(echo "$check" | tail -1)" = 0 ] || fail "numa32 probes vs the model: $check"
head -1 p.csv | grep -qx 'probe,platform,from_cpu,to_cpu,from_node,to_node,median_cycles,p10_cycles,p90_cycles,reps' ||
    fail "CSV header: $(head -1 p.csv)"

# --set reaches the model; the same run twice is byte-identical
run probe -q -o p2.csv --set platform.l1d_cycles=9 --set platform.link.exit=100 "$plat"
[ "$rc" -eq 0 ] || fail "probe --set exited $rc: $err"
grep -q '^hit,numa32,0,0,0,0,9,' p2.csv || fail "--set platform.l1d_cycles=9: $(grep ^hit p2.csv)"
grep -q '^load_mem,numa32,0,0,0,1,640,' p2.csv || fail "--set link.exit=100: $(grep '^load_mem,numa32,0,0,0,1,' p2.csv)"
run probe -q -o p3.csv "${sc[@]}" "$plat"
cmp -s p.csv p3.csv || fail "two runs differ"

# numa32 is weak: a timed store retires into the store buffer and costs a hit
run probe -q -o pw.csv "$plat"
[ "$rc" -eq 0 ] || fail "probe on the weak model exited $rc: $err"
awk -F, -v hit="$hitc" '$1 ~ /^store_inval_/ && $7 != hit { print; bad = 1 } END { exit bad }' pw.csv ||
    fail "weak numa32: a timed store should cost a hit ($hitc)"
# On tso a store is in transit while its upgrade runs: a ping-pong hand-off
# is that upgrade, then the miss of the reader, which waits for it
# (mem_access_at); on sc above, the reader sees the store as it issues
run probe -q -o pt.csv --set platform.memory_model=tso "$plat"
[ "$rc" -eq 0 ] || fail "probe on tso exited $rc: $err"
check=$(awk -F, -v hit="$hitc" -v atom="$(prop "$plat" atomic_cycles)" \
    -v mem="$(prop "$plat" mem_local_cycles)" -v c2c="$(prop "$plat" c2c_node_cycles)" \
    -v dirty="$(prop "$plat" remote_dirty_cycles)" -v inv="$(prop "$plat" inval_node_cycles)" \
    -v relax="$(prop "$plat" relax_cycles)" '
    FILENAME == "lat.csv" { if (FNR > 1) for (j = 2; j <= NF; j++) lat[$1, j - 2] = $j; next }
    $1 ~ /^pingpong_/ {
        a = $5; b = $6; n++
        t = a == b ? c2c + inv : mem + 2 * lat[a, b] + dirty
        t = 2 * (t + ($1 == "pingpong_cas" ? atom : 0))
        if ($7 < t || $7 > t + 2 * (hit + relax)) { printf "%s: want %s .. %s\n", $0, t, t + 2 * (hit + relax); nbad++ }
    }
    END { print (n == 272 ? nbad + 0 : "rows " n) }' lat.csv pt.csv)
[ "$(echo "$check" | tail -1)" = 0 ] || fail "tso numa32 ping-pong vs the model: $check"

# user errors: one line, exit 2, no output
# the cache probes: 8 pauses with and without ticks, the chase from 1 KiB in
# x2 steps with x1.5 midpoints to 4 times the last level (or 256 KiB)
[ "$(grep -c '^timer_ops_pause_[0-9]' p.csv)" -eq 8 ] && [ "$(grep -c '^timer_ops_pause_tick_' p.csv)" -eq 8 ] ||
    fail "pause rows: $(grep -c '^timer_ops_pause' p.csv)"
last=$(prop "$plat" l3_bytes)
last=$((${last:-65536} * 4))
grep -q '^chase_1024,' p.csv && grep -q '^chase_1536,' p.csv && grep -q "^chase_$last," p.csv &&
    ! grep -q "^chase_$((last * 4 / 3))," p.csv && ! grep -q "^chase_$((last * 2))," p.csv ||
    fail "chase rows (to $last): $(grep '^chase_' p.csv | cut -d, -f1 | tr '\n' ' ')"
run probe -q -o p4.csv "${sc[@]}" --pauses 0,50 --chase-max 4096 "$plat"
[ "$rc" -eq 0 ] && [ "$(grep -c '^timer_ops_pause' p4.csv)" -eq 4 ] && [ "$(grep -c '^chase_' p4.csv)" -eq 5 ] ||
    fail "--pauses 0,50 --chase-max 4096: exit $rc, rows $(grep -c -e '^timer_ops_pause' -e '^chase_' p4.csv)"
grep -v -e "^chase_" -e "^timer_ops_pause" p.csv >p-mem.csv
grep -v -e '^chase_' -e '^timer_ops_pause' p4.csv | cmp -s - p-mem.csv ||
    fail "--pauses/--chase-max changed the memory rows: $(grep -v -e "^chase_" -e "^timer_ops_pause" p4.csv | diff - p-mem.csv | head -8 | tr "\n" " ")"

for args in "nosuch.xml" "--reps 0 $plat" "--reps x $plat" "--set hit_cycles=3 $plat" \
    "--set platform.nosuch=3 $plat" "-o /nonexistent/dir/x.csv $plat" "$plat $plat" \
    "--pauses 10,5 $plat" "--pauses x $plat" "--chase-max 100 $plat" "--chase-max 1000000000 $plat" \
    "--hz -1 $plat"; do
    # shellcheck disable=SC2086
    run probe -o bad.csv $args
    check_user_error "probe $args" bad.csv
done
run probe --help
[ "$rc" -eq 0 ] && echo "$out" | grep -q 'usage: numasim probe' || fail "probe --help"

[ "$fails" -eq 0 ] && echo "probe.sh: all checks passed"
exit $((fails > 0))
