#!/usr/bin/env bash
# Build urikit._whatwg (src/urikit/_c/whatwg/) with AddressSanitizer and
# UndefinedBehaviorSanitizer into a temporary copy of the package, with urikit._speedups
# (the seam uses the compiled modules only beside it), then run the tests of
# the WHATWG reading against it: the web-platform-tests on both implementations, the laws,
# and the differential tests of the compiled parser (and its Punycode decoder) against the
# readable one.
# Any sanitizer report aborts the run (-fno-sanitize-recover=all) and fails the script.
# The twin of tools/sanitize.sh, for the extension of its own.
#
# Usage: tools/sanitize_whatwg.sh [pytest arguments...]
# Environment: PYTHON (default python3; needs pytest and hypothesis, and its headers),
#              CC (default clang if installed, else gcc).
# Installs nothing.  Needs, on Debian: gcc (its libasan and libubsan come with it), or
# clang plus libclang-rt-14-dev.
set -euo pipefail
cd "$(dirname "$0")/.."

source tools/_sanitizers.sh
sanitize_setup

# A copy of the pure-Python package without any compiled extension, plus the sanitized ones.
run cp -r src/urikit "$tmp/urikit"
run rm -f "$tmp"/urikit/*.so "$tmp"/urikit/*.pyd
for module in _speedups _whatwg; do
    mapfile -t sources < <(setup_sources "$module")
    run "$CC" "${flags[@]}" -I"$include" "${sources[@]}" -o "$tmp/urikit/$module$suffix"
done

sanitized_environment URIKIT_SANITIZED=1
run "$PYTHON" -c "
import sys, urikit._whatwg as w
if not w.__file__.startswith(sys.argv[1]):
    sys.exit(f'sanitize_whatwg.sh: imported {w.__file__}, not the sanitized build')
print('sanitized build:', w.__file__)
" "$tmp"
# --capture=sys: a report written to fd 2 must reach the terminal, not a capture file.
run "$PYTHON" -m pytest -p no:cacheprovider -q --capture=sys -n 0 \
    tests/test_whatwg_compiled.py tests/test_whatwg_wpt.py tests/test_whatwg.py \
    tests/test_punycode.py "$@"
echo "sanitize_whatwg.sh: no sanitizer reports"
