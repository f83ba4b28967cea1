#!/usr/bin/env bash
# Runs each libFuzzer harness (fuzz/) for SECONDS (default 60) from its seed
# corpus, under ASan and UBSan. A crash fails the script and leaves the
# input that caused it in build/fuzz-artifacts/ (rerun it with
# build/bin/fuzz-NAME FILE; then make it a regression test).
#   scripts/fuzz.sh [SECONDS]          (PCC_BUILD_DIR overrides ./build)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PCC_BUILD_DIR:-$root/build}
seconds=${1:-60}

"$root/scripts/setup.sh" pcc-fuzzers
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$build/fuzz-artifacts"
/usr/bin/python3 "$root/fuzz/make_seeds.py" "$work/seeds"
for name in npy format; do
  echo "fuzz-$name: ${seconds} s" >&2
  mkdir -p "$work/corpus-$name"
  "$build/bin/fuzz-$name" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$build/fuzz-artifacts/$name-" \
    "$work/corpus-$name" "$work/seeds/$name" 2>&1 |
    grep -E "^(stat::|#[0-9]+[[:space:]]+DONE|==[0-9]+==|SUMMARY|artifact_prefix)" >&2
done
