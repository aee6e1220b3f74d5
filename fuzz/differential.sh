#!/bin/bash
# Differential check of the platform validation against SimGrid: mutates the
# platform files of platforms/ (deletes, duplicates, swaps and moves lines and
# elements, changes attribute names and values), runs `numasim platform` on
# every mutant and reports each one that numasim lets through to SimGrid and
# that SimGrid then aborts on, crashes on or hangs on (anything but exit 0, or
# exit 2 with one line). Such a file is a validation gap in
# sim/machine/platform/platform_xml.c: the fix goes there, the file to tests/regress/platform/.
# Usage: fuzz/differential.sh NUMASIM_BINARY [MUTANTS [SEED]]
# (needs python3; about 30 ms per mutant)
set -u

numasim=${1:?usage: differential.sh NUMASIM_BINARY [MUTANTS [SEED]]}
n=${2:-2000}
seed=${3:-1}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${DIFF_OUT:-$(mktemp -d)}
mkdir -p "$out/mutants" "$out/bad"

python3 - "$src/platforms" "$out/mutants" "$n" "$seed" <<'EOF'
import os, random, re, sys
pdir, odir, n, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
random.seed(seed)
names = [f for f in sorted(os.listdir(pdir)) if f.endswith('.xml') and os.path.getsize(os.path.join(pdir, f)) < 40000]
srcs = [open(os.path.join(pdir, f)).read() for f in names]
vals = ['', 'x', '0', '-1', '1f', '2f', '1s', '0s', 'Full', 'None', 'Floyd', 'Dijkstra', 'cpu0',
        'cpu1', 'shub0', 'bus0', 'exit0', 'router0', '1GBps', 'YES', 'NO', 'NONE', 'UP',
        'FATPIPE', 'SPLITDUPLEX', '&amp;', '&#10;', '1e9', '4.1', 'numa_node', 'class']
keys = ['id', 'src', 'dst', 'routing', 'latency', 'bandwidth', 'speed', 'value', 'gw_src',
        'gw_dst', 'core', 'symmetrical', 'direction', 'sharing_policy', 'version']
for k in range(n):
    lines = random.choice(srcs).split('\n')
    for _ in range(random.randint(1, 3)):
        op = random.randrange(7)
        i, j = random.randrange(len(lines)), random.randrange(len(lines))
        attrs = list(re.finditer(r' (\w+)="([^"]*)"', lines[i]))
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(j, lines[i])
        elif op == 2:
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3 and attrs:
            a = random.choice(attrs)
            lines[i] = lines[i][:a.start(2)] + random.choice(vals) + lines[i][a.end(2):]
        elif op == 4 and attrs:
            a = random.choice(attrs)
            lines[i] = lines[i][:a.start()] + lines[i][a.end():]
        elif op == 5:
            m = re.search(r'<(\w+)[^<>]*/>', lines[i])
            if m:
                lines[i] = lines[i].replace(m.group(0), '', 1)
                lines[j] += m.group(0)
        elif attrs:
            a = random.choice(attrs)
            lines[i] = lines[i][:a.start(1)] + random.choice(keys) + lines[i][a.end(1):]
    with open(os.path.join(odir, 'm%06d.xml' % k), 'w') as f:
        f.write('\n'.join(lines))
EOF

ok=0 refused=0 bad=0
for f in "$out"/mutants/*.xml; do
    timeout 20 "$numasim" platform "$f" >"$out/stdout" 2>"$out/stderr"
    rc=$?
    if [ "$rc" -eq 0 ]; then
        ok=$((ok + 1))
    elif [ "$rc" -eq 2 ] && [ "$(wc -l <"$out/stderr")" -eq 1 ]; then
        refused=$((refused + 1))
    else
        bad=$((bad + 1))
        cp "$f" "$out/bad/"
        echo "BAD: $(basename "$f"): exit $rc: $(grep -av '^$' "$out/stderr" | grep -v 'Exiting now' | head -1 | cut -c1-200)"
    fi
done 2>/dev/null
echo "differential: $n mutants (seed $seed): $ok loaded, $refused refused with one line, $bad bad (in $out/bad)"
[ "$bad" -eq 0 ]
