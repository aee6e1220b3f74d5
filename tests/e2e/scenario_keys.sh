#!/usr/bin/env bash
# scenarios/README.md, the key reference, and the key table of
# sim/study/scenario.c (scenario_keys) say the same thing: every key that a
# run's resolved configuration lists (all of them, in table order) has its
# row "| `key` |" under its "### [section]" heading, and every such row names
# a key the table has.
set -u
numasim=$1 src=$2
. "$src/tests/e2e/lib/common.bash"
ref=$src/scenarios/README.md

run run -q --set scenario.platforms="$src/platforms/smp4.xml" --set scenario.strategies=scan \
    --set scenario.cache=warm --set measure.calls=1 --set measure.warmup_calls=0 \
    -o "$tmp/k.csv" "$src/scenarios/paper-table.ini"
[ "$rc" -eq 0 ] || die "run for the resolved configuration: $err"
awk '/^\[/ { s = substr($1, 2, length($1) - 2); next }
     /^[a-z_]+ = / && s != "" { print s "." $1 }' "$tmp/k.resolved.ini" | sort >"$tmp/table"
[ "$(wc -l <"$tmp/table")" -ge 30 ] || die "only $(wc -l <"$tmp/table") keys in the resolved configuration"
awk '/^### \[/ { s = substr($2, 2, length($2) - 2); next } /^## / { s = "" }
     s != "" && /^\| `[a-z_]+` \|/ { k = $2; gsub(/`/, "", k); print s "." k }' "$ref" | sort >"$tmp/doc"
while read -r k; do fail "key $k is in the key table but has no row in scenarios/README.md"; done \
    < <(comm -23 "$tmp/table" "$tmp/doc")
while read -r k; do fail "scenarios/README.md documents $k, which the key table does not have"; done \
    < <(comm -13 "$tmp/table" "$tmp/doc")
exit $((fails > 0))
