#!/usr/bin/env bash
# Builds pcc (installing what is missing) and runs every test.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
cmake --build "${PCC_BUILD_DIR:-$root/build}" --target check-pcc
