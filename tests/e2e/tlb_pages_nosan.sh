#!/bin/bash
# e2e: the simulated `pages_N` probe reproduces the TLBs of the platform that
# made it (issue 18): on platforms/host.xml with TLBs added (a 64-entry
# first level, a 1,024-entry 8-way second level at 5 cycles, walks of 40),
# the staircase of a chase through N pages, one line in each, has its
# first step where the first level ends and its second where the second
# level ends (the last flat N within one x2 step below the entries, the
# first higher N within one above), its second tread at the lines' cost
# plus dtlb2_cycles (within 5%), and its walk tread, past twice the second
# level, at the lines' cost plus walk_cycles plus the page-table line's
# read, between an l1d and an l2 hit (within 5%). A platform without TLBs
# has no pages_N row. Also: numasim platform --from-host writes CPUID's TLBs
# on an x86 host that has them, each with its source, a first level that
# the probe's rows show smaller (a step before CPUID's entries) gets the
# effective entries, and so does a second level that they show larger (no
# walk past CPUID's entries). With --tlbs rows (as where CPUID names no
# TLB) the rows alone give both levels' entries.
# Usage: tlb_pages_nosan.sh NUMASIM_BINARY SOURCE_DIR
set -u

numasim=${1:?usage: tlb_pages_nosan.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: tlb_pages_nosan.sh NUMASIM_BINARY SOURCE_DIR}
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash"
absolute_paths
cd "$tmp" || exit 1

d1=64 d2=1024 c2=5 walk=40
sed "s|^\(.*<prop id=\"line_bytes\".*\)$|\1\n    <prop id=\"dtlb1_entries\" value=\"$d1\"/>\n    <prop id=\"dtlb2_entries\" value=\"$d2\"/>\n    <prop id=\"dtlb2_ways\" value=\"8\"/>\n    <prop id=\"dtlb2_cycles\" value=\"$c2\"/>\n    <prop id=\"walk_cycles\" value=\"$walk\"/>|" \
    "$src/platforms/host.xml" >tlb.xml
run probe -q --reps 3 --chase-max $((17 << 20)) -o tlb.csv tlb.xml
[ "$rc" -eq 0 ] || die "probe on the TLB platform exited $rc: $err"
l1=$(prop tlb.xml l1d_cycles) l2=$(prop tlb.xml l2_cycles) insn=$(prop tlb.xml insn_cycles)
res=$(awk -F, -v d1="$d1" -v d2="$d2" -v c2="$c2" -v walk="$walk" -v l1="$l1" -v l2="$l2" -v insn="$insn" '
    function r(x) { return int(x + 0.5) }
    function near(a, b) { return a <= b * 1.05 && a >= b * 0.95 }
    $1 ~ /^pages_[0-9]+$/ { n = substr($1, 7) + 0; v[n] = $7; ns[++k] = n }
    END {
        if (k < 10) { print "only " k " pages_N rows"; exit }
        base = v[8]
        if (!near(base, r(l1) + r(insn))) print "pages_8 costs " base ", not l1d + insn = " r(l1) + r(insn)
        # first step: the last flat row and the first one above
        last = 0; first = 0
        for (i = 1; i <= k; i++) { n = ns[i]; if (v[n] <= base * 1.05) last = n; else if (!first) first = n }
        if (!(last * 2 >= d1 && last <= d1 && first > d1 && first <= 2 * d1))
            print "first step between " last " and " first " pages, not at " d1
        # second tread: past the first level, lines in l1d
        t2 = v[2 * d1]
        if (!near(t2, base + c2)) print "pages_" 2 * d1 " costs " t2 ", not " base " + dtlb2_cycles " c2
        # second step: around the midpoint of the l2 tread and a walk
        cut = (r(l2) + r(insn) + c2 + r(l2) + r(insn) + walk + r(l1)) / 2
        last = 0; first = 0
        for (i = 1; i <= k; i++) { n = ns[i]; if (v[n] < cut) last = n; else if (!first) first = n }
        if (!(last * 2 >= d2 && last <= d2 && first > d2 && first <= 2 * d2))
            print "second step between " last " and " first " pages, not at " d2
        # the walk tread: lines in l2, the page-table line in l1d or l2
        lo = r(l2) + r(insn) + walk + r(l1); hi = r(l2) + r(insn) + walk + r(l2); seen = 0
        for (i = 1; i <= k; i++) { n = ns[i]; if (n < 2 * d2) continue; seen++
            if (v[n] < lo * 0.95 || v[n] > hi * 1.05) print "pages_" n " costs " v[n] ", not within " lo "-" hi }
        if (!seen) print "no pages_N row past twice the second level"
    }' tlb.csv)
[ -z "$res" ] || fail "TLB staircase: $res"

# without TLBs, no pages_N row
run probe -q --reps 3 --chase-max 65536 -o none.csv "$src/platforms/host.xml"
[ "$rc" -eq 0 ] || fail "probe on host.xml exited $rc: $err"
! grep -q '^pages_' none.csv || fail "pages_N rows on a platform without TLBs"

# --from-host: CPUID's TLBs, each with its source, on an x86 host that has them
if grep -qE '^vendor_id\s*:\s*(AuthenticAMD|GenuineIntel)' /proc/cpuinfo 2>/dev/null; then
    run platform --from-host -o fh.xml
    [ "$rc" -eq 0 ] || fail "platform --from-host exited $rc: $err"
    if grep -q 'dtlb1_entries' fh.xml; then
        awk '/<prop id="(dtlb|itlb|page_bytes|walk_cycles)/ && prev !~ /-->$/ && prev !~ /entries"/ {
                print "no source above: " $0; bad = 1 } { prev = $0 } END { exit bad }' fh.xml >&2 ||
            fail "--from-host: TLB values without a source"
        run platform fh.xml
        [ "$rc" -eq 0 ] && grep -q '^  dtlb1 ' <<<"$out" || fail "--from-host's TLBs do not load: $err"
        # the first level's effective entries: rows that step at 48 pages
        cpuid1=$(prop fh.xml dtlb1_entries)
        if [ "$cpuid1" -gt 48 ]; then
            { head -1 "$src/results/probe-host.csv"
              for n in 8 12 16 24 32; do echo "pages_$n,host,0,0,0,0,5,5,5,9"; done
              for n in 48 64 96 128 192 256; do echo "pages_$n,host,0,0,0,0,9,9,9,9"; done; } >steps.csv
            run platform --from-host --probe steps.csv -o fe.xml
            [ "$rc" -eq 0 ] || fail "platform --from-host --probe steps.csv exited $rc: $err"
            [ "$(prop fe.xml dtlb1_entries)" = 32 ] ||
                fail "rows stepping at 48 pages gave dtlb1_entries $(prop fe.xml dtlb1_entries), not 32"
            [ "$(prop fe.xml dtlb2_cycles)" = 4 ] || fail "dtlb2_cycles $(prop fe.xml dtlb2_cycles), not 9 - 5"
            grep -q 'so this CPU gets 32 of them' fe.xml || fail "no comment on the effective dtlb1"
        fi
        # the second level's effective entries: rows that, less the chase
        # rows of as many lines, show no walk up to 4x CPUID's entries and
        # a walk at 8x hold 4x (CPUID's may be fewer than the hardware's)
        cpuid2=$(prop fh.xml dtlb2_entries)
        if [ -n "$cpuid2" ]; then
            { head -1 "$src/results/probe-host.csv"
              for n in 8 16 32; do echo "pages_$n,host,0,0,0,0,5,5,5,9"; done
              for m in 4 8 16 32; do echo "pages_$((cpuid2 * m / 8)),host,0,0,0,0,9,9,9,9"; done
              echo "pages_$((cpuid2 * 8)),host,0,0,0,0,40,40,40,9"
              for n in 8 16 32; do echo "chase_$((n * 64)),host,0,0,0,0,5,5,5,9"; done
              for m in 4 8 16 32 64; do echo "chase_$((cpuid2 * m * 8)),host,0,0,0,0,5,5,5,9"; done; } >steps2.csv
            run platform --from-host --probe steps2.csv -o f2.xml
            [ "$rc" -eq 0 ] || fail "platform --from-host --probe steps2.csv exited $rc: $err"
            [ "$(prop f2.xml dtlb2_entries)" = $((cpuid2 * 4)) ] ||
                fail "no walk up to $((cpuid2 * 4)) pages gave dtlb2_entries $(prop f2.xml dtlb2_entries), not $((cpuid2 * 4))"
            grep -q "step up by a walk at $((cpuid2 * 8)) pages, so this CPU gets $((cpuid2 * 4)) of them" f2.xml ||
                fail "no comment on the effective dtlb2"
            [ "$(prop f2.xml walk_cycles)" = 31 ] || fail "walk_cycles $(prop f2.xml walk_cycles), not 40 - 9"
        fi
    else
        echo "note: CPUID of this host gives no TLB ($(grep -o 'TLBs: none[^>]*' fh.xml))"
    fi
fi

# --tlbs rows (and a CPUID that names no TLB): the entries from the rows
# alone, on a saved topology (CPUID is not read): rows that, less the chase
# rows of as many lines (5 cycles), pay 0 up to 64 pages, 4 up to 1,536, 15
# at 2,048 (a level just past its end misses in a few sets) and 35 from
# 3,072 give a 64-entry first level, a 2,048-entry second (the last row
# below the treads' midpoint), dtlb2_cycles 4 and walk_cycles 31.
{ head -1 "$src/results/probe-host.csv"
  for n in 8 12 16 24 32 48 64; do echo "pages_$n,host,0,0,0,0,5,5,5,9"; done
  for n in 96 128 192 256 384 512 768 1024 1536; do echo "pages_$n,host,0,0,0,0,9,9,9,9"; done
  echo "pages_2048,host,0,0,0,0,20,20,20,9"
  for n in 3072 4096 6144; do echo "pages_$n,host,0,0,0,0,40,40,40,9"; done
  for n in 16 24 32 48 64 96 128 192 256 384 512 768 1024 1536 2048 3072 4096 6144; do
      echo "chase_$((n * 64)),host,0,0,0,0,5,5,5,9"; done; } >rows.csv
HWLOC_XMLFILE=$src/tests/hwloc/ccx-caches.xml run platform --from-host --tlbs rows --probe rows.csv -o fr.xml
[ "$rc" -eq 0 ] || fail "platform --from-host --tlbs rows exited $rc: $err"
for want in dtlb1_entries=64 itlb1_entries=64 dtlb2_entries=2048 itlb2_entries=2048 dtlb2_ways=16 \
    dtlb2_cycles=4 walk_cycles=31; do
    [ "$(prop fr.xml "${want%=*}")" = "${want#*=}" ] ||
        fail "--tlbs rows: ${want%=*} $(prop fr.xml "${want%=*}"), not ${want#*=}"
done
grep -q 'step up at 96 pages (the first level ends at 64) and by a walk at 3072 (the second ends at 2048' fr.xml ||
    fail "--tlbs rows: no comment on where the levels end"
if [ "$(uname -m)" = x86_64 ]; then
    case $(prop fr.xml walk_levels) in 4 | 5) ;; *) fail "--tlbs rows: walk_levels '$(prop fr.xml walk_levels)', not 4 or 5" ;; esac
fi
run platform fr.xml
[ "$rc" -eq 0 ] && grep -q 'reads [45] page-table lines' <<<"$out" || [ "$(uname -m)" != x86_64 ] ||
    fail "--tlbs rows: the platform does not load or shows no walk levels: $err"
# rows without a step give no TLBs, and say so
grep -v '^pages_' rows.csv >flat.csv
for n in 8 16 32 64 128; do echo "pages_$n,host,0,0,0,0,5,5,5,9"; done >>flat.csv
HWLOC_XMLFILE=$src/tests/hwloc/ccx-caches.xml run platform --from-host --tlbs rows --probe flat.csv -o ff.xml
[ "$rc" -eq 0 ] || fail "platform --from-host --tlbs rows (no step) exited $rc: $err"
! grep -q dtlb1_entries ff.xml && grep -q "TLBs: none (the probe's pages_N rows show no TLB step)" ff.xml ||
    fail "--tlbs rows: rows without a step gave TLBs, or no comment"
run platform --from-host --tlbs sometimes -o bad.xml
[ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && grep -q "is not cpuid or rows" <<<"$err" ||
    fail "--tlbs sometimes: exit $rc, '$err'"
[ ! -e bad.xml ] || fail "--tlbs sometimes wrote a file"

if [ "$fails" -ne 0 ]; then
    echo "e2e tlb_pages: $fails check(s) failed" >&2
    exit 1
fi
echo "e2e tlb_pages: all checks passed"
