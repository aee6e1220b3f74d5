# Shared by e2e scripts (sourced, not run): a temporary directory $tmp that is
# removed on exit, a failure counter $fails with fail() (and die(), which
# stops there), and run(), which calls $numasim and rejects any SimGrid
# backtrace or abort in its output. Set $numasim before sourcing (unless the
# script never calls run or absolute_paths). A script that needs more
# cleaning sets its own EXIT trap, which must remove $tmp too.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}

# For a failure after which nothing else can be checked.
die() {
    fail "$@"
    exit 1
}

# Makes $numasim and $src absolute, for scripts that cd (into $tmp, say).
absolute_paths() {
    numasim=$(cd "$(dirname "$numasim")" && pwd)/$(basename "$numasim")
    src=$(cd "$src" && pwd)
}

# Runs numasim with the given args; sets $rc, $out, $err, and $out_file (the
# file holding its standard output, for large outputs).
run() {
    "$numasim" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    out=$(cat "$tmp/out")
    out_file=$tmp/out
    err=$(cat "$tmp/err")
    if grep -qiE 'backtrace|xbt_backtrace|terminate called|Aborted|\[xbt' "$tmp/out" "$tmp/err"; then
        fail "numasim $*: SimGrid backtrace or abort in the output:"
        cat "$tmp/err" >&2
    fi
}

# check_user_error WHAT [FILE...]: after run, fails unless numasim refused
# its input as a user error: exit 2, one line on stderr, none of FILE written.
check_user_error() {
    local what=$1 f
    shift
    [ "$rc" -eq 2 ] || fail "$what: exit $rc, expected 2 ($err)"
    [ -n "$err" ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "$what: stderr is not one line: $err"
    for f in "$@"; do
        [ ! -e "$f" ] || fail "$what: left $f"
    done
}

# prop FILE NAME: the value of <prop id="NAME"> in a platform file.
prop() { sed -n "s/.*<prop id=\"$2\" value=\"\([^\"]*\)\".*/\1/p" "$1" | head -1; }

# within A B TOL: true when |A/B - 1| <= TOL.
within() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a / b - 1; exit !(d <= t && -d <= t) }'; }

# without_core SRC DST: a copy of platform file SRC without its core's props
# (core none: every access waits, instructions are free), for tests that
# compute the coherence model's costs by hand.
without_core() { grep -v -e '<prop id="core' -e '<prop id="code_[a-z0-9_]*_insns"' "$1" >"$2"; }
