#!/usr/bin/env bash
# The bash completion (dist/numasim.bash-completion, installed as
# share/bash-completion/completions/numasim), sourced in a plain bash:
# `complete -p numasim` names its function, and calling that function with
# COMP_WORDS/COMP_CWORD set completes every command of `numasim --help`,
# every option of each `numasim CMD --help`, option values (strategies,
# scenario files) and scenario and platform names.
set -u
numasim=$1 src=$2
. "$src/tests/e2e/lib/common.bash"
absolute_paths
comp=$src/dist/numasim.bash-completion

# complete WORD... : COMPREPLY, one per line, for the last word, run in $src.
complete_words() {
    (cd "$src" && bash --norc --noprofile -c '
        . "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _numasim
        printf "%s\n" "${COMPREPLY[@]}"' _ "$comp" "$numasim" "$@") 2>&1
}
expect() { # WANT WORD... : WANT (space-separated, sorted) is exactly the completion
    local want=$1 got
    shift
    got=$(complete_words "$@" | sort | tr '\n' ' ')
    [ "$got" = "$want " ] || fail "numasim $*<TAB>: got '$got', expected '$want'"
}
has() { # WANT WORD... : WANT is among the completions
    local want=$1
    shift
    complete_words "$@" | grep -qxF -- "$want" || fail "numasim $*<TAB> does not offer $want: $(complete_words "$@" | tr '\n' ' ')"
}

spec=$(bash --norc --noprofile -c '. "$1" && complete -p numasim' _ "$comp" 2>&1)
[ "$spec" = "complete -F _numasim numasim" ] || fail "complete -p numasim: $spec"

# Commands.
mapfile -t cmds < <("$numasim" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
                                             on && /^  [a-z]/ && !seen[$1]++ { print $1 }')
[ ${#cmds[@]} -ge 8 ] || die "numasim --help lists ${#cmds[@]} commands"
for c in "${cmds[@]}"; do has "$c" ""; done
expect "run" r
expect "platform probe" p

# Options: every one of every command's --help (usage and option lines).
for c in "${cmds[@]}"; do
    complete_words "$c" - >"$tmp/all"
    for o in $("$numasim" "$c" --help | awk '/^$/ { u = 1 } !u || /^  ? ? ?-/' |
        grep -oE -- '(^|[][ (,])--?[a-zA-Z][a-zA-Z-]*' | sed 's/^[][ (,]//' | sort -u); do
        grep -qxF -- "$o" "$tmp/all" || fail "numasim $c -<TAB> does not offer $o: $(tr '\n' ' ' <"$tmp/all")"
    done
done
expect "--paje --paje-calls" run --pa
expect "--budget" hunt --bu

# Values and arguments.
expect "base_tracking" hunt --strategy b
has paper-table run pap
has scenarios/race-rearm.ini run scenarios/race-re
expect "scenarios/race-rearm.ini" run -q scenarios/race-re
has numa32 platform num
has scaling bench --paper sca
exit $((fails > 0))
