# Shared by e2e scripts (sourced, not run): a temporary directory $tmp that is
# removed on exit, a failure counter $fails with fail(), and run(), which
# calls $numasim and rejects any SimGrid backtrace or abort in its output.
# Set $numasim before sourcing.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
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
