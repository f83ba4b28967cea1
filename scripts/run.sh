#!/usr/bin/env bash
# Builds pcc (installing what is missing) and runs one program:
#   scripts/run.sh examples/psum.mlir
# For now this parses, verifies and prints the program with pcc-opt; it
# becomes `pcc run` once the CPU backend lands.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh" pcc-opt
exec "${PCC_BUILD_DIR:-$root/build}/bin/pcc-opt" "$@"
