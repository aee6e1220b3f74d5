#!/bin/bash
# e2e: `numasim platform --from-host`. (1) A synthetic 2-package, 4-node
# topology with a SLIT (tests/hwloc/two-socket-slit.xml, read through
# HWLOC_XMLFILE) gives one link class per distance (12 within a package, 21
# across) with the default latencies, and the node latency matrix that
# follows; with --probe, the costs and class latencies come from the probe.
# (2) Without a SLIT: one class within a package, one across. (3) The file
# written for this host and for the synthetic one agree with hwloc's own view
# (hwloc-calc): CPU count, node count, every CPU in its node. (4) User errors.
# (5) Cache levels: a synthetic topology with an instruction cache, a fully
# associative level, SMT pairs and a CCX-like L3 (tests/hwloc/ccx-caches.xml),
# with and without a probe's chase rows; a package-wide L3 over two nodes with
# unknown ways and a size to round; a level that breaks the rules. (6) Code
# sizes of numasim's own functions, checked against nm -S (and readelf for the
# static functions named by their file), and their instruction counts (one
# to bytes per unit, some against objdump of each function; an estimate
# without objdump); a stripped numasim leaves them out.
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
timer_overhead,x,0,0,0,0,42,21,42,9
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
for kv in hit_cycles=4 atomic_cycles=19 mem_local_cycles=300 c2c_node_cycles=150 inval_node_cycles=120 \
    core_clock_cycles=42; do
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

# --- (5) cache levels ---
ccx=$src/tests/hwloc/ccx-caches.xml
HWLOC_XMLFILE=$ccx run platform --from-host -o ccx.xml
[ "$rc" -eq 0 ] || die "--from-host on $ccx: exit $rc: $err"
for kv in l1i_bytes=32768 l1i_ways=256 l1i_scope=cpu l1d_bytes=32768 l1d_ways=8 l1d_scope=cpu \
    l2_bytes=524288 l2_ways=8 l2_scope=cpu l3_bytes=8388608 l3_ways=16 l3_scope=cpu text_node=0 \
    l1d_cycles=5 l2_cycles=19 l3_cycles=108; do
    [ "$(prop ccx.xml "${kv%=*}")" = "${kv#*=}" ] || fail "ccx: ${kv%=*} = $(prop ccx.xml "${kv%=*}"), want ${kv#*=}"
done
grep -q 'fully associative' ccx.xml || fail "ccx: no origin for the fully associative L1i"
grep -q 'shared by 4 of the node.s 8 CPUs' ccx.xml || fail "ccx: the CCX share is not explained"
grep -q 'SMT siblings' ccx.xml || fail "ccx: the SMT pair is not explained"
grep -q 'prop id="package"' ccx.xml && fail "ccx: package props without a package-wide level"
run platform ccx.xml
[ "$rc" -eq 0 ] || fail "numasim platform ccx.xml: exit $rc: $err"
# every prop of the zone has its origin comment just above it
origins() {
    awk '/^    <prop id=/ && $0 !~ /"tunable"/ && prev !~ /-->$/ { print "no origin: " $0; bad = 1 }
         { prev = $0 } END { exit bad }' "$1"
}
origins ccx.xml || fail "ccx.xml: a value without an origin comment"
origins ts.xml || fail "ts.xml: a value without an origin comment"
# hit latencies from the chase rows of a probe: the median of each plateau
{
    echo "probe,platform,from_cpu,to_cpu,from_node,to_node,median_cycles,p10_cycles,p90_cycles,reps"
    for kv in 1024=4 2048=4 4096=5 8192=5 16384=6 32768=9 65536=14 131072=16 262144=17 \
        524288=20 1048576=44 2097152=48 4194304=60 8388608=120 16777216=200 33554432=300; do
        echo "chase_${kv%=*},x,0,0,0,0,${kv#*=},${kv#*=},${kv#*=},9"
    done
} >chase.csv
HWLOC_XMLFILE=$ccx run platform --from-host --probe chase.csv -o ccxp.xml
[ "$rc" -eq 0 ] || fail "--probe chase.csv: exit $rc: $err"
# l1d (32 KiB): rows up to 16 KiB, median 5; l2 (above 32 KiB): 64-128 KiB,
# (14 + 16) / 2; l3 (above 512 KiB): 1-2 MiB, (44 + 48) / 2
for kv in l1d_cycles=5 l2_cycles=15 l3_cycles=46 l1i_cycles=1; do
    [ "$(prop ccxp.xml "${kv%=*}")" = "${kv#*=}" ] || fail "chase: ${kv%=*} = $(prop ccxp.xml "${kv%=*}"), want ${kv#*=}"
done
grep -q 'median of 2 same-node chase rows with a working set of 1.04858e+06 to 2.09715e+06' ccxp.xml ||
    fail "chase: no origin of l3_cycles"
# the last level's effective size: the rows beyond its 8 MiB (200, 300: memory
# 250) put the cut at sqrt(46 * 250) = 107; the 8 MiB row (120) is past it,
# so the CPUs get 4 MiB, the last row below. With the 8 MiB row on the
# plateau, hwloc's size stands.
[ "$(prop ccxp.xml l3_bytes)" = 4194304 ] || fail "chase: l3_bytes = $(prop ccxp.xml l3_bytes), want 4194304"
grep -q "this host's CPUs get 4194304 bytes" ccxp.xml || fail "chase: the effective L3 size is not explained"
sed 's/^chase_8388608,x,0,0,0,0,120,120,120,/chase_8388608,x,0,0,0,0,50,50,50,/' chase.csv >chase8.csv
HWLOC_XMLFILE=$ccx run platform --from-host --probe chase8.csv -o ccxp8.xml
[ "$rc" -eq 0 ] && [ "$(prop ccxp8.xml l3_bytes)" = 8388608 ] && ! grep -q "CPUs get" ccxp8.xml ||
    fail "chase with 8 MiB on the plateau: exit $rc, l3_bytes = $(prop ccxp8.xml l3_bytes), want 8388608"
# no chase row beyond the level (a guest whose CPUID claims a huge L3):
# memory's cost is the load_mem row's (250), the same cut, the same 4 MiB
{ grep -v '^chase_16777216\|^chase_33554432' chase.csv; echo "load_mem,x,0,0,0,0,250,250,250,9"; } >chasem.csv
HWLOC_XMLFILE=$ccx run platform --from-host --probe chasem.csv -o ccxpm.xml
[ "$rc" -eq 0 ] && [ "$(prop ccxpm.xml l3_bytes)" = 4194304 ] &&
    grep -q "memory's 250 (median of 1 load_mem row: no chase row beyond 8388608 bytes)" ccxpm.xml ||
    fail "chase without rows beyond the L3: exit $rc, l3_bytes = $(prop ccxpm.xml l3_bytes), want 4194304 from load_mem"
# a package-wide L3 over two nodes, ways unknown, a size to round down; and
# an L2 smaller than L1D (left out, and the L3 below it)
if command -v lstopo-no-graphics >/dev/null; then
    lstopo-no-graphics -i "pack:1 l3:1(size=3000000) group:2 [numa] l2:2(size=262144) l1d:1(size=16384) core:1 pu:1" \
        --of xml pkg.xml
    HWLOC_XMLFILE=pkg.xml run platform --from-host -o pkg-plat.xml
    [ "$rc" -eq 0 ] || fail "package L3: exit $rc: $err"
    for kv in l3_scope=package l3_ways=16 l3_bytes=2999296 l2_ways=8 l2_scope=cpu; do
        [ "$(prop pkg-plat.xml "${kv%=*}")" = "${kv#*=}" ] ||
            fail "package L3: ${kv%=*} = $(prop pkg-plat.xml "${kv%=*}"), want ${kv#*=}"
    done
    grep -q 'rounded down' pkg-plat.xml && grep -q 'does not know the associativity' pkg-plat.xml ||
        fail "package L3: rounding or default ways not explained"
    [ "$(grep -c '<prop id="package" value="0"/></host>' pkg-plat.xml)" -eq 4 ] ||
        fail "package L3: hosts without their package prop"
    origins pkg-plat.xml || fail "pkg-plat.xml: a value without an origin comment"
    lstopo-no-graphics -i "pack:1 [numa] l3:1(size=65536) l2:1(size=16384) l1d:2(size=32768) core:1 pu:1" \
        --of xml small.xml
    HWLOC_XMLFILE=small.xml run platform --from-host -o small-plat.xml
    [ "$rc" -eq 0 ] || fail "small L2: exit $rc: $err"
    [ "$(prop small-plat.xml l1d_bytes)" = 32768 ] && [ -z "$(prop small-plat.xml l2_bytes)" ] &&
        [ -z "$(prop small-plat.xml l3_bytes)" ] || fail "small L2: l2 or l3 kept, or l1d lost"
    [ "$(grep -c 'left out: it breaks the platform rules' small-plat.xml)" -eq 2 ] ||
        fail "small L2: the levels left out are not explained"
fi

# --- (6) code sizes: numasim's own functions, as nm -S sees them ---
# size of FN (or FILE.c:FN, a static function of that file) in $numasim,
# clones and parts (FN.cold, FN.isra.0) included
sym_size() {
    case $1 in
    *:*) readelf -sW "$numasim" | awk -v f="${1%%:*}" -v fn="${1#*:}" '
            $4 == "FILE" { file = $8; next }
            $4 == "FUNC" && $5 == "LOCAL" && file == f && ($8 == fn || index($8, fn ".") == 1) { s += $3 }
            END { print s + 0 }' ;;
    *) nm -S -t d "$numasim" | awk -v fn="$1" 'NF == 4 && $3 ~ /^[tTwW]$/ && ($4 == fn || index($4, fn ".") == 1) {
            s += $2 } END { print s + 0 }' ;;
    esac
}
units="tick run_timers mod_timer del_timer try_to_del_timer_sync del_timer_sync_scan
    del_timer_sync_last_running del_singleshot_timer_sync del_timer_sync_naive
    del_timer_sync_shortcut del_timer_sync_base_tracking tick61 run_timers61 mod_timer61
    del_timer61 try_to_del_timer_sync61 timer_delete_sync timer_delete_sync_rt
    timer_shutdown_sync"
if command -v nm >/dev/null && command -v readelf >/dev/null && command -v objdump >/dev/null; then
    for u in $units; do
        v=$(prop ccx.xml "code_${u}_bytes")
        [ -n "$v" ] && [ "$v" -gt 0 ] || { fail "code_${u}_bytes: '$v'"; continue; }
        fns=$(grep -B1 "<prop id=\"code_${u}_bytes\"" ccx.xml | sed -n 's/.*numasim binary: \([^ ]*\) (nm -S).*/\1/p')
        [ -n "$fns" ] || { fail "code_${u}_bytes: no function list in its comment"; continue; }
        want=0
        for fn in ${fns//+/ }; do
            s=$(sym_size "$fn")
            [ "$s" -gt 0 ] || fail "code_${u}_bytes: $fn has no size in nm/readelf"
            want=$((want + s))
        done
        [ "$v" -eq "$want" ] || fail "code_${u}_bytes = $v, nm -S gives $want ($fns)"
    done
    # the scan's unit is its own body: del_timer is not in it
    grep -B1 '"code_del_timer_sync_scan_bytes"' ccx.xml | grep -q 'del_timer+' &&
        fail "del_timer counted in the scan's unit"
    # instruction counts: each unit with bytes has 1 to bytes instructions,
    # just after its bytes, with their origin; the average over the units
    insns_ok() {
        awk '/<prop id="code_[a-z0-9_]*_bytes"/ { if (want) { print unit "_bytes not followed by its _insns"; bad = 1 }
                 split($0, q, "\""); unit = q[2]; sub(/_bytes$/, "", unit)
                 bytes = q[4] + 0; want = 1; next }
             want && /<!--/ { next }
             want { split($0, q, "\""); want = 0
                 if (q[2] != unit "_insns") { print unit "_bytes not followed by " unit "_insns"; bad = 1 }
                 else if (bytes > 0 && (q[4] < 1 || q[4] > bytes)) { print q[2] " = " q[4] " for " bytes " bytes"; bad = 1 } }
             END { if (want) { print unit "_bytes not followed by its _insns"; bad = 1 }; exit bad }' "$1"
    }
    for f in ccx.xml host.xml; do
        insns_ok "$f" || fail "$f: code_UNIT_insns missing or out of range"
        [ "$(grep -c '<prop id="code_[a-z0-9_]*_insns"' "$f")" -eq "$(grep -c '<prop id="code_[a-z0-9_]*_bytes"' "$f")" ] ||
            fail "$f: not one code_UNIT_insns per code_UNIT_bytes"
        grep -q 'code units: [0-9]* bytes in [0-9]* instructions (objdump -d of this binary), [0-9.]* bytes per instruction' "$f" ||
            fail "$f: no average bytes per instruction"
    done
    # the count of units made of global functions only, against objdump of each symbol
    insns_of() {
        nm -S "$numasim" | awk -v fn="$1" 'NF == 4 && $3 ~ /^[tTwW]$/ && ($4 == fn || index($4, fn ".") == 1) { print $1, $2 }' |
            while read -r a s; do
                objdump -d --no-show-raw-insn --start-address=0x"$a" --stop-address="$(printf 0x%x $((0x$a + 0x$s)))" "$numasim"
            done | grep -cE '^[[:space:]]+[0-9a-f]+:'$'\t'
    }
    for kv in del_singleshot_timer_sync=del_singleshot_timer_sync del_timer_sync_naive=del_timer_sync_naive \
        timer_delete_sync=timer_delete_sync+timer61_delete_sync; do
        want=0
        fns=${kv#*=}
        for fn in ${fns//+/ }; do want=$((want + $(insns_of "$fn"))); done
        v=$(prop ccx.xml "code_${kv%=*}_insns")
        [ "$v" = "$want" ] || fail "code_${kv%=*}_insns = $v, objdump of each function gives $want"
    done
    # no objdump: an estimate, bytes / 4 rounded up, said so
    HWLOC_XMLFILE=$ccx PATH=/nonexistent "$numasim" platform --from-host -o noobj.xml 2>noobj.err
    src_rc=$?
    [ "$src_rc" -eq 0 ] || fail "no objdump: exit $src_rc: $(cat noobj.err)"
    insns_ok noobj.xml || fail "no objdump: code_UNIT_insns missing or out of range"
    b=$(prop noobj.xml code_tick_bytes)
    [ "$(prop noobj.xml code_tick_insns)" = $(((b + 3) / 4)) ] ||
        fail "no objdump: code_tick_insns = $(prop noobj.xml code_tick_insns), want ($b + 3) / 4"
    grep -q 'estimate, objdump unavailable' noobj.xml || fail "no objdump: the estimate is not said"
    origins noobj.xml || fail "noobj.xml: a value without an origin comment"
    # a stripped numasim: no code sizes, said so, still a valid file
    strip -o numasim-stripped "$numasim"
    HWLOC_XMLFILE=$ccx ./numasim-stripped platform --from-host -o stripped.xml 2>stripped.err
    src_rc=$?
    [ "$src_rc" -eq 0 ] || fail "stripped numasim: exit $src_rc: $(cat stripped.err)"
    grep -q '<prop id="code_' stripped.xml && fail "stripped numasim wrote code sizes"
    grep -q 'code sizes left out (no code fetched): .*no symbol table' stripped.xml ||
        fail "stripped numasim: no comment on the missing code sizes"
    [ "$(prop stripped.xml l1d_bytes)" = 32768 ] || fail "stripped numasim: no cache levels"
else
    fail "nm, readelf or objdump missing (package binutils, from build-essential in scripts/setup)"
fi

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
