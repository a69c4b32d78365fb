#!/usr/bin/env bash
# Build urikit._speedups, urikit._columns, urikit._whatwg and urikit._template (the units
# of src/urikit/_c, as setup.py lists them) with AddressSanitizer and UndefinedBehaviorSanitizer
# and the invariant assertions of
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

source tools/_sanitizers.sh
sanitize_setup -fvisibility=hidden -DUK_NARROW_MAX=24 -DUK_CHECKS=1

# A copy of the pure-Python package without any compiled extension, plus the sanitized one.
run cp -r src/urikit "$tmp/urikit"
run rm -rf "$tmp"/urikit/*.so "$tmp"/urikit/*.pyd "$tmp"/urikit/_c
# The sources of each module, from setup.py.
for module in _speedups _columns _whatwg _template; do
    mapfile -t sources < <(setup_sources "$module")
    run "$CC" "${flags[@]}" -I"$include" "${sources[@]}" -o "$tmp/urikit/$module$suffix"
done

# Arrow's own allocators would hide its buffers from AddressSanitizer.  The linear-time
# tests run their hostile inputs here but assert no CPU-time ratio, which these allocators
# distort (URIKIT_SANITIZED, tests/linear.py).
sanitized_environment ARROW_DEFAULT_MEMORY_POOL=system URIKIT_SANITIZED=1
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
