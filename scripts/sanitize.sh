#!/usr/bin/env bash
# Builds pcc, pcc-opt and the runtime with AddressSanitizer and
# UndefinedBehaviorSanitizer throughout (the sanitizer build, build-asan/,
# see scripts/setup.sh --sanitize) and runs the whole lit suite against
# them (the NumPy oracle runs a third of its cases there: test/lit.cfg.py):
# any report fails a test. The runtime's own tests run under TSan and
# ASan in the normal build (scripts/test.sh).
#   scripts/sanitize.sh          (PCC_ASAN_BUILD_DIR overrides ./build-asan)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
"$root/scripts/setup.sh" --sanitize check-pcc
