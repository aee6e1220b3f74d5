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

# the dialect's constructs (tests/litmus/ has a good test of each)
bad open-c-comment 3 "unterminated comment" 'C bad
{}
P0(int *x) { /* never closed
	WRITE_ONCE(*x, 1);
}
'
bad locations-register 4 "P0 has no local 'r9'" 'C bad
{}
P0(int *x) { int r0; r0 = READ_ONCE(*x); }
locations [0:r9; x]
exists (x=1)
'
bad locations-unclosed 4 "expected ';' or ']' in locations" 'C bad
{}
P0(int *x) { WRITE_ONCE(*x, 1); }
locations [x y]
exists (x=1)
'
bad filter-undeclared 4 "undeclared variable 'z'" 'C bad
{}
P0(int *x) { WRITE_ONCE(*x, 1); }
filter (z=1)
exists (x=1)
'
bad pointer-not-declared 5 "local 'r0' is not a pointer" 'C bad
{ p=x; }
P0(int **p) {
	int r0;
	r0 = READ_ONCE(*r0);
}
exists (0:r0=1)
'
bad pointer-init 1 "initial value of 'p' must be a number or a variable" 'C bad { p=&; }
P0(int **p) { WRITE_ONCE(*p, 1); }
exists (p=1)
'
bad pointer-value 4 "expected a number or a variable after '='" 'C bad
{ p=x; }
P0(int **p) { WRITE_ONCE(*p, 1); }
exists (p=*)
'
bad rcu-dereference 5 "expected '\*', found 'p'" 'C bad
{ p=x; }
P0(int **p) {
	int *r0;
	r0 = rcu_dereference(p);
}
exists (0:r0=x)
'
bad rcu-assign 3 "'z' is not a local of P0 nor in its parameters" 'C bad
{ p=x; }
P0(int **p) { rcu_assign_pointer(*p, z); }
exists (p=x)
'
bad atomic-args 4 "expected '\)', found ','" 'C bad
{ atomic_t v = ATOMIC_INIT(1); }
P0(atomic_t *v) {
	atomic_inc(v, 1);
}
exists (v=2)
'
bad atomic-no-value 5 "atomic_inc\(\) has no value" 'C bad
{}
P0(atomic_t *v) {
	int r0;
	r0 = atomic_inc(v);
}
exists (v=2)
'
bad atomic-variant 4 "unknown macro or statement 'atomic_inc_relaxed'" 'C bad
{}
P0(atomic_t *v) {
	atomic_inc_relaxed(v);
}
exists (v=1)
'
bad atomic-init 1 "expected '\)', found ';'" 'C bad { atomic_t v = ATOMIC_INIT(1; }
P0(atomic_t *v) { atomic_inc(v); }
exists (v=2)
'
bad void-cast 4 "'WRITE' is not a call with a value" 'C bad
{}
P0(int *x) {
	(void)WRITE(*x);
}
exists (x=1)
'
bad spin-trylock 5 "expected a shared variable, found '\*'" 'C bad
{}
P0(spinlock_t *l) {
	int r0;
	r0 = spin_trylock(*l);
}
exists (0:r0=1)
'
bad spin-is-locked 5 "'m' is not declared in P0's parameters" 'C bad
{}
P0(spinlock_t *l) {
	int r0;
	r0 = spin_is_locked(m);
}
exists (0:r0=1)
'
bad after-spinlock 4 "expected '\)', found 'l'" 'C bad
{}
P0(spinlock_t *l) {
	smp_mb__after_spinlock(l);
}
exists (0:r0=1)
'
bad rcu-lock 4 "expected '\)', found 'x'" 'C bad
{}
P0(int *x) {
	rcu_read_lock(x);
}
exists (x=1)
'
bad synchronize-rcu 5 "expected ';', found 'WRITE_ONCE'" 'C bad
{}
P0(int *x) {
	synchronize_rcu()
	WRITE_ONCE(*x, 1);
}
exists (x=1)
'
bad forall-value 4 "expected a number or a variable after '='" 'C bad
{}
P0(int *x) { WRITE_ONCE(*x, 1); }
forall (x=1 \/ ~x=)
'
bad condition-operator 4 "unexpected '/' after the condition" 'C bad
{}
P0(int *x) { WRITE_ONCE(*x, 1); }
exists (x=1) / x=2
'
# a run through a local that holds no pointer stops with its line
printf 'C bad\n{}\nP0(int *x) {\n\tint *r0;\n\tr0 = READ_ONCE(*x);\n\tWRITE_ONCE(*r0, 1);\n}\nexists (x=1)\n' \
    >"$tmp/deref.litmus"
run litmus --runs 10 --platform "$src/platforms/smp4.xml" "$tmp/deref.litmus"
check_user_error "a store through a non-pointer"
case $err in
"$tmp/deref.litmus:6: P0 goes through r0, which holds 0, not a pointer"*) ;;
*) fail "a store through a non-pointer: $err" ;;
esac

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
