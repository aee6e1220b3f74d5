#!/bin/bash
# e2e: cache levels, code and footprints in a platform file.
#   - bad values (a size that is not a multiple of line x ways, zero ways, a
#     level smaller than the one above, an unknown scope, a missing latency,
#     a text node that does not exist) are one-line errors with the prop's
#     line, exit 2;
#   - `numasim platform` prints the hierarchy;
#   - paper-table runs on it: the new anatomy columns add up (hits by level
#     = hits; the cycle columns with code_cycles = mean_cycles), a cold call
#     fetches its code, a footprint evicts, and both schedulers agree.
# Usage: caches_nosan.sh NUMASIM_BINARY SOURCE_DIR
set -u
numasim=${1:?usage: caches_nosan.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: caches_nosan.sh NUMASIM_BINARY SOURCE_DIR}
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash"

# numa32 without any cache property, then with the given ones after line_bytes.
base=$tmp/base.xml
grep -vE '<prop id="(l1i|l1d|l2|l3)_|<prop id="code_|<prop id="text_node"|_footprint_lines"|_per_mcycle"' \
    "$src/platforms/numa32.xml" >"$base"
with() { # OUT PROPS...
    local out=$1 props=
    shift
    for p in "$@"; do props+="    <prop id=\"${p%%=*}\" value=\"${p#*=}\"/>\n"; done
    sed "s|^\(.*<prop id=\"line_bytes\".*\)$|\1\n${props%\\n}|" "$base" >"$out"
}
levels=(l1i_bytes=16384 l1i_ways=4 l1i_cycles=1 l1d_bytes=16384 l1d_ways=4 l1d_cycles=2
        l2_bytes=262144 l2_ways=8 l2_cycles=6 l3_bytes=3145728 l3_ways=12 l3_cycles=14)

# --- bad values ---
bad() { # WHAT PROP-THAT-IS-WRONG PROPS...
    local what=$1 wrong=$2
    shift 2
    with "$tmp/bad.xml" "$@"
    run platform "$tmp/bad.xml"
    check_user_error "$what"
    local line
    line=$(grep -n "<prop id=\"$wrong\"" "$tmp/bad.xml" | head -1 | cut -d: -f1)
    [[ "$err" == "$tmp/bad.xml:$line: "* ]] || fail "$what: expected '$tmp/bad.xml:$line: ...', got: $err"
}
bad "size not a multiple of the line" l2_bytes "${levels[@]/l2_bytes=262144/l2_bytes=262100}"
bad "zero ways" l1d_ways "${levels[@]/l1d_ways=4/l1d_ways=0}"
bad "a level smaller than the one above" l2_bytes "${levels[@]/l2_bytes=262144/l2_bytes=8192}"
bad "an unknown scope" l3_scope "${levels[@]}" l3_scope=socket
bad "no latency" l2_bytes l1d_bytes=16384 l1d_ways=4 l1d_cycles=2 l2_bytes=262144 l2_ways=8
bad "l3 without l2" l3_bytes l1d_bytes=16384 l1d_ways=4 l1d_cycles=2 l3_bytes=3145728 l3_ways=12 l3_cycles=14
bad "a text node that does not exist" text_node "${levels[@]}" text_node=16
bad "a negative footprint" tick_footprint_lines "${levels[@]}" tick_footprint_lines=-3
bad "a write-through flag that is not 0 or 1" l1d_write_through "${levels[@]}" l1d_write_through=2
bad "an unknown noise scope" noise_scope "${levels[@]}" noise_scope=node
bad "an inclusion flag that is not 0 or 1" last_level_inclusive "${levels[@]}" last_level_inclusive=0.5
bad "a non-inclusive last level with nothing above" last_level_inclusive l1d_bytes=16384 l1d_ways=4 l1d_cycles=2 last_level_inclusive=0
bad "a code size that is no number" code_mod_timer_bytes "${levels[@]}" code_mod_timer_bytes=big
tlbs=(dtlb1_entries=32 dtlb2_entries=128 dtlb2_ways=4 dtlb2_cycles=4 walk_cycles=15)
bad "TLB entries not a multiple of its ways" dtlb2_entries "${levels[@]}" "${tlbs[@]/dtlb2_ways=4/dtlb2_ways=5}"
bad "zero TLB entries" dtlb1_entries "${levels[@]}" "${tlbs[@]/dtlb1_entries=32/dtlb1_entries=0}"
bad "a second-level TLB without a first" itlb2_entries "${levels[@]}" "${tlbs[@]}" itlb2_entries=128
bad "a TLB without cache levels" dtlb1_entries dtlb1_entries=32
bad "a page size that is no power of two" page_bytes "${levels[@]}" "${tlbs[@]}" page_bytes=5000
bad "a page size without a TLB" page_bytes "${levels[@]}" page_bytes=4096
bad "a footprint density without cache levels" footprint_lines_per_page footprint_lines_per_page=4
bad "a footprint density of 0 lines a page" footprint_lines_per_page "${levels[@]}" "${tlbs[@]}" footprint_lines_per_page=0
bad "a footprint denser than a page" footprint_lines_per_page "${levels[@]}" "${tlbs[@]}" footprint_lines_per_page=33
bad "a negative walk" walk_cycles "${levels[@]}" "${tlbs[@]/walk_cycles=15/walk_cycles=-1}"
bad "six page-table levels" walk_levels "${levels[@]}" "${tlbs[@]}" walk_levels=6
bad "no page-table level" walk_levels "${levels[@]}" "${tlbs[@]}" walk_levels=0
bad "page-table levels without a TLB" walk_levels "${levels[@]}" walk_levels=4

# --- the hierarchy, printed ---
code=(code_tick_bytes=1024 code_run_timers_bytes=896 code_mod_timer_bytes=640 code_del_timer_bytes=384
      code_try_to_del_timer_sync_bytes=384 code_del_timer_sync_scan_bytes=512
      code_del_timer_sync_last_running_bytes=512 code_del_singleshot_timer_sync_bytes=512
      code_del_timer_sync_naive_bytes=512 code_del_timer_sync_base_tracking_bytes=256)
with "$tmp/c.xml" "${levels[@]}" "${code[@]}" text_node=3
run platform "$tmp/c.xml"
[ "$rc" -eq 0 ] || die "platform with caches exited $rc: $err"
grep -qE '^  l3 +3145728 bytes, +12 ways, +2048 sets, 14 cycles, per cpu' <<<"$out" ||
    fail "no l3 line in: $(grep -A6 '^caches' <<<"$out")"
grep -q 'kernel text on node 3' <<<"$out" || fail "text_node not printed"

# --- paper-table on it ---
sets=(--set measure.calls=30 --set measure.warmup_calls=2 --set "scenario.platforms=$tmp/c.xml")
run run -q -o "$tmp/pt.csv" "${sets[@]}" --set measure.cold_flush=all "$src/scenarios/paper-table.ini"
[ "$rc" -eq 0 ] || die "run on the cache platform exited $rc: $err"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    function v(k) { return $(c[k]) }
    { id = v("strategy") "/" v("cache")
      s = v("hits_cycles") + v("upgrades_cycles") + v("miss_local_cycles") + v("miss_remote_cycles") \
          + v("c2c_node_cycles") + v("c2c_remote_cycles") + v("relax_cycles") + v("work_cycles") \
          + v("code_cycles") + v("issue_cycles") - v("hidden_cycles")
      if (s - v("mean_cycles") > 0.1 || v("mean_cycles") - s > 0.1) print id ": cycle columns add to " s ", mean " v("mean_cycles")
      h = v("hit_l1") + v("hit_l2") + v("hit_l3")
      if (h - v("hits") > 0.03 || v("hits") - h > 0.03) print id ": hits by level " h " != hits " v("hits")
      if (v("code_lines") <= 0) print id ": no code fetched"
      if (v("cache") == "cold" && v("code_remote") <= 0) print id ": a cold call on CPU 0 fetched no code from node 3"
      if (v("cache") == "warm" && v("code_misses") > 0.5) print id ": warm calls miss their code (" v("code_misses") ")" }' \
    "$tmp/pt.csv" >"$tmp/bad-rows"
[ ! -s "$tmp/bad-rows" ] || fail "paper-table on the cache platform: $(cat "$tmp/bad-rows")"

# the default cold flush empties the data only: the code stays cached
run run -q -o "$tmp/data.csv" "${sets[@]}" --set scenario.cache=cold "$src/scenarios/paper-table.ini"
[ "$rc" -eq 0 ] || die "run with cold_flush=data exited $rc: $err"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $(c["code_misses"]) > 0.5 { print $(c["strategy"]) ": " $(c["code_misses"]) " code misses" }' \
    "$tmp/data.csv" >"$tmp/bad-rows"
[ ! -s "$tmp/bad-rows" ] || fail "cold_flush=data refetched code: $(cat "$tmp/bad-rows")"

# a tick footprint larger than the caches evicts the caller's lines between calls
with "$tmp/f.xml" "${levels[@]}" "${code[@]}" tick_footprint_lines=30000
run run -q -o "$tmp/f.csv" "${sets[@]/$tmp\/c.xml/$tmp/f.xml}" --set scenario.strategies=base_tracking \
    --set scenario.cache=warm "$src/scenarios/paper-table.ini"
[ "$rc" -eq 0 ] || die "run with a footprint exited $rc: $err"
ev=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $(c["code_misses"]) }' "$tmp/f.csv" | head -1)
awk -v e="$ev" 'BEGIN { exit !(e > 1) }' || fail "a 30000-line tick footprint left the code warm (code_misses $ev)"

# the reference scheduler gives the same CSV as the baton: race-rearm, 8 calls
schedulers_agree() { # PLATFORM.xml NAME: writes $tmp/baton-NAME.csv
    local small=(--set measure.calls=8 --set measure.warmup_calls=1 --set "scenario.platforms=$1")
    run run -q -o "$tmp/baton-$2.csv" "${small[@]}" "$src/scenarios/race-rearm.ini"
    [ "$rc" -eq 0 ] || die "race-rearm on the $2 platform exited $rc: $err"
    NUMASIM_SCHEDULER=yield "$numasim" run -q -o "$tmp/yield-$2.csv" "${small[@]}" \
        "$src/scenarios/race-rearm.ini" || fail "race-rearm with the reference scheduler failed ($2)"
    cmp -s "$tmp/baton-$2.csv" "$tmp/yield-$2.csv" || fail "the two schedulers differ on the $2 platform"
}
# on a hierarchy with a shared level
with "$tmp/s.xml" "${levels[@]}" l3_scope=node "${code[@]}" tick_footprint_lines=40
schedulers_agree "$tmp/s.xml" shared-l3
# and with TLBs small enough that the run walks (4 entries, 256-byte pages)
with "$tmp/t.xml" "${levels[@]}" l3_scope=node "${code[@]}" tick_footprint_lines=40 \
    dtlb1_entries=4 itlb1_entries=2 dtlb2_entries=16 dtlb2_ways=4 dtlb2_cycles=4 walk_cycles=15 page_bytes=256
run platform "$tmp/t.xml"
grep -qE '^  dtlb2 +16 entries, +4 ways, 4 cycles' <<<"$out" || fail "no dtlb2 line in: $out"
schedulers_agree "$tmp/t.xml" tlb
cmp -s "$tmp/baton-shared-l3.csv" "$tmp/baton-tlb.csv" && fail "TLBs that walk changed nothing in race-rearm"

if [ "$fails" -ne 0 ]; then
    echo "e2e caches: $fails check(s) failed" >&2
    exit 1
fi
echo "e2e caches: all checks passed"
