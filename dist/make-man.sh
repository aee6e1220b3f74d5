#!/usr/bin/env bash
# Writes the man page numasim(1) from numasim's own --help texts, so that the
# page and --help cannot drift apart: `numasim --help` gives the commands,
# `numasim CMD --help` each command's usage (the SYNOPSIS) and its options,
# and `numasim CMD --FLAG --help` the commands with help of their own for a
# flag that takes no value (platform --generate, platform --from-host).
# The parts no --help holds (description, names, exit status, environment,
# files) are in the template, around the markers @VERSION@, @SYNOPSIS@ and
# @COMMANDS@.
#
#   bash make-man.sh NUMASIM TEMPLATE OUT    (run by the build: target "man")
set -euo pipefail
bin=$1 template=$2 out=$3

# roff-escapes standard input: backslashes, hyphens, and a leading . or '.
esc() { sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }

# The usage lines of one --help text (from "usage:" to the first blank line).
usage_of() { awk 'NR == 1 { sub(/^usage: */, "") } /^$/ { exit } { sub(/^ +/, ""); print }' <<<"$1"; }

# One --help text without its usage, as roff: paragraphs, option entries (.TP)
# and indented literal lines.
body_of() {
    awk 'function esc(s) { gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s)
                           if (s ~ /^[.\047]/) s = "\\&" s; return s }
        BEGIN { mode = "" }
        NR == 1, /^$/ { next }                       # the usage: in SYNOPSIS
        /^$/ { if (mode == "lit") print ".fi"; mode = ""; print ".PP"; next }
        mode == "opt" && /^      +/ { line = $0; sub(/^ +/, "", line); print esc(line); next }
        /^  +-/ {                                    # "  -o, --output FILE   text"
            if (mode == "lit") print ".fi"
            line = $0; sub(/^ +/, "", line)
            tag = line; desc = ""
            if (match(line, /   +/)) { tag = substr(line, 1, RSTART - 1); desc = substr(line, RSTART + RLENGTH) }
            print ".TP"; print "\\fB" esc(tag) "\\fR"; if (desc != "") print esc(desc)
            mode = "opt"; next
        }
        /^ / { if (mode != "lit") { print ".nf"; mode = "lit" } print esc($0); next }
        { if (mode == "lit") print ".fi"; if (mode == "opt") print ".PP"; mode = ""; print esc($0) }
        END { if (mode == "lit") print ".fi" }' <<<"$1"
}

main_help=$("$bin" --help)
version=$("$bin" --version | awk '{ print $2 }')
mapfile -t cmds < <(awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
                         on && /^  [a-z]/ { print $1 }' <<<"$main_help" | awk '!seen[$0]++')
[ ${#cmds[@]} -gt 0 ] || { echo "make-man.sh: no commands in numasim --help" >&2; exit 1; }

syn=$(mktemp) sec=$(mktemp)
trap 'rm -f "$syn" "$sec" "$out.tmp"' EXIT
for c in "${cmds[@]}"; do
    h=$("$bin" "$c" --help)
    helps=("$h") titles=("$c")
    # Flags without a value in the usage lines that have their own --help.
    while read -r flag; do
        hh=$("$bin" "$c" "$flag" --help 2>/dev/null) || continue
        [ "$hh" != "$h" ] || continue
        helps+=("$hh") titles+=("$c $flag")
    done < <(usage_of "$h" | awk -v c="$c" '{ for (i = 1; i < NF; i++)
                 if ($i == c && $(i + 1) ~ /^--/ && (i + 2 > NF || $(i + 2) ~ /^[[-]/)) print $(i + 1) }' |
             awk '!seen[$0]++')
    for i in "${!helps[@]}"; do
        [ "$i" -eq 0 ] || continue # sub-helps repeat their usage in the command's own
        usage_of "${helps[$i]}" | esc | sed 's/^numasim /.br\n.B numasim\n/' >>"$syn"
    done
    for i in "${!helps[@]}"; do
        echo ".SS \"$(esc <<<"${titles[$i]}")\"" >>"$sec"
        echo ".nf" >>"$sec"
        usage_of "${helps[$i]}" | esc >>"$sec"
        echo ".fi" >>"$sec"
        echo ".PP" >>"$sec"
        body_of "${helps[$i]}" >>"$sec"
    done
done
awk -v syn="$syn" -v sec="$sec" -v ver="$version" '
    /^@SYNOPSIS@$/ { while ((getline l < syn) > 0) print l; next }
    /^@COMMANDS@$/ { while ((getline l < sec) > 0) print l; next }
    { gsub(/@VERSION@/, ver); print }' "$template" >"$out.tmp"
mv "$out.tmp" "$out"
