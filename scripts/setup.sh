#!/usr/bin/env bash
# Installs the Debian packages pcc needs (only those missing), configures the
# build directory once, and builds the targets given as arguments. Safe to
# rerun: nothing is reinstalled and the build is incremental.
#   scripts/setup.sh [TARGET...]      (PCC_BUILD_DIR overrides ./build)
#   scripts/setup.sh --sanitize [TARGET...]
# --sanitize uses the sanitizer build instead (PCC_ASAN_BUILD_DIR overrides
# ./build-asan): clang with ASan and UBSan on all of pcc, and the coverage
# instrumentation of libFuzzer, for scripts/sanitize.sh and scripts/fuzz.sh.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PCC_BUILD_DIR:-$root/build}
configuration=()
if [ "${1:-}" = --sanitize ]; then
  shift
  build=${PCC_ASAN_BUILD_DIR:-$root/build-asan}
  configuration=(-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
                 -DLLVM_USE_SANITIZER="Address;Undefined"
                 -DLLVM_USE_SANITIZE_COVERAGE=ON)
fi

# The second-last line is for bench/ (test/bench/tiny.test runs its
# harness), the last for the fuzz harnesses (fuzz/, scripts/fuzz.sh).
packages=(cmake ninja-build g++ ccache python3-numpy libgtest-dev
          llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libjemalloc-dev
          openmpi-bin libopenmpi-dev libopenblas-dev python3-matplotlib
          python3-mpi4py
          clang-22 libclang-rt-22-dev)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
    grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    "${missing[@]}" >&2
fi

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache "${configuration[@]}" >&2
fi
if (($#)); then
  cmake --build "$build" --target "$@" >&2
fi
