#!/usr/bin/env bash
# The layering of sim/ holds: a higher layer's header does not compile in a
# lower one, and only the machine implementations use SimGrid, hwloc and
# libelf (machine/native: the code sizes of numasim's own binary).
#   bash check.sh BUILD_DIR SOURCE_DIR CASE...   (CASE: kind:name:library:header)
set -u
build=$1 src=$2
shift 2
fail=0
bad() { echo "FAIL: $*"; fail=1; }

for c in "$@"; do
    IFS=: read -r kind name lib header <<<"$c"
    out=$(cmake --build "$build" --target "layer_$name" 2>&1)
    rc=$?
    if [ "$kind" = good ]; then
        [ $rc -eq 0 ] || bad "$name ($lib) should compile:"$'\n'"$out"
        [ $rc -eq 0 ] && echo "ok: $name compiles"
    elif [ $rc -eq 0 ]; then
        bad "$name: $lib includes $header, and that compiled"
    elif ! grep -q "fatal error: $header: No such file or directory" <<<"$out"; then
        bad "$name failed, but not for want of $header:"$'\n'"$out"
    else
        echo "ok: $name does not compile ($header is not visible to $lib)"
    fi
done

# Paths that climb out of a folder would get round the include paths.
hits=$(grep -rnE '#include "[^"]*\.\./' "$src/sim")
[ -z "$hits" ] || bad "includes through ../:"$'\n'"$hits"
# Each library only in the folder that wraps it.
only() { # PATTERN ALLOWED_DIR...
    local pat=$1
    shift
    local f
    while IFS= read -r f; do
        local ok=0 d
        for d in "$@"; do
            case $f in "$src/sim/$d"/*) ok=1 ;; esac
        done
        [ $ok -eq 1 ] || bad "$f includes $pat outside sim/$*"
    done < <(grep -rlE "#include <$pat" "$src/sim")
}
only 'simgrid/' machine/simgrid
only 'xbt/' machine/simgrid
only 'hwloc' machine/native
only 'libelf\.h' machine/native
only 'gelf\.h' machine/native
only 'pthread' machine/native
only 'libxml/' machine/platform
only 'ini\.h' study
# The module table of docs/developers.md ("The layers") and the folders say
# the same thing: every entry names something that exists, and every source
# file has an entry.
table=$(awk '/^\| folder \| module \| role \|/ { on = 1; next }
             on && !/^\|/ { exit }
             on && !/^\|---/ { print }' "$src/docs/developers.md")
[ -n "$table" ] || bad "docs/developers.md has no '| folder | module | role |' table"
covered=$(mktemp)
trap 'rm -f "$covered"' EXIT
folder=
while IFS='|' read -r _ f m _; do
    f=$(tr -d ' `' <<<"$f")
    [ -n "$f" ] && folder=${f%/}
    [ -d "$src/sim/$folder" ] || bad "the module table of docs/developers.md names sim/$folder/, which does not exist"
    for name in $(grep -oE '`[^`]+`' <<<"$m" | tr -d '`' | tr -d ','); do
        n=0
        for path in "$src/sim/$folder"/$name; do
            [ -e "$path" ] || continue
            n=$((n + 1))
            if [ -d "$path" ]; then
                find "$path" -name '*.c' >>"$covered"
            else
                echo "$path" >>"$covered"
            fi
        done
        [ $n -gt 0 ] || bad "the module table of docs/developers.md names sim/$folder/$name, which does not exist"
    done
done <<<"$table"
while IFS= read -r c; do
    grep -qxF "$c" "$covered" || bad "${c#$src/} has no entry in the module table of docs/developers.md"
done < <(find "$src/sim" -name '*.c' | sort)

[ $fail -eq 0 ] && echo "layers: all checks passed"
exit $fail
