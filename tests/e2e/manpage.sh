#!/usr/bin/env bash
# The man page numasim(1) that the build writes (target "man") renders with
# man -l without a warning, has its sections, a subsection per command, and
# every option that `numasim --help`, each `numasim CMD --help` and each
# `numasim CMD --FLAG --help` names; EXIT STATUS lists 0, 1 and 2.
set -u
numasim=$1 src=$2
. "$src/tests/e2e/lib/common.bash"
absolute_paths
page=$(dirname "$numasim")/numasim.1 # beside numasim, at the top of the build tree
[ -s "$page" ] || die "$page is missing (build target 'man')"

# Rendered as plain ASCII, without a terminal or a pager.
LANG=C LC_ALL=C MANPAGER=cat PAGER=cat MANWIDTH=100 man --warnings -l "$page" >"$tmp/man.txt" 2>"$tmp/man.err" ||
    die "man -l $page failed: $(cat "$tmp/man.err")"
[ ! -s "$tmp/man.err" ] || fail "man -l $page warns: $(head -5 "$tmp/man.err")"
[ "$(wc -l <"$tmp/man.txt")" -gt 100 ] || fail "the rendered page has $(wc -l <"$tmp/man.txt") lines"
for s in NAME SYNOPSIS DESCRIPTION COMMANDS 'EXIT STATUS' ENVIRONMENT FILES 'SEE ALSO'; do
    grep -q "^$s\$" "$tmp/man.txt" || fail "no section $s"
done
awk '/^EXIT STATUS$/ { on = 1; next } on && /^[A-Z]/ { exit } on && /^       [0-9]( |$)/ { print $1 }' "$tmp/man.txt" |
    tr '\n' ' ' | grep -qx '0 1 2 ' || fail "EXIT STATUS does not list 0, 1 and 2"

# Every command, and every option of every --help text.
mapfile -t cmds < <("$numasim" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
                                             on && /^  [a-z]/ && !seen[$1]++ { print $1 }')
[ ${#cmds[@]} -ge 8 ] || fail "numasim --help lists ${#cmds[@]} commands"
opts() { grep -oE -- '(^|[][ (,])--?[a-zA-Z][a-zA-Z-]*' | sed 's/^[][ (,]//'; }
for c in "${cmds[@]}"; do
    grep -q "^   $c\$" "$tmp/man.txt" || fail "no subsection for command $c"
    "$numasim" "$c" --help >"$tmp/h" || fail "numasim $c --help: exit $?"
    # Flags that take no value in the usage lines ("numasim platform --generate
    # --cpus N") may have a --help of their own.
    for f in $(awk -v c="$c" '/^$/ { exit } { for (i = 1; i < NF; i++)
                   if ($i == c && $(i + 1) ~ /^--/ && (i + 2 > NF || $(i + 2) ~ /^[[-]/)) print $(i + 1) }' "$tmp/h" | sort -u); do
        "$numasim" "$c" "$f" --help >"$tmp/h2" 2>/dev/null && ! cmp -s "$tmp/h" "$tmp/h2" && cat "$tmp/h2" >>"$tmp/h"
    done
    for o in $(opts <"$tmp/h" | sort -u); do
        grep -qE -- "(^|[^a-zA-Z-])$o([^a-zA-Z-]|\$)" "$tmp/man.txt" || fail "numasim $c --help names $o; the man page does not"
    done
done
for o in $("$numasim" --help | opts | sort -u); do
    grep -qE -- "(^|[^a-zA-Z-])$o([^a-zA-Z-]|\$)" "$tmp/man.txt" || fail "numasim --help names $o; the man page does not"
done
exit $((fails > 0))
