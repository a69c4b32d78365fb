#!/usr/bin/env bash
# Build urikit._template (src/urikit/_c/template/) with AddressSanitizer,
# UndefinedBehaviorSanitizer and its invariant assertions (-DURIKIT_ASSERTS) into a
# temporary copy of the package, with urikit._speedups (the seam uses the compiled
# modules only beside it), then run the tests of URI Templates against it: both
# implementations, the Hypothesis differential of the C against the readable Python, the
# RFC 6570 examples, the uritemplate-test suite and the laws.
# Any sanitizer report aborts the run (-fno-sanitize-recover=all) and fails the script.
# The twin of tools/sanitize_whatwg.sh, for the extension of its own.
#
# Usage: tools/sanitize_template.sh [pytest arguments...]
# Environment: PYTHON (default python3; needs pytest and hypothesis, and its headers),
#              CC (default clang if installed, else gcc).
# Installs nothing.  Needs, on Debian: gcc (its libasan and libubsan come with it), or
# clang plus libclang-rt-14-dev.
set -euo pipefail
cd "$(dirname "$0")/.."

source tools/_sanitizers.sh
sanitize_setup -DURIKIT_ASSERTS

# A copy of the pure-Python package without any compiled extension, plus the sanitized ones.
run cp -r src/urikit "$tmp/urikit"
run rm -f "$tmp"/urikit/*.so "$tmp"/urikit/*.pyd
for module in _speedups _template; do
    mapfile -t sources < <(setup_sources "$module")
    run "$CC" "${flags[@]}" -I"$include" "${sources[@]}" -o "$tmp/urikit/$module$suffix"
done

sanitized_environment URIKIT_SANITIZED=1
run "$PYTHON" -c "
import sys, urikit._template as t, urikit.template.backend as b
if not t.__file__.startswith(sys.argv[1]):
    sys.exit(f'sanitize_template.sh: imported {t.__file__}, not the sanitized build')
if not b.compiled:
    sys.exit('sanitize_template.sh: urikit.template does not use the compiled core')
print('sanitized build:', t.__file__)
" "$tmp"
# --capture=sys: a report written to fd 2 must reach the terminal, not a capture file.
run "$PYTHON" -m pytest -p no:cacheprovider -q --capture=sys -n 0 \
    tests/test_template_compiled.py tests/test_template.py tests/test_template_laws.py "$@"
echo "sanitize_template.sh: no sanitizer reports"
