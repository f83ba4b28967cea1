#!/usr/bin/env bash
# Runs each libFuzzer harness (fuzz/) for SECONDS (default 60) from its seed
# corpus, in the sanitizer build (ASan, UBSan; scripts/setup.sh --sanitize).
# A crash fails the script and leaves the input that caused it in
# build-asan/fuzz-artifacts/ (rerun it with build-asan/bin/fuzz-NAME FILE;
# then make it a regression test).
#   scripts/fuzz.sh [SECONDS] [NAME...]   (NAME: npy, format, pipeline; all
#                                          by default)
# PCC_ASAN_BUILD_DIR overrides ./build-asan; PCC_FUZZ_CORPUS=DIR keeps the
# corpora in DIR/NAME across runs instead of a temporary directory. The
# random seed is fixed (PCC_FUZZ_SEED, default 1), so that CI's runs are
# reproducible: a short run tries the first inputs of any longer run with
# the same seed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PCC_ASAN_BUILD_DIR:-$root/build-asan}
seconds=${1:-60}
shift || true
names=("$@")
((${#names[@]})) || names=(npy format pipeline)

"$root/scripts/setup.sh" --sanitize pcc-fuzzers
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
corpora=${PCC_FUZZ_CORPUS:-$work}
mkdir -p "$build/fuzz-artifacts"
/usr/bin/python3 "$root/fuzz/make_seeds.py" "$work/seeds"
for name in "${names[@]}"; do
  options=()
  if [ "$name" = pipeline ]; then
    # Its rejections print nothing, but MLIR and LLVM may: keep the output to
    # libFuzzer's own and the sanitizers' reports. A program pcc accepts
    # must lower within seconds.
    options=(-dict="$root/fuzz/pipeline.dict" -close_fd_mask=3 -timeout=30
             -rss_limit_mb=4096)
  fi
  echo "fuzz-$name: ${seconds} s" >&2
  mkdir -p "$corpora/$name"
  "$build/bin/fuzz-$name" -max_total_time="$seconds" -print_final_stats=1 \
    -seed="${PCC_FUZZ_SEED:-1}" \
    -artifact_prefix="$build/fuzz-artifacts/$name-" "${options[@]}" \
    "$corpora/$name" "$work/seeds/$name" 2>&1 |
    grep -E "^(stat::|#[0-9]+[[:space:]]+DONE|==[0-9]+==|SUMMARY|artifact_prefix)" >&2
done
