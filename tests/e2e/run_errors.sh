#!/usr/bin/env bash
# Bad input to numasim run: one line on stderr, exit code 2, no result left.
set -u
numasim=$1 src=$2
. "$src/tests/e2e/lib/common.bash"

expect2() { # expect2 NAME PATTERN ARGS...
    local name=$1 pat=$2
    shift 2
    "$numasim" run -q -o "$tmp/out.csv" "$@" > "$tmp/stdout" 2> "$tmp/stderr"
    local rc=$?
    [ $rc -eq 2 ] || die "$name: exit $rc, expected 2 ($(cat "$tmp/stderr"))"
    [ "$(wc -l < "$tmp/stderr")" -eq 1 ] || die "$name: stderr is not one line: $(cat "$tmp/stderr")"
    grep -q -- "$pat" "$tmp/stderr" || die "$name: stderr '$(cat "$tmp/stderr")' lacks '$pat'"
    [ ! -e "$tmp/out.csv" ] || die "$name: a result was written"
    ls "$tmp" | grep -q '\.tmp\.' && die "$name: temporary file left"
    grep -qi 'backtrace\|terminate called' "$tmp/stderr" && die "$name: SimGrid backtrace"
    return 0
}

plat="$src/platforms/smp4.xml"
printf '[scenario]\nplatforms = %s\n[measure]\ncalls = 10\n' "$plat" > "$tmp/ok.ini"
"$numasim" run -q -o "$tmp/ok.csv" "$tmp/ok.ini" || die "a valid scenario failed"

expect2 missing "$tmp/nope.ini: " "$tmp/nope.ini"
printf '[scenario]\nplatforms = %s\n[measure]\ncalls = ten\n' "$plat" > "$tmp/type.ini"
expect2 type "type.ini:4:" "$tmp/type.ini"
printf '[scenario]\nplatforms = %s\n[measure]\ncalls = 0\n' "$plat" > "$tmp/range.ini"
expect2 range "range.ini:4:" "$tmp/range.ini"
printf '[scenario]\nplatforms = %s\n[nosuch]\nx = 1\n' "$plat" > "$tmp/section.ini"
expect2 section "section.ini:3:" "$tmp/section.ini"
printf '[scenario]\nplatforms = %s\n[measure]\nbogus = 1\n' "$plat" > "$tmp/key.ini"
expect2 key "key.ini:4:" "$tmp/key.ini"
printf '[scenario]\nplatforms = %s\n[measure]\ncpu = 9\n' "$plat" > "$tmp/cpu.ini"
expect2 cpu "cpu.ini:4:" "$tmp/cpu.ini"
printf '[scenario]\nplatforms = nothere.xml\n' > "$tmp/plat.ini"
expect2 platform-missing "plat.ini:2:" "$tmp/plat.ini"
printf '<?xml version="1.0"?>\n<platform version="4.1">\n<zone id="x" routing="Full">\n' > "$tmp/bad.xml"
printf '[scenario]\nplatforms = bad.xml\n' > "$tmp/badplat.ini"
expect2 platform-malformed "bad.xml:" "$tmp/badplat.ini"
expect2 set-unknown "--set" --set measure.nope=1 "$tmp/ok.ini"
expect2 set-platform "platform.nope" --set platform.nope=1 "$tmp/ok.ini"
expect2 set-platform-value "hit_cycles" --set platform.hit_cycles=-3 "$tmp/ok.ini"
# the 6.1 core's keys
printf '[scenario]\nplatforms = %s\n[kernel]\ncore = 5.4\n' "$plat" > "$tmp/core.ini"
expect2 core-unknown "core.ini:4: kernel.core: unknown item '5.4'" "$tmp/core.ini"
printf '[scenario]\nplatforms = %s\n[kernel]\ncore = 6.1\nlock = mcs\nhz = 1000\n' "$plat" > "$tmp/lock.ini"
expect2 lock-unknown "lock.ini:5: kernel.lock: unknown value 'mcs'" "$tmp/lock.ini"
printf '[scenario]\nplatforms = %s\n[kernel]\nhz = 500\n' "$plat" > "$tmp/hz.ini"
expect2 hz-not-kernel "hz.ini:4: kernel.hz: 500 is not one of the kernel's HZ values" "$tmp/hz.ini"
printf '[scenario]\nplatforms = %s\n[kernel]\ncore = 6.1\n' "$plat" > "$tmp/hz61.ini"
expect2 hz-1024-61 "hz61.ini: kernel.hz = 1024 is ia64's 2.6 value" "$tmp/hz61.ini"
printf '[scenario]\nplatforms = %s\nstrategies = timer_delete_sync\n' "$plat" > "$tmp/strat.ini"
expect2 strategy-core "strat.ini:3: scenario.strategies: timer_delete_sync runs on the 6.1" "$tmp/strat.ini"
printf '[scenario]\nplatforms = %s\n[measure]\nworkload = contend\n[contend]\ncpus = 9\n' "$plat" > "$tmp/cont.ini"
expect2 contend-cpus "cont.ini:6: contend.cpus = 9, but platform smp4 has 4 CPUs" "$tmp/cont.ini"
expect2 set-core "--set: kernel.core" --set kernel.core=2.4 "$tmp/ok.ini"
"$numasim" run -q -o /proc/nonexistent/x.csv "$tmp/ok.ini" 2> "$tmp/stderr"
[ $? -eq 2 ] && [ "$(wc -l < "$tmp/stderr")" -eq 1 ] || die "unwritable output: $(cat "$tmp/stderr")"
(cd "$tmp" && "$numasim" run -q -o - "$tmp/ok.ini" > stdout 2> stderr)
[ $? -eq 2 ] && [ "$(wc -l < "$tmp/stderr")" -eq 1 ] && grep -q "give -o OUT.csv" "$tmp/stderr" ||
    die "-o -: $(cat "$tmp/stderr")"
[ ! -e "$tmp/-" ] && [ ! -e "$tmp/-.resolved.ini" ] || die "-o - wrote a file named -"
"$numasim" run 2> /dev/null; [ $? -eq 2 ] || die "no argument: not exit 2"
"$numasim" run --help | grep -q 'usage: numasim run' || die "--help"
echo "ok"
