#!/bin/bash
# e2e: bad input to `numasim litmus`. Each malformed test (an unknown macro,
# an undeclared variable, a process with no body, and a few more) and each
# bad option gets exit code 2, one line "FILE:LINE: message" (or the
# option's message) on stderr naming the problem, nothing on stdout, and no
# test is run (a good test comes first on the command line). --help prints
# the usage and exits 0.
# Usage: litmus_errors.sh NUMASIM_BINARY SOURCE_DIR
set -u
numasim=${1:?usage: litmus_errors.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: litmus_errors.sh NUMASIM_BINARY SOURCE_DIR}
. "$src/tests/e2e/lib/common.bash"

bad() { # NAME EXPECTED-LINE PATTERN CONTENT
    printf '%s' "$4" >"$tmp/$1.litmus"
    run litmus --runs 10 --platform "$src/platforms/smp4.xml" "$src/litmus/SB.litmus" \
        "$tmp/$1.litmus"
    [ "$rc" -eq 2 ] || fail "$1: exit $rc, not 2"
    [ -z "$out" ] || fail "$1: printed on stdout (a test ran before the error): $out"
    [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "$1: error is not one line: $err"
    case $err in
    "$tmp/$1.litmus:$2: "*) ;;
    *) fail "$1: error is not '$tmp/$1.litmus:$2: ...': $err" ;;
    esac
    printf '%s' "$err" | grep -qE "$3" || fail "$1: error does not say /$3/: $err"
}

bad unknown-macro 4 "unknown macro.*FOO" 'C bad
{}
P0(int *x) {
	FOO(*x);
}
exists (x=1)
'
bad undeclared-in-code 5 "'y' is not declared" 'C bad
{}
P0(int *x) {
	int r0;
	r0 = READ_ONCE(*y);
}
exists (0:r0=1)
'
bad huge-process 4 "no process P55555555550" 'C bad
{ x=0; }
P0(int *x) { WRITE_ONCE(*x, 1); }
exists (55555555550:r0=1)
'
bad undeclared-in-exists 6 "undeclared variable 'z'" 'C bad
{}
P0(int *x) {
	WRITE_ONCE(*x, 1);
}
exists (z=1)
'
bad no-body 4 "P0 has no body" 'C bad
{}
P0(int *x)
exists (x=1)
'
bad unknown-register 4 "P0 has no local 'r9'" 'C bad
{}
P0(int *x) { int r0; r0 = READ_ONCE(*x); }
exists (0:r9=1)
'
bad no-clause 4 "expected exists" 'C bad
{}
P0(int *x) { WRITE_ONCE(*x, 1); }
'
bad not-c 1 "starts with 'C NAME'" 'X86 bad
'
# recursion is bounded: nesting (the fuzzer's crash) and size
bad deep-expression 4 "nested more than 32 deep" 'C bad
{}
P0(int *x) {
	WRITE_ONCE(*x, ((((((((((((((((((((((((((((((((((((((((1)))))))))))))))))))))))))))))))))))))))));
}
exists (x=1)
'
bad long-expression 5 "more than 512 terms" 'C bad
{}
P0(int *x) {
	int r0;
	r0 = r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0 + r0;
}
exists (x=1)
'
bad deep-condition 4 "condition nested more than 32 deep" 'C bad
{}
P0(int *x) { WRITE_ONCE(*x, 1); }
exists (~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~x=1)
'
bad open-comment 2 "unterminated comment" 'C bad
(* never closed
'
bad missing-brace 4 "missing '}'" 'C bad
{}
P0(int *x) { WRITE_ONCE(*x, 1);
'

run litmus --runs 0 "$src/litmus/SB.litmus"
[ "$rc" -eq 2 ] || fail "--runs 0: exit $rc"
# --cpus on a simulated platform: its syntax before any run, then its CPUs
# against the platform's and the test's processes
cpus_bad() { # WHAT PATTERN ARGS...
    local what=$1 pat=$2
    shift 2
    run litmus --runs 10 "$@"
    check_user_error "$what"
    [ -z "$out" ] || fail "$what: printed on stdout: $out"
    printf '%s' "$err" | grep -qE -- "$pat" || fail "$what: error does not say /$pat/: $err"
}
cpus_bad "--cpus 0-x" "^--cpus: expected a list like 0,2-3, not '0-x'" --cpus 0-x "$src/litmus/SB.litmus"
cpus_bad "--cpus ''" "^--cpus: expected a list" --cpus "" "$src/litmus/SB.litmus"
cpus_bad "--cpus 3-1" "^--cpus: bad range in '3-1'" --cpus 3-1 "$src/litmus/SB.litmus"
cpus_bad "--cpus 0,32 on numa32" "^--cpus: CPU 32 is not on platform numa32 \\(it has CPUs 0..31\\)" \
    --platform "$src/platforms/numa32.xml" --cpus 0,32 "$src/litmus/SB.litmus"
cpus_bad "--cpus 0 for a 2-process test" "^--cpus: test SB needs 2 CPUs, '0' gives 1" \
    --platform "$src/platforms/smp4.xml" --cpus 0 "$src/litmus/SB.litmus"
run litmus "$tmp/missing.litmus"
[ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "missing file: $rc $err"
run litmus --platform "$src/platforms/smp4.xml" --set memory_model=psychic "$src/litmus/SB.litmus"
[ "$rc" -eq 2 ] && printf '%s' "$err" | grep -q "memory_model" || fail "bad model: $rc $err"
[ -z "$out" ] || fail "bad model: printed on stdout: $out"
# a bare READ_ONCE(*x); drops its value (the fuzzer's find: it was written
# to register -1)
run litmus --runs 10 --platform "$src/platforms/smp4.xml" "$src/tests/regress/litmus/bare-read-once"
[ "$rc" -eq 0 ] && grep -q '^Observation SB+locks ' <<<"$out" || fail "bare READ_ONCE: $rc $err"
run litmus --help
[ "$rc" -eq 0 ] && printf '%s' "$out" | grep -q "Observation" || fail "--help: $rc"
exit $((fails > 0))
