#!/usr/bin/env bash
# Every relative link and image of the documentation resolves: in README.md,
# docs/*.md and the README.md of each folder, every [text](TARGET) and
# ![alt](TARGET) whose TARGET is not a URL names an existing file or
# directory (relative to the page), and every #anchor (alone, or after a
# .md file) names a heading of that page by GitHub's rule: lower case,
# punctuation dropped, spaces turned into '-', a repeated heading getting
# -1, -2... Links inside code (fenced blocks, `spans`) are not links.
#   bash check-links.sh SOURCE_DIR
set -u
src=$(cd "${1:?usage: check-links.sh SOURCE_DIR}" && pwd) || exit 2
export LC_ALL=C.UTF-8 2>/dev/null || export LC_ALL=C
fails=0
pages=()
for f in "$src"/README.md "$src"/docs/*.md "$src"/*/README.md "$src"/*/*/README.md "$src"/*/*/*/README.md; do
    [ -f "$f" ] && pages+=("$f")
done
case " ${pages[*]} " in *" $src/README.md "*) ;; *) echo "FAIL: no README.md in $src"; exit 1 ;; esac

# The text of a page outside fenced code blocks (blanked, so that line
# numbers stay); with "spans", `code spans` removed too.
prose() {
    awk -v spans="${2:-}" '/^ *(```|~~~)/ { fence = !fence; print ""; next }
         fence { print ""; next }
         spans != "" { gsub(/`[^`]*`/, "") }
         { print }' "$1"
}

# The anchors of a page's headings, one per line.
anchors() {
    prose "$1" | awk '/^#+ / { sub(/^#+ +/, ""); sub(/ +#* *$/, ""); print }' |
        sed -e 's/\[\([^]]*\)\]([^)]*)/\1/g' | tr '[:upper:]' '[:lower:]' |
        sed -e 's/[^[:alnum:] _-]//g' -e 's/ /-/g' |
        awk '{ n = seen[$0]++; print (n ? $0 "-" n : $0) }'
}

for page in "${pages[@]}"; do
    dir=$(dirname "$page")
    rel=${page#"$src"/}
    while IFS=$'\t' read -r line target; do
        case $target in
        [a-zA-Z]*:*) continue ;; # http:, https:, mailto:
        esac
        path=${target%%#*}
        anchor=
        [ "$path" = "$target" ] || anchor=${target#*#}
        file=$page
        if [ -n "$path" ]; then
            file=$dir/$path
            if [ ! -e "$file" ]; then
                echo "FAIL: $rel:$line: broken link: $target ($path does not exist)"
                fails=$((fails + 1))
                continue
            fi
        fi
        if [ -n "$anchor" ] && [ -f "$file" ] && [[ $file == *.md ]]; then
            anchors "$file" | grep -qxF -- "$anchor" || {
                echo "FAIL: $rel:$line: broken anchor: $target (no such heading in ${file#"$src"/})"
                fails=$((fails + 1))
            }
        fi
    done < <(prose "$page" spans | awk '{
                 s = $0
                 while (match(s, /\]\([^)[:space:]]+( "[^"]*")?\)/)) {
                     t = substr(s, RSTART + 2, RLENGTH - 3); sub(/ ".*$/, "", t)
                     print NR "\t" t
                     s = substr(s, RSTART + RLENGTH)
                 }
             }')
done
n=${#pages[@]}
[ $fails -eq 0 ] && echo "docs: every link and image of $n pages resolves"
exit $((fails > 0))
