#!/usr/bin/env bash
# Build the libFuzzer target tests/fuzz/whatwg_fuzz.c (the compiled WHATWG URL parser of
# src/urikit/_c/whatwg/, with an embedded interpreter for the allocator and the UTF-8
# decoder it uses) under ASan and UBSan and run it for a bounded time, seeded with
# bench/urls.txt and the inputs of tests/vectors/wpt/urltestdata.json.
# Exits non-zero on a crash, an invariant failure, a sanitizer report, a timeout or OOM.
# The twin of tools/fuzz.sh, for the extension of its own.
#
# Usage: tools/fuzz_whatwg.sh [SECONDS]     (default 60)
# Environment: CC (default clang), PYTHON (default python3: its headers and libpython),
#              URIKIT_FUZZ_DIR (default build/fuzz: the corpus grown across runs, and
#              crash artefacts under artifacts/).
# Installs nothing.  Needs, on Debian: clang and libclang-rt-14-dev.
set -euo pipefail
cd "$(dirname "$0")/.."

source tools/_sanitizers.sh
fuzz_setup "$@"

run mkdir -p "$dir/whatwg_corpus" "$dir/artifacts"
sources=(src/urikit/_c/whatwg/{buffer,host,uts46,fast,parser}.c)
run "$CC" "${fuzz_flags[@]}" -Isrc/urikit/_c/whatwg -I"$include" tests/fuzz/whatwg_fuzz.c \
    "${sources[@]}" "${python_link[@]}" -o "$tmp/whatwg_fuzz"

# One seed file per corpus URL and per input of urltestdata.json.
echo "+ seeds: bench/urls.txt and urltestdata.json -> $tmp/seeds/"
mkdir "$tmp/seeds"
seed_lines bench/urls.txt "$tmp/seeds"
"$PYTHON" - "$tmp/seeds" <<'PY'
import json, sys
from pathlib import Path
cases = json.loads(Path("tests/vectors/wpt/urltestdata.json").read_text(encoding="utf-8"))
for i, case in enumerate(c for c in cases if isinstance(c, dict)):
    Path(sys.argv[1], f"wpt{i:05d}").write_bytes(case["input"].encode("utf-8", "surrogatepass"))
PY

export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export PYTHONMALLOC=malloc
echo "+ ASAN_OPTIONS=$ASAN_OPTIONS UBSAN_OPTIONS=$UBSAN_OPTIONS PYTHONMALLOC=$PYTHONMALLOC"
run "$tmp/whatwg_fuzz" "${fuzz_options[@]}" -dict=tests/fuzz/scan.dict \
    -artifact_prefix="$dir/artifacts/whatwg-" "$dir/whatwg_corpus" "$tmp/seeds"
echo "fuzz_whatwg.sh: no crash in ${seconds}s"
