#!/usr/bin/env bash
# Builds pcc, pcc-opt and the runtime with AddressSanitizer and
# UndefinedBehaviorSanitizer throughout (build-asan/) and runs the whole lit
# suite against them: any report fails a test. The runtime's own tests run
# under TSan and ASan in the normal build (scripts/test.sh).
#   scripts/sanitize.sh          (PCC_ASAN_BUILD_DIR overrides ./build-asan)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PCC_ASAN_BUILD_DIR:-$root/build-asan}

"$root/scripts/setup.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DLLVM_USE_SANITIZER="Address;Undefined" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >&2
fi
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cmake --build "$build" --target check-pcc
