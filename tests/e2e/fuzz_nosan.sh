#!/bin/bash
# e2e: the libFuzzer harnesses of the two input parsers (fuzz/), under ASan,
# UBSan and LeakSanitizer. Builds them with clang (-DNUMASIM_FUZZ=ON), replays
# every seed of fuzz/corpus/ and every regression input of tests/regress/,
# then lets each harness fuzz for FUZZ_SECONDS (default 5) from a copy of its
# corpus, so that the repository is never written to. Any crash, leak, UB or
# failed check (multi-line error, ...) fails the test and leaves the input in
# the log. SKIP when clang or its libFuzzer runtime is missing.
#   FUZZ_BUILD_DIR  where to build (default: SOURCE_DIR/build-fuzz)
#   FUZZ_SECONDS    fuzzing time per harness (0: replay only)
# Usage: fuzz_nosan.sh NUMASIM_BINARY SOURCE_DIR
# (scripts/test runs it with FUZZ_SECONDS=20 as its last step.)
set -u

src=${2:?usage: fuzz_nosan.sh NUMASIM_BINARY SOURCE_DIR}
src=$(cd "$src" && pwd)
bdir=${FUZZ_BUILD_DIR:-$src/build-fuzz}
secs=${FUZZ_SECONDS:-5}
. "$src/tests/e2e/lib/common.bash"

if ! command -v clang >/dev/null 2>&1; then
    echo "SKIP: clang is not installed"
    exit 0
fi
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n; }\n' \
    >"$tmp/probe.c"
if ! clang -fsanitize=fuzzer "$tmp/probe.c" -o "$tmp/probe" 2>/dev/null; then
    echo "SKIP: clang has no libFuzzer runtime (libclang-rt-dev)"
    exit 0
fi

echo "== building the fuzzers in $bdir"
if ! CC=clang cmake -S "$src" -B "$bdir" -DNUMASIM_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug \
    >"$tmp/build.log" 2>&1 ||
    ! cmake --build "$bdir" --target fuzz_scenario fuzz_platform fuzz_litmus -j"$(nproc)" \
        >>"$tmp/build.log" 2>&1; then
    tail -30 "$tmp/build.log" >&2
    die "the fuzzers do not build"
fi

# Leaks are errors here, whatever the caller's ASAN_OPTIONS say.
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

for t in scenario platform litmus; do
    bin=$bdir/fuzz/fuzz_$t
    mkdir -p "$tmp/$t/corpus" "$tmp/$t/art"
    cp "$src/fuzz/corpus/$t/"* "$tmp/$t/corpus/"
    cp "$src/tests/regress/$t/"* "$tmp/$t/corpus/" 2>/dev/null
    n=$(find "$tmp/$t/corpus" -type f | wc -l)
    # -runs=0: run every input of the corpus once, no mutation.
    if ! "$bin" -runs=0 -rss_limit_mb=2048 -artifact_prefix="$tmp/$t/art/" \
        "$tmp/$t/corpus" >"$tmp/$t/replay.log" 2>&1; then
        grep -v '^#' "$tmp/$t/replay.log" | tail -40 >&2
        fail "fuzz_$t: replaying the $n seed and regression inputs failed"
        continue
    fi
    echo "ok: fuzz_$t: $n seed and regression inputs replayed"
    [ "$secs" -gt 0 ] || continue
    if ! "$bin" -max_total_time="$secs" -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$tmp/$t/art/" "$tmp/$t/corpus" >"$tmp/$t/fuzz.log" 2>&1; then
        grep -v '^#' "$tmp/$t/fuzz.log" | tail -40 >&2
        for a in "$tmp/$t/art/"*; do
            [ -f "$a" ] || continue
            echo "crashing input $(basename "$a") (base64; add it to tests/regress/$t/):" >&2
            base64 "$a" | head -50 >&2
        done
        fail "fuzz_$t found a crash in ${secs}s"
        continue
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$t/fuzz.log")
    cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$tmp/$t/fuzz.log" | tail -1)
    echo "ok: fuzz_$t: ${secs}s, ${execs:-?} executions, $cov, no crash"
done

echo "fuzz: $((3 - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
