#!/bin/sh
# mpirun as the tests, benchmarks and fuzzer run it: allowed as root, with
# more processes than cores, and with a temporary directory of its own.
#
# Open MPI 4 keeps each job's files under $TMPDIR/ompi.<host>.<uid>, a
# directory that every mpirun of the user creates if absent and removes
# when empty; two started at once in the same $TMPDIR race on it and one
# fails ("A call to mkdir was unable to create the desired directory ...
# File exists"). Test runners and benchmarks start several at once.
#
# usage: scripts/mpirun.sh MPIRUN_ARGUMENTS...
private=$(mktemp -d "${TMPDIR:-/tmp}/mpirun.XXXXXX") || exit 1
trap 'rm -rf "$private"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
TMPDIR=$private mpirun --allow-run-as-root --oversubscribe "$@"
