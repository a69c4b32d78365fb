#!/usr/bin/env bash
# Build the libFuzzer target tests/fuzz/template_fuzz.c (URI Templates in C, from
# src/urikit/_c/template/, with an embedded interpreter for the allocator, the readable
# syntax check it is compared with and the router it matches against) under ASan and
# UBSan, with the invariant assertions (-DURIKIT_ASSERTS), and run it for a bounded time,
# seeded with the templates and expansions of tests/vectors/uritemplate-test/.
# Exits non-zero on a crash, an invariant failure, a sanitizer report, a timeout or OOM.
# The twin of tools/fuzz_whatwg.sh, for the extension of its own.
#
# Usage: tools/fuzz_template.sh [SECONDS]     (default 60)
# Environment: CC (default clang), PYTHON (default python3: its headers and libpython),
#              URIKIT_FUZZ_DIR (default build/fuzz: the corpus grown across runs, and
#              crash artefacts under artifacts/).
# Installs nothing.  Needs, on Debian: clang and libclang-rt-14-dev.
set -euo pipefail
cd "$(dirname "$0")/.."

source tools/_sanitizers.sh
fuzz_setup "$@"
# The interpreter embedded in the target finds its standard library where PYTHON's is.
home=$("$PYTHON" -c 'import sys; print(sys.base_prefix)')

run mkdir -p "$dir/template_corpus" "$dir/artifacts"
sources=(src/urikit/_c/template/{syntax,router,build}.c)
run "$CC" "${fuzz_flags[@]}" -DURIKIT_ASSERTS -Isrc/urikit/_c/template -I"$include" \
    tests/fuzz/template_fuzz.c "${sources[@]}" "${python_link[@]}" -o "$tmp/template_fuzz"

# One seed file per template and per expansion of the uritemplate-test suite.
echo "+ seeds: tests/vectors/uritemplate-test/*.json -> $tmp/seeds/"
mkdir "$tmp/seeds"
"$PYTHON" - "$tmp/seeds" <<'PY'
import json, sys
from pathlib import Path
texts = set()
for path in sorted(Path("tests/vectors/uritemplate-test").glob("*.json")):
    for group in json.loads(path.read_text(encoding="utf-8")).values():
        for template, expected in group["testcases"]:
            texts.add(template)
            texts.update(e for e in (expected if isinstance(expected, list) else [expected])
                         if isinstance(e, str))
for i, text in enumerate(sorted(texts)):
    Path(sys.argv[1], f"{i:05d}").write_bytes(text.encode("utf-8", "surrogatepass"))
PY

export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export PYTHONMALLOC=malloc
export PYTHONHOME="$home"
echo "+ ASAN_OPTIONS=$ASAN_OPTIONS UBSAN_OPTIONS=$UBSAN_OPTIONS PYTHONMALLOC=$PYTHONMALLOC" \
     "PYTHONHOME=$PYTHONHOME"
run "$tmp/template_fuzz" "${fuzz_options[@]}" -dict=tests/fuzz/template.dict \
    -artifact_prefix="$dir/artifacts/template-" "$dir/template_corpus" "$tmp/seeds"
echo "fuzz_template.sh: no crash in ${seconds}s"
