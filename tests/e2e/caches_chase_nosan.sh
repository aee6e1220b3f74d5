#!/bin/bash
# e2e: the simulated `chase` probe reproduces the cache levels of the platform
# that made it (issue 18): on numa32 and on the host's platform file, for
# each data level (l1d, l2, l3) the chase's staircase has its step where the
# level ends (the last size on the level's tread within one x2 step of
# LEVEL_bytes) and its tread at the level's latency (within 5%); past the
# last level the tread is the local memory's latency (within 5%). A chase
# load costs its level's latency plus the model's plain instructions per
# access (insn_cycles), as any other access. Levels larger than half the
# chase's largest working set (64 MiB at most) have no step to see and are
# skipped with a note. Fails at once on a platform without levels (the
# hierarchy of issue 18 is not merged).
# Usage: caches_chase_nosan.sh NUMASIM_BINARY SOURCE_DIR
set -u

numasim=${1:?usage: caches_chase_nosan.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: caches_chase_nosan.sh NUMASIM_BINARY SOURCE_DIR}
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash"
absolute_paths
cd "$tmp" || exit 1

check_platform() {
    local plat=$1 name
    name=$(basename "$plat" .xml)
    [ -n "$(prop "$plat" l1d_bytes)" ] ||
        { fail "$name: no l1d_bytes prop: the platform has no cache levels (issue 18 not merged?)"; return; }
    run probe -q -o "$name.csv" "$plat"
    [ "$rc" -eq 0 ] || { fail "$name: probe exited $rc: $err"; return; }
    local insn mem
    insn=$(prop "$plat" insn_cycles)
    mem=$(prop "$plat" mem_local_cycles)
    # levels as "bytes cycles" lines, in order, then memory
    local levels=""
    for l in l1d l2 l3; do
        b=$(prop "$plat" "${l}_bytes")
        [ -n "$b" ] && levels="$levels$l $b $(prop "$plat" "${l}_cycles")
"
    done
    local res
    res=$(printf '%s' "$levels" | awk -F, -v insn="${insn:-0}" -v mem="$mem" -v name="$name" '
        FILENAME == "-" { n++; L[n] = $0; next }
        FNR > 1 && $1 ~ /^chase_/ { s = substr($1, 7) + 0; ns++; S[ns] = s; V[ns] = $7 + 0; if (s > max) max = s }
        function within(a, b) { return b > 0 && a / b - 1 <= 0.05 && 1 - a / b <= 0.05 }
        END {
            if (ns == 0) { print "no chase rows"; exit }
            prev = 0; bad = 0
            for (i = 1; i <= n + 1; i++) {
                if (i <= n) { split(L[i], f, " "); lv = f[1]; b = f[2] + 0; want = f[3] + insn }
                else { lv = "memory"; b = 1e18; want = mem + insn }
                if (i <= n && 2 * b > max) { printf "note: %s %s (%d bytes): the chase stops at %d\n", name, lv, b, max; prev = b; continue }
                # the tread: sizes in (2 prev, b], or (prev, b] when none
                m = 0
                for (j = 1; j <= ns; j++) if (S[j] > 2 * prev && S[j] <= b) T[++m] = V[j]
                if (m == 0) for (j = 1; j <= ns; j++) if (S[j] > prev && S[j] <= b) T[++m] = V[j]
                if (m == 0) { if (i > n) break; printf "%s %s: no chase size on its tread\n", name, lv; bad++; prev = b; continue }
                for (j = 1; j <= m; j++) if (!within(T[j], want)) { printf "%s %s: a chase on its tread costs %s, want %s (+-5%%)\n", name, lv, T[j], want; bad++; break }
                if (i <= n) {
                    # the step: the last size closer to this tread than to the next
                    split(i < n ? L[i + 1] : "x 0 " mem, g, " "); nxt = g[3] + insn
                    last = 0
                    for (j = 1; j <= ns; j++) { d1 = V[j] - want; d2 = V[j] - nxt; if (d1 * d1 <= d2 * d2 && S[j] > last) last = S[j] }
                    if (last < b / 2 || last > 2 * b) { printf "%s %s: the step is at %d bytes, want %d (within one x2 step)\n", name, lv, last, b; bad++ }
                }
                prev = b
            }
            print bad + 0
        }' - "$name.csv")
    printf '%s\n' "$res" | grep '^note:' >&2
    [ "$(printf '%s\n' "$res" | tail -1)" = 0 ] || fail "$name chase: $(printf '%s\n' "$res" | grep -v '^note:')"
}

check_platform "$src/platforms/numa32.xml"
check_platform "$src/platforms/host.xml"

[ "$fails" -eq 0 ] && echo "caches_chase_nosan.sh: all checks passed"
exit $((fails > 0))
