#!/usr/bin/env bash
# Builds pcc (installing what is missing) and runs a program on the cpu
# backend, printing its results as NumPy does:
#   scripts/run.sh examples/psum.mlir [ARG.npy ...] [pcc run options]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh" pcc
exec "${PCC_BUILD_DIR:-$root/build}/bin/pcc" run "$@"
