# The setup that the scripts tools/sanitize*.sh and tools/fuzz*.sh share, sourced by each
# once it is at the top of the repository (not run on its own).  It gives:
#   run CMD...            prints CMD, then runs it
#   $tmp                  a temporary directory, removed when the script exits
#   sanitize_setup FLAG...
#                         for the sanitize scripts: PYTHON (default python3), CC (default
#                         clang if installed, else gcc), $include and $suffix (the headers
#                         and the extension suffix of PYTHON), $flags (an extension built
#                         with ASan and UBSan, the FLAGs among them) and $runtime (the ASan
#                         runtime to preload; the script exits 2 without one)
#   setup_sources MODULE  prints the C sources of extension MODULE (_speedups, _columns,
#                         _whatwg, _template) as setup.py lists them, one a line
#   sanitized_environment [NAME=VALUE...]
#                         exports and prints the environment of the tests under the
#                         sanitizers: the copy of the package in $tmp first on PYTHONPATH,
#                         $runtime preloaded, then each NAME=VALUE
#   fuzz_setup            for the fuzz scripts of an embedded interpreter: seconds (the
#                         first argument, default 60), CC (default clang), PYTHON (default
#                         python3), dir (URIKIT_FUZZ_DIR, default build/fuzz), $include,
#                         $fuzz_flags (a libFuzzer target under ASan and UBSan),
#                         $python_link (the link to PYTHON's libpython) and $fuzz_options
#                         (the bounds of a run)
#   seed_lines FILE DIR   one seed file in DIR per line of FILE, without its line end

name=$(basename "$0")

run() {
    printf '+ %s\n' "$*"
    "$@"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sanitize_setup() {
    PYTHON=${PYTHON:-python3}
    if [[ -z "${CC:-}" ]]; then
        if command -v clang >/dev/null; then CC=clang; else CC=gcc; fi
    fi
    include=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
    suffix=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
    flags=(-std=c11 -O1 -g -Wall -Wextra -Werror -shared -fPIC "$@"
           -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
    if "$CC" --version | grep -q clang; then
        # The shared ASan runtime, so the extension can be loaded into a plain python.
        flags+=(-shared-libasan)
        runtime=$("$CC" -print-file-name="libclang_rt.asan-$(uname -m).so")
    else
        runtime=$("$CC" -print-file-name=libasan.so)
    fi
    if [[ ! -e "$runtime" ]]; then
        echo "$name: no ASan runtime for $CC (looked for $runtime)" >&2
        exit 2
    fi
}

setup_sources() {
    "$PYTHON" - "$1" <<'PY'
import sys
from unittest import mock

import setuptools

with mock.patch.object(setuptools, "setup"):
    import setup
print("\n".join(getattr(setup, sys.argv[1].removeprefix("_")).sources))
PY
}

sanitized_environment() {
    export PYTHONPATH="$tmp${PYTHONPATH:+:$PYTHONPATH}"
    export LD_PRELOAD="$runtime"
    export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:strict_string_checks=1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    export PYTHONMALLOC=malloc
    export URIKIT_REQUIRE_EXTENSION=1
    local pair
    for pair in "$@"; do
        export "${pair?}"
    done
    echo "+ PYTHONPATH=$PYTHONPATH LD_PRELOAD=$LD_PRELOAD ASAN_OPTIONS=$ASAN_OPTIONS" \
         "UBSAN_OPTIONS=$UBSAN_OPTIONS PYTHONMALLOC=$PYTHONMALLOC URIKIT_REQUIRE_EXTENSION=1" "$@"
}

fuzz_setup() {
    seconds=${1:-60}
    CC=${CC:-clang}
    PYTHON=${PYTHON:-python3}
    dir=${URIKIT_FUZZ_DIR:-build/fuzz}
    include=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
    local libdir version
    libdir=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_config_var("LIBDIR"))')
    version=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_config_var("VERSION"))')
    fuzz_flags=(-std=c11 -O1 -g -Wall -Wextra -Werror
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
                -fno-omit-frame-pointer)
    python_link=(-L"$libdir" -Wl,-rpath,"$libdir" -l"python$version" -ldl -lm)
    fuzz_options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096
                  -print_final_stats=1)
}

seed_lines() {
    awk -v dir="$2" '{ f = sprintf("%s/%05d", dir, NR); printf "%s", $0 > f; close(f) }' "$1"
}
