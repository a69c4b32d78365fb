#!/usr/bin/env bash
# Build urikit._speedups and urikit._columns (the units of src/urikit/_c, as setup.py lists
# them) with AddressSanitizer and UndefinedBehaviorSanitizer and the invariant assertions of
# the C (-DUK_CHECKS=1) into a temporary copy of the package, then run the tests of the
# compiled code (scanner, error locator, value type, RFC operations, lenient repairs, site
# lookup, column kernel) and the hostile inputs against them.  The build keeps int32 ends
# only for texts of at most 24 code units (-DUK_NARROW_MAX=24), so that most references take
# the road of long texts too.
# Any sanitizer report aborts the run (-fno-sanitize-recover=all) and fails the script.
#
# Usage: tools/sanitize.sh [pytest arguments...]
# Environment: PYTHON (default python3; needs pytest and hypothesis, and its headers),
#              CC (default clang if installed, else gcc).
# Installs nothing.  Needs, on Debian: gcc (its libasan and libubsan come with it), or
# clang plus libclang-rt-14-dev (the compiler-rt of that clang version).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [[ -z "${CC:-}" ]]; then
    if command -v clang >/dev/null; then CC=clang; else CC=gcc; fi
fi

run() {
    printf '+ %s\n' "$*"
    "$@"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

include=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
suffix=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')

flags=(-std=c11 -O1 -g -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden
       -DUK_NARROW_MAX=24 -DUK_CHECKS=1
       -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
if "$CC" --version | grep -q clang; then
    # The shared ASan runtime, so the extension can be loaded into a plain python.
    flags+=(-shared-libasan)
    runtime=$("$CC" -print-file-name="libclang_rt.asan-$(uname -m).so")
else
    runtime=$("$CC" -print-file-name=libasan.so)
fi
if [[ ! -e "$runtime" ]]; then
    echo "sanitize.sh: no ASan runtime for $CC (looked for $runtime)" >&2
    exit 2
fi

# A copy of the pure-Python package without any compiled extension, plus the sanitized one.
run cp -r src/urikit "$tmp/urikit"
run rm -rf "$tmp"/urikit/_speedups*.so "$tmp"/urikit/_columns*.so "$tmp"/urikit/*.pyd \
    "$tmp"/urikit/_c
# The sources of each module, from setup.py.
for module in _speedups _columns; do
    mapfile -t sources < <("$PYTHON" - "$module" <<'PY'
import sys
from unittest import mock

import setuptools

with mock.patch.object(setuptools, "setup"):
    import setup
print("\n".join({"_speedups": setup.speedups, "_columns": setup.columns}[sys.argv[1]].sources))
PY
    )
    run "$CC" "${flags[@]}" -I"$include" "${sources[@]}" -o "$tmp/urikit/$module$suffix"
done

export PYTHONPATH="$tmp${PYTHONPATH:+:$PYTHONPATH}"
export LD_PRELOAD="$runtime"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export PYTHONMALLOC=malloc
# Arrow's own allocators would hide its buffers from AddressSanitizer.
export ARROW_DEFAULT_MEMORY_POOL=system
export URIKIT_REQUIRE_EXTENSION=1
# The linear-time tests run their hostile inputs here but assert no CPU-time ratio,
# which these allocators distort (tests/linear.py).
export URIKIT_SANITIZED=1
echo "+ PYTHONPATH=$PYTHONPATH LD_PRELOAD=$LD_PRELOAD ASAN_OPTIONS=$ASAN_OPTIONS" \
     "UBSAN_OPTIONS=$UBSAN_OPTIONS PYTHONMALLOC=$PYTHONMALLOC URIKIT_REQUIRE_EXTENSION=1" \
     "URIKIT_SANITIZED=1"
run "$PYTHON" -c "
import sys, urikit._speedups as s
if not s.__file__.startswith(sys.argv[1]):
    sys.exit(f'sanitize.sh: imported {s.__file__}, not the sanitized build')
print('sanitized build:', s.__file__)
" "$tmp"
# --capture=sys: a report written to fd 2 must reach the terminal, not a capture file.
# Not DuckDB's functions: its C++ exceptions fail in the interceptors of a preloaded ASan
# runtime, before any of urikit's code runs.
run "$PYTHON" -m pytest -p no:cacheprovider -q --capture=sys -n 0 \
    tests/test_speedups.py tests/test_compiled.py tests/test_compiled_ops.py \
    tests/test_locate_compiled.py tests/test_arrow.py tests/test_hostile.py tests/test_resolve.py \
    tests/test_normalize.py tests/test_percent.py tests/test_lenient.py \
    tests/test_security_fast.py tests/test_sites.py tests/test_sites_lookup.py tests/test_generated.py \
    tests/test_column_functions.py tests/test_column_robustness.py \
    -k "not duckdb" "$@"
echo "sanitize.sh: no sanitizer reports"
