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

flags=(-std=c11 -O1 -g -Wall -Wextra -Werror -shared -fPIC -DURIKIT_ASSERTS
       -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
if "$CC" --version | grep -q clang; then
    flags+=(-shared-libasan)
    runtime=$("$CC" -print-file-name="libclang_rt.asan-$(uname -m).so")
else
    runtime=$("$CC" -print-file-name=libasan.so)
fi
if [[ ! -e "$runtime" ]]; then
    echo "sanitize_template.sh: no ASan runtime for $CC (looked for $runtime)" >&2
    exit 2
fi

# A copy of the pure-Python package without any compiled extension, plus the sanitized ones.
run cp -r src/urikit "$tmp/urikit"
run rm -f "$tmp"/urikit/*.so "$tmp"/urikit/*.pyd
# The units of urikit._speedups as setup.py lists them.
mapfile -t speedups < <(
    "$PYTHON" - <<'PY'
from unittest import mock

import setuptools

with mock.patch.object(setuptools, "setup"):
    import setup
print("\n".join(setup.speedups.sources))
PY
)
run "$CC" "${flags[@]}" -I"$include" "${speedups[@]}" -o "$tmp/urikit/_speedups$suffix"
sources=(src/urikit/_c/template/{syntax,router,build,module}.c)
run "$CC" "${flags[@]}" -I"$include" "${sources[@]}" -o "$tmp/urikit/_template$suffix"

export PYTHONPATH="$tmp${PYTHONPATH:+:$PYTHONPATH}"
export LD_PRELOAD="$runtime"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export PYTHONMALLOC=malloc
export URIKIT_REQUIRE_EXTENSION=1
export URIKIT_SANITIZED=1
echo "+ PYTHONPATH=$PYTHONPATH LD_PRELOAD=$LD_PRELOAD ASAN_OPTIONS=$ASAN_OPTIONS" \
     "UBSAN_OPTIONS=$UBSAN_OPTIONS PYTHONMALLOC=$PYTHONMALLOC URIKIT_REQUIRE_EXTENSION=1" \
     "URIKIT_SANITIZED=1"
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
