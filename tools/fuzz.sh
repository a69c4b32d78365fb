#!/usr/bin/env bash
# Build the libFuzzer targets tests/fuzz/scan_fuzz.c (the scanner of the compiled core in
# src/urikit/_c, every reader of it, and its error locator) and tests/fuzz/ops_fuzz.c (its
# RFC operations: resolution, normalization, remove_dot_segments, percent-encoding) under
# ASan and UBSan, with the invariant assertions of the C compiled in (-DUK_CHECKS=1), and
# run each for a bounded time, seeded with bench/urls.txt (and, for the operations,
# bench/pairs.txt).  Exits non-zero on a crash, an invariant failure, a sanitizer report,
# a timeout or OOM.
#
# Usage: tools/fuzz.sh [SECONDS]     (default 60, for each target)
# Environment: CC (default clang), URIKIT_FUZZ_DIR (default build/fuzz: the corpus of each
#              target grown across runs, and crash artefacts under artifacts/).
# Installs nothing.  Needs, on Debian: clang and libclang-rt-14-dev (libFuzzer and the
# sanitizer runtimes of clang 14; use the libclang-rt-N-dev matching clang-N).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
CC=${CC:-clang}
dir=${URIKIT_FUZZ_DIR:-build/fuzz}

source tools/_sanitizers.sh

c=src/urikit/_c
# The units each target links: the scanner and the locator; the operations.
declare -A units=(
    [scan_fuzz]="$c/scan.c $c/locate.c $c/classes.c"
    [ops_fuzz]="$c/scan.c $c/ops.c $c/percent.c $c/classes.c"
)
run mkdir -p "$dir/corpus" "$dir/ops_corpus" "$dir/artifacts"
for target in scan_fuzz ops_fuzz; do
    # shellcheck disable=SC2086  # the units are words
    run "$CC" -std=c11 -O1 -g -Wall -Wextra -Werror -DUK_CHECKS=1 \
        -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
        -I"$c" "tests/fuzz/$target.c" ${units[$target]} -o "$tmp/$target"
done

# One seed file per corpus URL (and per base<TAB>reference pair), without its line end.
echo "+ awk: bench/urls.txt -> $tmp/seeds/NNNNN, bench/pairs.txt -> $tmp/pairs/NNNNN"
mkdir "$tmp/seeds" "$tmp/pairs"
seed_lines bench/urls.txt "$tmp/seeds"
seed_lines bench/pairs.txt "$tmp/pairs"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
echo "+ ASAN_OPTIONS=$ASAN_OPTIONS UBSAN_OPTIONS=$UBSAN_OPTIONS"
run "$tmp/scan_fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=4096 -dict=tests/fuzz/scan.dict -print_final_stats=1 \
    -artifact_prefix="$dir/artifacts/" "$dir/corpus" "$tmp/seeds"
run "$tmp/ops_fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=4096 -dict=tests/fuzz/ops.dict -print_final_stats=1 \
    -artifact_prefix="$dir/artifacts/ops-" "$dir/ops_corpus" "$tmp/pairs" "$tmp/seeds"
echo "fuzz.sh: no crash in ${seconds}s for each target"
