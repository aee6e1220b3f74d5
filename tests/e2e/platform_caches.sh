#!/bin/bash
# e2e: the cache levels, text_node and code sizes of the committed platform
# files (and of the generated fat32 and of this host's --from-host file) are
# present, sane and sourced: each level of the contract's rules (bytes a
# multiple of line_bytes x ways, sizes and scopes never shrinking going down,
# l1d under every other level, latencies growing), text_node a node of the
# machine, the eleven code units all given or none, every new value with a
# comment just above it, and every source key the comments name ([KEY])
# listed in docs/hardware-sources.md.
# Usage: platform_caches.sh NUMASIM_BINARY SOURCE_DIR
set -u

numasim=${1:?usage: platform_caches.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: platform_caches.sh NUMASIM_BINARY SOURCE_DIR}
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash"
absolute_paths
cd "$tmp" || exit 1

units="tick run_timers mod_timer del_timer try_to_del_timer_sync del_timer_sync_scan
    del_timer_sync_last_running del_singleshot_timer_sync del_timer_sync_naive
    del_timer_sync_shortcut del_timer_sync_base_tracking"
docs=$src/docs/hardware-sources.md

# check FILE: the rules above, one failure per broken rule
check() {
    local f=$1 name
    name=$(basename "$f")
    local line nodes
    line=$(prop "$f" line_bytes)
    nodes=$(grep -o 'numa_node" value="[0-9]*' "$f" | sort -u | wc -l)
    [ -n "$(prop "$f" l1d_bytes)" ] || { fail "$name: no l1d"; return; }
    local prev_bytes=0 prev_cycles=0 prev_scope=0 l
    for l in l1d l2 l3; do
        local b w c s
        b=$(prop "$f" "${l}_bytes") w=$(prop "$f" "${l}_ways") c=$(prop "$f" "${l}_cycles")
        s=$(prop "$f" "${l}_scope")
        [ -n "$b" ] || continue
        [ -n "$w" ] && [ -n "$c" ] && [ -n "$s" ] || { fail "$name: $l incomplete"; continue; }
        [ "$w" -ge 1 ] && [ $((b % (line * w))) -eq 0 ] ||
            fail "$name: ${l}_bytes $b is not a multiple of $line x $w"
        [ "$b" -ge "$prev_bytes" ] || fail "$name: $l ($b) smaller than the level above"
        awk -v c="$c" -v p="$prev_cycles" 'BEGIN { exit !(c > p) }' ||
            fail "$name: ${l}_cycles $c not above the level above ($prev_cycles)"
        local k
        case $s in cpu) k=0 ;; node) k=1 ;; package) k=2 ;; *) fail "$name: ${l}_scope '$s'"; k=9 ;; esac
        [ "$k" -ge "$prev_scope" ] || fail "$name: $l's scope $s narrows"
        prev_bytes=$b prev_cycles=$c prev_scope=$k
    done
    if [ -n "$(prop "$f" l1i_bytes)" ]; then
        local ib iw
        ib=$(prop "$f" l1i_bytes) iw=$(prop "$f" l1i_ways)
        [ -n "$(prop "$f" l2_bytes)" ] || fail "$name: l1i without l2"
        [ $((ib % (line * iw))) -eq 0 ] && [ "$ib" -le "$(prop "$f" l2_bytes)" ] ||
            fail "$name: l1i ($ib, $iw ways) does not fit"
    fi
    local tn
    tn=$(prop "$f" text_node)
    [ -n "$tn" ] && [ "$tn" -lt "$nodes" ] || fail "$name: text_node '$tn' is not one of $nodes nodes"
    local given=0 u
    for u in $units; do
        local v
        v=$(prop "$f" "code_${u}_bytes")
        [ -n "$v" ] || continue
        given=$((given + 1))
        [ "$v" -gt 0 ] && [ "$v" -lt 100000 ] || fail "$name: code_${u}_bytes = $v"
    done
    [ "$given" -eq 0 ] || [ "$given" -eq 11 ] || fail "$name: $given of the 11 code units"
    # every new prop has its comment just above it
    awk -v n="$name" '/<prop id="(l1i|l1d|l2|l3)_|<prop id="(text_node|code_)/ && prev !~ /-->$/ {
            print "FAIL: " n ": no source comment above: " $0; bad = 1 }
         { prev = $0 } END { exit bad }' "$f" >&2 || fail "$name: values without a source"
}

for p in smp4 numa32 epyc2s xeon2s graviton3 host; do
    check "$src/platforms/$p.xml"
    run platform "$src/platforms/$p.xml"
    [ "$rc" -eq 0 ] || fail "numasim platform $p.xml: exit $rc: $err"
done
run platform --generate --cpus 32 -o fat32.xml
[ "$rc" -eq 0 ] && check fat32.xml || fail "platform --generate --cpus 32: exit $rc: $err"
run platform --from-host -o host-now.xml
[ "$rc" -eq 0 ] && check host-now.xml || fail "platform --from-host: exit $rc: $err"
[ "$(prop "$src/platforms/graviton3.xml" code_tick_bytes)" = "" ] || fail "graviton3 has code sizes"

# the Itanium 2 files: the 1.5 GHz Madison
for p in smp4 numa32; do
    f=$src/platforms/$p.xml
    [ "$(prop "$f" clock_mhz)" = 1500 ] && [ "$(prop "$f" l3_bytes)" = 6291456 ] &&
        [ "$(prop "$f" l1d_bytes)" = 16384 ] && [ "$(prop "$f" l2_cycles)" = "$(prop "$f" hit_cycles)" ] ||
        fail "$p: not the 1.5 GHz Madison's hierarchy"
done

# every [KEY] a platform comment names is in the list of sources
keys=$(cat "$src"/platforms/{smp4,numa32,epyc2s,xeon2s,graviton3}.xml | grep -oE '\[[A-Z0-9][A-Z0-9, -]*\]' |
    tr -d '[]' | tr ',' '\n' | tr -d ' ' | sort -u)
for k in $keys; do
    grep -qF -- "- **[$k]**" "$docs" || fail "source [$k] is not in docs/hardware-sources.md's list"
done
grep -q '^## Caches' "$docs" || fail "docs/hardware-sources.md has no Caches section"

[ "$fails" -eq 0 ] && echo "platform_caches.sh: all checks passed"
exit $((fails > 0))
