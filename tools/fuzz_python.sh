#!/usr/bin/env bash
# Fuzz urikit's Python API with atheris: every target of tests/fuzz/targets.py for a
# bounded time, seeded from bench/urls.txt, with the dictionary tests/fuzz/uri.dict.
# Exits non-zero when a target crashes (an undocumented exception or a broken law),
# times out or runs out of memory, after printing each reproducer's path and the
# command that replays it.
#
# Usage: tools/fuzz_python.sh [SECONDS] [TARGET...]   (default 180, split over the targets)
# Environment: PYTHON (default python3: urikit and atheris importable),
#              URIKIT_FUZZ_DIR (default build/fuzz-python: the corpus grown across runs,
#              one directory per target, and crash artefacts under artifacts/).
# Installs nothing.  atheris has wheels for CPython 3.8-3.11 on Linux:
#              pip install -e '.[fuzz]'.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-180}
shift || true
PYTHON=${PYTHON:-python3}
dir=${URIKIT_FUZZ_DIR:-build/fuzz-python}
driver=tests/fuzz/fuzz_python.py

if ! "$PYTHON" -c 'import atheris, urikit' 2>/dev/null; then
    echo "fuzz_python.sh: $PYTHON cannot import atheris and urikit" >&2
    exit 2
fi
if [[ $# -gt 0 ]]; then
    targets=("$@")
else
    mapfile -t targets < <("$PYTHON" "$driver" --list 2>/dev/null)
fi
if [[ ${#targets[@]} -eq 0 ]]; then
    echo "fuzz_python.sh: no targets ($PYTHON $driver --list)" >&2
    exit 2
fi
each=$(( seconds / ${#targets[@]} ))
(( each >= 1 )) || each=1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$dir/artifacts"
touch "$tmp/start"

failed=()
for target in "${targets[@]}"; do
    mkdir -p "$dir/corpus/$target"
    if ! "$PYTHON" "$driver" --seeds "$tmp/seeds-$target" "$target" 2>"$tmp/log"; then
        grep -v '^INFO: Instrumenting' "$tmp/log" >&2
        exit 2
    fi
    echo "+ $target: ${each}s"
    # -timeout: seconds for one input; a slower one is reported as a timeout crash.
    if ! "$PYTHON" "$driver" "$target" -max_total_time="$each" -timeout=10 \
        -rss_limit_mb=2048 -max_len=4096 -dict=tests/fuzz/uri.dict -print_final_stats=1 \
        -artifact_prefix="$dir/artifacts/$target-" \
        "$dir/corpus/$target" "$tmp/seeds-$target" >"$tmp/log" 2>&1; then
        grep -v '^INFO: Instrumenting' "$tmp/log" | tail -n 40
        failed+=("$target")
    else
        grep -E '^(Done|stat::number_of_executed_units|stat::new_units_added)' "$tmp/log" || true
    fi
done

if (( ${#failed[@]} )); then
    echo "fuzz_python.sh: crashes in: ${failed[*]}" >&2
    for target in "${failed[@]}"; do
        find "$dir/artifacts" -name "$target-*" -newer "$tmp/start" | while read -r artifact; do
            echo "reproducer: $artifact" >&2
            echo "  replay: $PYTHON $driver $target $artifact" >&2
        done
    done
    exit 1
fi
echo "fuzz_python.sh: no crash in ${seconds}s over ${#targets[@]} targets"
