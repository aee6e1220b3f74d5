#!/usr/bin/env bash
# cmake --install into a temporary prefix, then the installed numasim used
# from a directory outside the source tree: `numasim run paper-table` finds
# the installed scenario and its platforms by name, writes
# results/paper-table.csv in the working directory (equal to the one the
# build tree's numasim writes for scenarios/paper-table.ini, both run here),
# and nothing into the prefix. Then the rest of what is installed: names of
# platforms, an unknown name (one line, exit 2), a moved prefix, draw-all
# with the measured cells, the man page and the bash completion; and the
# build tree's numasim finding names in its source tree.
set -u
numasim=$1 src=$2
. "$src/tests/e2e/lib/common.bash"
absolute_paths
numasim_build=$numasim
build=$(dirname "$numasim") # numasim is written at the top of its build tree

p=$tmp/p work=$tmp/work
mkdir -p "$work"
cmake --install "$build" --prefix "$p" >"$tmp/install.log" 2>&1 || {
    cat "$tmp/install.log" >&2
    die "cmake --install failed"
}
for f in bin/numasim share/man/man1/numasim.1 share/bash-completion/completions/numasim \
    share/numasim/scenarios/paper-table.ini share/numasim/scenarios/README.md \
    share/numasim/platforms/numa32.xml share/numasim/platforms/smp4.xml \
    share/numasim/platforms/fat4096.xml share/numasim/plots/draw-all \
    share/numasim/plots/paper-table.gp share/numasim/results/reference/measurements-baseline.csv; do
    [ -e "$p/$f" ] || fail "not installed: $f"
done
[ -x "$p/share/numasim/plots/draw-all" ] || fail "draw-all is not executable once installed"
nsc=$(ls "$src"/scenarios/*.ini | wc -l)
[ "$(ls "$p"/share/numasim/scenarios/*.ini | wc -l)" -eq "$nsc" ] || fail "not every scenario is installed"
before=$(cd "$p" && find . | sort)

# The same CSV from the installed numasim (by name, elsewhere) and the build's.
(cd "$work" && "$p/bin/numasim" run -q paper-table) >"$tmp/err" 2>&1 ||
    die "installed numasim run paper-table: $(cat "$tmp/err")"
[ -f "$work/results/paper-table.csv" ] || die "no results/paper-table.csv in the working directory"
(cd "$tmp" && "$numasim" run -q -o "$tmp/build.csv" "$src/scenarios/paper-table.ini") ||
    die "build tree's numasim run failed"
cmp -s "$work/results/paper-table.csv" "$tmp/build.csv" ||
    fail "installed and build-tree paper-table.csv differ: $(diff "$work/results/paper-table.csv" "$tmp/build.csv" | head -5)"
grep -q "^platforms = $p/share/numasim/scenarios/../platforms/numa32.xml" \
    "$work/results/paper-table.resolved.ini" || fail "the installed scenario did not use the installed platforms"

# Platforms by name; ./NAME.ini before the installed one; unknown names.
(cd "$work" && "$p/bin/numasim" platform --csv numa32 >"$tmp/m.csv") || fail "numasim platform numa32 (installed)"
[ "$(wc -l <"$tmp/m.csv")" -eq 17 ] || fail "numasim platform --csv numa32: $(wc -l <"$tmp/m.csv") lines, expected 17"
sed 's/^calls = 1000/calls = 3/' "$p/share/numasim/scenarios/paper-table.ini" |
    sed "s|^platforms = .*|platforms = $p/share/numasim/platforms/smp4.xml|" >"$work/paper-table.ini"
(cd "$work" && "$p/bin/numasim" run -q -o local.csv paper-table) || fail "run of ./paper-table.ini by name"
[ "$(awk -F, 'NR > 1 { print $2, $7 }' "$work/local.csv" | sort -u)" = "smp4 3" ] ||
    fail "./paper-table.ini was not preferred to the installed one: $(cat "$work/local.csv")"
rm "$work/paper-table.ini"
cd "$work"
numasim=$p/bin/numasim
run run -q no-such-scenario
check_user_error "unknown scenario name" results/no-such-scenario.csv
case $err in *no-such-scenario.ini*"$p/share/numasim/scenarios/no-such-scenario.ini"*) ;;
*) fail "unknown name: the message does not list where it looked: $err" ;; esac
run platform no-such-platform
check_user_error "unknown platform name"
cd "$tmp"

# The build tree's numasim, run elsewhere, finds names in its source tree.
(cd "$work" && "$numasim_build" run -q --set measure.calls=2 -o build-by-name.csv race-rearm) ||
    fail "the build tree's numasim does not find race-rearm in its source tree"

# Nothing was written into the prefix.
[ "$(cd "$p" && find . | sort)" = "$before" ] || fail "running the installed numasim wrote into the prefix"

# The prefix can move: the share directory is found beside the executable.
mv "$p" "$tmp/q"
(cd "$work" && "$tmp/q/bin/numasim" run -q --set measure.calls=2 -o moved.csv race-rearm) ||
    fail "a moved prefix does not find its scenarios"
[ -s "$work/moved.csv" ] || fail "moved prefix: no CSV"
mv "$tmp/q" "$p"

# The installed draw-all redraws the work directory's chart, with the measured cells.
if command -v gnuplot >/dev/null 2>&1; then
    "$p/share/numasim/plots/draw-all" "$work" >"$tmp/draw.out" 2>&1 || fail "installed draw-all: $(cat "$tmp/draw.out")"
    [ -s "$work/plots/paper-table.png" ] || fail "installed draw-all drew no plots/paper-table.png"
    ! grep -q 'measurements-baseline.csv not found' "$tmp/draw.out" ||
        fail "installed draw-all did not find the measured cells"
fi

# The installed man page renders; the completion knows the installed names.
LANG=C MANPAGER=cat MANWIDTH=100 man -l "$p/share/man/man1/numasim.1" >"$tmp/man.txt" 2>"$tmp/man.err" ||
    fail "man -l of the installed page: $(cat "$tmp/man.err")"
grep -q 'EXIT STATUS' "$tmp/man.txt" || fail "the installed man page has no EXIT STATUS"
(cd "$work" && bash --norc --noprofile -c '
    . "$1/share/bash-completion/completions/numasim"
    COMP_WORDS=("$1/bin/numasim" run race-r); COMP_CWORD=2; _numasim
    printf "%s\n" "${COMPREPLY[@]}"' _ "$p") >"$tmp/comp" 2>&1
[ "$(sort "$tmp/comp" | tr '\n' ' ')" = "race-rearm race-run-wmb " ] ||
    fail "completion of installed scenario names: $(cat "$tmp/comp")"

exit $((fails > 0))
