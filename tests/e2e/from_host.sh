#!/bin/bash
# e2e: `numasim platform --from-host`. (1) A synthetic 2-package, 4-node
# topology with a SLIT (tests/hwloc/two-socket-slit.xml, read through
# HWLOC_XMLFILE) gives one link class per distance (12 within a package, 21
# across) with the default latencies, and the node latency matrix that
# follows; with --probe, the costs and class latencies come from the probe.
# (2) Without a SLIT: one class within a package, one across. (3) The file
# written for this host and for the synthetic one agree with hwloc's own view
# (hwloc-calc): CPU count, node count, every CPU in its node. (4) User errors.
# Usage: from_host.sh NUMASIM_BINARY SOURCE_DIR
set -u

numasim=${1:?usage: from_host.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: from_host.sh NUMASIM_BINARY SOURCE_DIR}
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash"
absolute_paths
cd "$tmp" || exit 1
unset HWLOC_XMLFILE
topo=$src/tests/hwloc/two-socket-slit.xml

# one-way latency of the links of a class (all equal), or "mixed"
class_lat() { grep "value=\"$2\"/></link>" "$1" | sed 's/.*latency="\([^"]*\)s".*/\1/' | sort -u | tr '\n' ' '; }

# --- (1) synthetic topology with a SLIT ---
HWLOC_XMLFILE=$topo run platform --from-host -o ts.xml
[ "$rc" -eq 0 ] || die "--from-host on $topo: exit $rc: $err"
[ "$(prop ts.xml tunable)" = "mem_local_cycles,c2c_node_cycles,link.slit12,link.slit21" ] ||
    fail "tunable: $(prop ts.xml tunable)"
mem=$(prop ts.xml mem_local_cycles)
want12=$(awk -v m="$mem" 'BEGIN { print m * 2 / 20 }')
want21=$(awk -v m="$mem" 'BEGIN { print m * 11 / 20 }')
[ "$(class_lat ts.xml slit12)" = "$want12 " ] || fail "slit12 latency: $(class_lat ts.xml slit12), want $want12"
[ "$(class_lat ts.xml slit21)" = "$want21 " ] || fail "slit21 latency: $(class_lat ts.xml slit21), want $want21"
[ "$(grep -c 'value="slit12"' ts.xml)" -eq 2 ] && [ "$(grep -c 'value="slit21"' ts.xml)" -eq 4 ] ||
    fail "link counts per class"
run platform --csv ts.xml
[ "$rc" -eq 0 ] || fail "numasim platform ts.xml: exit $rc: $err"
r12=$(awk -v w="$want12" 'BEGIN { print 2 * w }')
r21=$(awk -v w="$want21" 'BEGIN { print 2 * w }')
expect="node,0,1,2,3
0,0,$r12,$r21,$r21
1,$r12,0,$r21,$r21
2,$r21,$r21,0,$r12
3,$r21,$r21,$r12,0"
[ "$out" = "$expect" ] || fail "node latency matrix:
$out
want:
$expect"
# every value has an origin comment
awk '/<prop id="(clock_mhz|line_bytes|[a-z_]*_cycles)"/ && prev !~ /<!--/ { print "no origin: " $0; bad = 1 }
     { prev = $0 } END { exit bad }' ts.xml || fail "a value without an origin comment"

# with a probe: costs and class latencies from it
cat >probe.csv <<'P'
probe,platform,from_cpu,to_cpu,from_node,to_node,median_cycles,p10_cycles,p90_cycles,reps
hit,x,0,0,0,0,4,4,4,9
atomic_held,x,0,0,0,0,19,19,19,9
load_mem,x,0,0,0,0,300,300,300,9
load_mem,x,8,8,1,1,300,300,300,9
load_mem,x,0,0,0,1,380,380,380,9
load_mem,x,0,0,0,2,700,700,700,9
load_mem,x,0,0,0,3,710,710,710,9
load_dirty,x,0,1,0,0,150,150,150,9
store_inval_1,x,0,1,0,0,120,120,120,9
P
HWLOC_XMLFILE=$topo run platform --from-host --probe probe.csv --name twosock -o tp.xml
[ "$rc" -eq 0 ] || fail "--probe: exit $rc: $err"
for kv in hit_cycles=4 atomic_cycles=19 mem_local_cycles=300 c2c_node_cycles=150 inval_node_cycles=120; do
    [ "$(prop tp.xml "${kv%=*}")" = "${kv#*=}" ] || fail "--probe: ${kv%=*} = $(prop tp.xml "${kv%=*}"), want ${kv#*=}"
done
[ "$(class_lat tp.xml slit12)" = "40 " ] || fail "--probe slit12: $(class_lat tp.xml slit12), want 40"
[ "$(class_lat tp.xml slit21)" = "202.5 " ] || fail "--probe slit21: $(class_lat tp.xml slit21), want 202.5"
grep -q 'zone id="twosock"' tp.xml || fail "--name"
grep -q '<!-- probe probe.csv' tp.xml || fail "no probe origin comment"

# --- (2) no SLIT: one class per package boundary ---
if command -v lstopo-no-graphics >/dev/null; then
    lstopo-no-graphics -i "pack:2 group:2 [numa] core:2 pu:1" --of xml nos.xml
    HWLOC_XMLFILE=nos.xml run platform --from-host -o nos-plat.xml
    [ "$rc" -eq 0 ] || fail "no SLIT: exit $rc: $err"
    [ "$(prop nos-plat.xml tunable)" = "mem_local_cycles,c2c_node_cycles,link.package,link.xpackage" ] ||
        fail "no SLIT tunable: $(prop nos-plat.xml tunable)"
    w20=$(awk -v m="$(prop nos-plat.xml mem_local_cycles)" 'BEGIN { print m * 10 / 20 }')
    [ "$(class_lat nos-plat.xml package)" = "$w20 " ] && [ "$(class_lat nos-plat.xml xpackage)" = "$w20 " ] ||
        fail "no SLIT latencies: $(class_lat nos-plat.xml package) / $(class_lat nos-plat.xml xpackage)"
else
    fail "lstopo-no-graphics missing (package hwloc, see scripts/setup)"
fi

# --- (3) against hwloc's own view ---
# compare PLATFORM [hwloc-calc input args...]
compare() {
    local plat=$1
    shift
    local npu nnuma
    npu=$(hwloc-calc "$@" --number-of pu all)
    [ "$(grep -c '<host ' "$plat")" -eq "$npu" ] || fail "$plat: $(grep -c '<host ' "$plat") CPUs, hwloc says $npu"
    nnuma=$(hwloc-calc "$@" --number-of numa all)
    [ "$nnuma" -ge 1 ] || nnuma=1
    local k=0 i
    for ((i = 0; i < nnuma; i++)); do
        local pus
        pus=$(hwloc-calc "$@" --intersect pu "numa:$i" | tr ',' ' ')
        [ -n "$pus" ] || continue
        for p in $pus; do
            grep -q "<host id=\"cpu$p\" speed=\"1f\"><prop id=\"numa_node\" value=\"$k\"/>" "$plat" ||
                fail "$plat: cpu$p is not in node $k as hwloc says (NUMA node $i)"
        done
        k=$((k + 1))
    done
    [ "$(grep -c '<router id="node' "$plat")" -eq "$k" ] || fail "$plat: node count is not hwloc's $k"
}
run platform --from-host -o host.xml
[ "$rc" -eq 0 ] || fail "--from-host on this host: exit $rc: $err"
compare host.xml
run platform host.xml
[ "$rc" -eq 0 ] || fail "numasim platform host.xml: exit $rc: $err"
compare ts.xml --input "$topo"

# --- (4) errors: one line, exit 2, no file ---
echo "probe,x" >badprobe.csv
for args in "--probe nosuch.csv" "--probe badprobe.csv" "--name a/b" "stray" "-o /nonexistent/d/x.xml"; do
    # shellcheck disable=SC2086
    run platform --from-host -o bad.xml $args
    check_user_error "--from-host $args" bad.xml
done
echo junk >junk.xml
HWLOC_XMLFILE=junk.xml run platform --from-host -o bad.xml
[ "$rc" -eq 2 ] && [ ! -e bad.xml ] || fail "unreadable HWLOC_XMLFILE: exit $rc ($err)"
run platform --from-host --help
[ "$rc" -eq 0 ] && echo "$out" | grep -q 'from-host' || fail "--from-host --help"

[ "$fails" -eq 0 ] && echo "from_host.sh: all checks passed"
exit $((fails > 0))
