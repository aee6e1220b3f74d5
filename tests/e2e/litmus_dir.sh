#!/bin/bash
# e2e: `numasim litmus DIR...`: every .litmus under a directory (sorted,
# subdirectories too), the Observation lines, then the summary; the kernel's
# "Result:" comment compared with each outcome (--expect: the table; -o: the
# same as CSV, written atomically); a "Never" that shows is exit 1.
# A single file prints no summary (its output is as before).
# Usage: litmus_dir.sh NUMASIM_BINARY SOURCE_DIR
set -u
numasim=${1:?usage: litmus_dir.sh NUMASIM_BINARY SOURCE_DIR}
src=${2:?usage: litmus_dir.sh NUMASIM_BINARY SOURCE_DIR}
. "$src/tests/e2e/lib/common.bash"
smp4=$src/platforms/smp4.xml

# Our own tests with the kernel's comment: SB's relaxed outcome is Sometimes
# under tso, MP+rel+acq's Never.
mkdir -p "$tmp/d/sub" "$tmp/bad"
sed 's/^ \* numasim-expect:.*/ * Result: Sometimes/' "$src/litmus/SB.litmus" >"$tmp/d/SB.litmus"
sed 's/^ \* numasim-expect:.*/ * Result: Never/' "$src/litmus/MP+rel+acq.litmus" >"$tmp/d/sub/MP+rel+acq.litmus"
cp "$src/litmus/R.litmus" "$tmp/d/sub/R.litmus" # no Result: compared with nothing
echo "not a test" >"$tmp/d/notes.txt"
grep -q "Result: Sometimes" "$tmp/d/SB.litmus" && grep -q "Result: Never" "$tmp/d/sub/MP+rel+acq.litmus" ||
    die "the Result: comments were not written"

run litmus --runs 500 --platform "$smp4" --set memory_model=tso --expect -o "$tmp/out.csv" "$tmp/d"
[ "$rc" -eq 0 ] || fail "directory: exit $rc: $err"
[ "$(grep -c '^Observation' <<<"$out")" -eq 3 ] || fail "directory: not 3 tests run: $out"
# sorted, subdirectories included
[ "$(grep '^Observation' <<<"$out" | cut -d' ' -f2 | tr '\n' ' ')" = "SB MP+rel+acq R " ] ||
    fail "directory: not in the order SB, sub/MP+rel+acq, sub/R: $out"
grep -qE '^SB +Sometimes +Sometimes +[0-9]+ +[0-9]+  agrees$' <<<"$out" || fail "--expect: SB row: $out"
grep -qE '^MP\+rel\+acq +Never +Never +0 +500  agrees$' <<<"$out" || fail "--expect: MP row: $out"
grep -qE '^R +- +Sometimes .* -$' <<<"$out" || fail "--expect: R row (no Result): $out"
grep -q '^Summary: 3 tests, 3 run; 2 with a Result: 2 agree, 0 Sometimes not seen, 0 forbidden seen$' <<<"$out" ||
    fail "summary: $(tail -1 <<<"$out")"
[ "$(head -1 "$tmp/out.csv")" = "test,file,machine,runs,result,observation,positive,negative,verdict" ] ||
    fail "csv header: $(head -1 "$tmp/out.csv")"
grep -q "^MP+rel+acq,$tmp/d/sub/MP+rel+acq.litmus,smp4 memory_model=tso,500,Never,Never,0,500,agrees$" \
    "$tmp/out.csv" || fail "csv row: $(cat "$tmp/out.csv")"
[ "$(wc -l <"$tmp/out.csv")" -eq 4 ] || fail "csv: not 4 lines"
ls "$tmp"/out.csv.tmp* >/dev/null 2>&1 && fail "csv: a temporary file is left"

# a path with a comma is one quoted CSV field
mkdir -p "$tmp/c,d"
cp "$tmp/d/SB.litmus" "$tmp/c,d/SB.litmus"
run litmus --runs 10 --platform "$smp4" -o "$tmp/comma.csv" "$tmp/c,d"
[ "$rc" -eq 0 ] && grep -q "^SB,\"$tmp/c,d/SB.litmus\",smp4,10," "$tmp/comma.csv" ||
    fail "csv quoting: $rc $(cat "$tmp/comma.csv")"

# a Never that shows: SB marked Never under tso is exit 1, said in the table
sed 's/^ \* numasim-expect:.*/ * Result: Never/' "$src/litmus/SB.litmus" >"$tmp/bad/SB.litmus"
run litmus --runs 500 --platform "$smp4" --set memory_model=tso --expect "$tmp/bad" "$tmp/d/SB.litmus"
[ "$rc" -eq 1 ] || fail "forbidden seen: exit $rc, not 1"
grep -qE '^SB +Never +Sometimes .* FORBIDDEN$' <<<"$out" || fail "forbidden seen: no FORBIDDEN row: $out"
grep -q ', 1 forbidden seen$' <<<"$out" || fail "forbidden seen: summary: $(tail -1 <<<"$out")"
# ... also for a single file (no summary then)
run litmus --runs 500 --platform "$smp4" --set memory_model=tso "$tmp/bad/SB.litmus"
[ "$rc" -eq 1 ] && ! grep -q '^Summary' <<<"$out" || fail "single forbidden file: exit $rc: $out"
# under sc it does not show: exit 0
run litmus --runs 500 --platform "$smp4" --set memory_model=sc "$tmp/bad/SB.litmus"
[ "$rc" -eq 0 ] || fail "sc: exit $rc"

# bad input: an empty directory, an unwritable CSV
mkdir -p "$tmp/empty"
run litmus --runs 10 --platform "$smp4" "$tmp/empty"
check_user_error "empty directory"
grep -q "no .litmus file" <<<"$err" || fail "empty directory: $err"
run litmus --runs 10 --platform "$smp4" -o "$tmp/nodir/x.csv" "$tmp/d"
[ "$rc" -eq 2 ] && [ ! -e "$tmp/nodir/x.csv" ] || fail "unwritable csv: exit $rc: $err"

# natively: tests with more processes than CPUs are skipped, not errors
if [ "$(nproc)" -ge 2 ]; then
    run litmus --native --cpus 0-1 --runs 100 "$src/litmus/IRIW.litmus" "$src/litmus/SB.litmus"
    [ "$rc" -eq 0 ] || fail "native skip: exit $rc: $err"
    grep -q '^Skipped IRIW: needs 4 CPUs, the host gives 2$' <<<"$out" || fail "native skip: $out"
    grep -q '^Summary: 2 tests, 1 run, 1 skipped' <<<"$out" || fail "native skip summary: $out"
fi
exit $((fails > 0))
