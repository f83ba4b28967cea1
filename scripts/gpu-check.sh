#!/usr/bin/env bash
# Every check of the cuda backend that needs a GPU, in two halves, because
# the GPU machine has no LLVM/MLIR (docs/design.md, "Testing the cuda
# backend"):
#
#   scripts/gpu-check.sh prepare   here: builds pcc, compiles every
#                                  end-to-end test program and the GPU
#                                  benchmarks (bench/gpu.py) with
#                                  `pcc compile --backend=cuda` into
#                                  gpu-check/bundle.tar.xz (the cpu backend
#                                  runs the same tests meanwhile)
#   scripts/gpu-check.sh run       on the GPU machine, from a copy of this
#                                  tree that carries gpu-check/: runs the
#                                  cuda runtime's tests and every test
#                                  program against the same NumPy oracles
#                                  and expected outputs as on cpu, 1 device
#                                  natively and 2-16 with --oversubscribe;
#                                  the examples on 2 processes (mpirun,
#                                  where the machine has Open MPI: NCCL
#                                  across processes with a GPU per device,
#                                  the host's collective otherwise); a
#                                  traced run; then the benchmarks, whose
#                                  table goes to $OUT/gpu-benchmarks.md
#   scripts/gpu-check.sh rehearse  here: both halves on the simulated GPU
#                                  (--backend=cuda-sim, one simulated GPU,
#                                  as on the lent machine): the same
#                                  programs, oracles and expected outputs,
#                                  cuda-sim-tests for the runtime's tests,
#                                  no benchmarks
#
# With the device tool: run `bash scripts/gpu-check.sh run` with carry
# ["gpu-check"]. Logs go to $OUT (when set) and standard output; the exit
# status is 0 only if every check passed.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
check_dir=$root/gpu-check

prepare() {
  set -e
  local build=${PCC_BUILD_DIR:-$root/build}
  local backend=${PCC_GPU_CHECK_BACKEND:-cuda} runtime_tests=cuda-runtime-tests
  [[ $backend == cuda-sim ]] && runtime_tests=cuda-sim-tests
  "$root/scripts/setup.sh" pcc PCCProgramMain "$runtime_tests"
  rm -rf "$check_dir" && mkdir -p "$check_dir/bundle"
  local bundle=$check_dir/bundle
  export PCC=$build/bin/pcc PCC_VIA=record PCC_VIA_BUNDLE=$bundle/programs \
    PCC_VIA_FLAGS=--backend=$backend
  local via=$root/test/Inputs/pcc_via.py inputs=$root/test/pcc/Inputs
  local python=/usr/bin/python3 work=$check_dir/work
  "$python" "$inputs/oracle.py" "$via"
  "$python" "$inputs/linalg_ops.py" "$via" "$inputs/linalg_ops.mlir" "$work/linalg"
  "$python" "$inputs/math_ops.py" "$via" "$inputs/math_ops.mlir" "$work/math"
  "$python" "$inputs/train_step.py" "$via" "$root/examples/train_step.mlir" "$work/train"
  # An index out of bounds in a kernel: a located error, exit status 1.
  mkdir -p "$bundle/faults"
  "$PCC" compile "$root/test/CUDA/Inputs/gather.mlir" --backend="$backend" \
    -o "$bundle/faults/gather"
  "$python" -c "import numpy as np, sys; np.save(sys.argv[1] + '/x.npy', np.arange(8, dtype=np.float32)); np.save(sys.argv[1] + '/bad.npy', np.array([1, 3, 9, 7]))" \
    "$bundle/faults"
  # A traced program: every device's timeline (test/pcc/trace.test).
  mkdir -p "$bundle/trace"
  "$PCC" compile "$inputs/trace_program.mlir" --backend="$backend" \
    -o "$bundle/trace/program"
  "$python" -c "import numpy as np, sys; np.save(sys.argv[1] + '/a.npy', np.full((4, 1024), -10, np.float32))" \
    "$bundle/trace"
  # The examples without arguments, with their cpu output as the expectation.
  mkdir -p "$bundle/examples"
  for example in psum pmean all_gather grid; do
    "$PCC" compile "$root/examples/$example.mlir" --backend="$backend" \
      -o "$bundle/examples/$example"
    "$PCC" run "$root/examples/$example.mlir" --backend=cpu \
      > "$bundle/examples/$example.expected"
  done
  # Writes in kernels' bodies into copies of their own (the device heap),
  # with its arguments listed in body_writes.args.
  "$python" -c "import numpy as np, sys; np.save(sys.argv[1] + '/t.npy', np.arange(16, dtype=np.float32).reshape(2, 8) + 1); np.save(sys.argv[1] + '/k.npy', np.array([[0, 6, 3, 5, 1, 2, 6, 4], [6, 0, 1, 2, 3, 4, 5, 6]], np.int32))" \
    "$bundle/examples"
  "$PCC" compile "$inputs/body_writes.mlir" --backend="$backend" \
    -o "$bundle/examples/body_writes"
  "$PCC" run "$inputs/body_writes.mlir" --backend=cpu \
    "$bundle/examples/t.npy" "$bundle/examples/k.npy" \
    > "$bundle/examples/body_writes.expected"
  echo "t.npy k.npy" > "$bundle/examples/body_writes.args"
  [[ $backend == cuda ]] &&
    "$python" "$root/bench/gpu.py" prepare "$bundle/bench" --pcc "$PCC"
  cp "$build/unittests/Runtime/$runtime_tests" "$bundle/cuda-runtime-tests"
  # The MPI shim, for the runs on several processes.
  [[ -f $build/lib/Runtime/libpcc_mpi.so ]] &&
    cp "$build/lib/Runtime/libpcc_mpi.so" "$bundle/"
  strip "$bundle"/programs/* "$bundle"/examples/* "$bundle/trace/program" \
    "$bundle/cuda-runtime-tests" \
    "$bundle"/bench/* 2>/dev/null || true
  # Solid and with a large window: the executables share most of their bytes.
  tar -C "$bundle" -cf - . | xz -9e -T1 > "$check_dir/bundle.tar.xz"
  rm -rf "$bundle" "$work"
  echo "gpu-check: $(du -h "$check_dir/bundle.tar.xz" | cut -f1) bundle ready;" \
    "run 'bash scripts/gpu-check.sh run' on the GPU machine, carrying gpu-check"
}

failures=()
skipped=()
# Runs one named check, teeing its output to the log. Status 2 means that
# the check could not run here (it says why); it is listed as skipped.
check() {
  local name=$1
  shift
  echo "=== $name"
  local start=$SECONDS status=0
  "$@" || status=$?
  if ((status == 0)); then
    echo "--- $name: passed ($((SECONDS - start)) s)"
  elif ((status == 2)); then
    echo "--- $name: SKIPPED"
    skipped+=("$name")
  else
    echo "--- $name: FAILED ($((SECONDS - start)) s)"
    failures+=("$name")
  fi
}

run_examples() {
  local dir=$1 status=0
  for expected in "$dir"/*.expected; do
    local exe=${expected%.expected} args=()
    [[ -f $exe.args ]] && read -ra args < "$exe.args"
    if ! diff -u "$expected" <("$exe" --oversubscribe "${args[@]/#/$dir/}"); then
      echo "example $(basename "$exe"): output differs from the cpu backend's"
      status=1
    fi
  done
  # More devices than GPUs without --oversubscribe is one clear error.
  local gpus
  gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
  if ((gpus < 4)); then
    local message
    message=$("$dir/psum" 2>&1)
    if [[ $? != 1 || $message != *"pass --oversubscribe"* ]]; then
      echo "psum without --oversubscribe: expected exit 1 and advice, got: $message"
      status=1
    fi
  fi
  return $status
}

# The examples on two processes, each device's block on its share of the
# GPUs: NCCL across processes where every device has a GPU of its own
# (NCCL_DEBUG=INFO shows the communicators), else oversubscribed, through
# the host's collective between processes.
run_processes() {
  local dir=$1 bundle=$2 status=0
  if ! command -v mpirun > /dev/null || [[ ! -f $bundle/libpcc_mpi.so ]]; then
    echo "no mpirun on this machine, or no MPI shim in the bundle"
    return 2
  fi
  export PCC_MPI_SHIM=$bundle/libpcc_mpi.so
  for expected in "$dir"/*.expected; do
    local exe=${expected%.expected} output args=()
    [[ -f $exe.args ]] && read -ra args < "$exe.args"
    output=$(NCCL_DEBUG=INFO mpirun --allow-run-as-root --oversubscribe -np 2 \
      "$exe" --oversubscribe "${args[@]/#/$dir/}" 2> "$exe.log")
    grep -h 'Init COMPLETE' "$exe.log"
    if ! diff -u "$expected" <(echo "$output"); then
      echo "example $(basename "$exe") on 2 processes: output differs from the cpu backend's"
      cat "$exe.log"
      status=1
    fi
  done
  return $status
}

run_faults() {
  local dir=$1 message
  message=$("$dir/gather" "$dir/x.npy" "$dir/bad.npy" 2>&1)
  if [[ $? != 1 || $message != *"index 9 is out of bounds for axis 0 with size 8"* ]]; then
    echo "index out of bounds in a kernel: expected exit 1 and the index, got: $message"
    return 1
  fi
}

# The trace of three runs of a program on 4 devices: valid, every span in
# place (check_trace.py), and a profile per collective site.
run_trace() {
  local dir=$1 python=$2
  PCC_TRACE=$dir/trace.json PCC_PROFILE=1 "$dir/program" "$dir/a.npy" \
    --oversubscribe --repeat=3 > /dev/null || return 1
  "$python" "$root/test/pcc/Inputs/check_trace.py" "$dir/trace.json" 4 3
}

run_checks() {
  local tmp=${TMPDIR:-/tmp}/pcc-gpu-check
  rm -rf "$tmp" && mkdir -p "$tmp/bundle"
  python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" \
    "$check_dir/bundle.tar.xz" "$tmp/bundle"
  local bundle=$tmp/bundle python candidate
  # The first Python with NumPy (on these machines, not always the first
  # python3 on PATH).
  for candidate in "$(command -v python3)" /usr/bin/python3; do
    if "$candidate" -c "import numpy" 2>/dev/null; then
      python=$candidate
      break
    fi
  done
  nvidia-smi -L 2>/dev/null || echo "(no nvidia-smi)"
  "$python" -c "import numpy; print('numpy', numpy.__version__)"
  export PCC_VIA=replay PCC_VIA_BUNDLE=$bundle/programs \
    PCC_VIA_RUN_FLAGS=--oversubscribe PYTHONUNBUFFERED=1
  local via=$root/test/Inputs/pcc_via.py inputs=$root/test/pcc/Inputs
  # (In their own configuration: the simulated GPU's tests of NCCL between
  # GPUs make the GPUs they need, which the rehearsal's PCC_SIM_GPUS=1
  # would deny them.)
  check "cuda runtime tests" env -u PCC_SIM_GPUS "$bundle/cuda-runtime-tests"
  check "examples" run_examples "$bundle/examples"
  check "examples on 2 processes" run_processes "$bundle/examples" "$bundle"
  check "faults" run_faults "$bundle/faults"
  check "trace" run_trace "$bundle/trace" "$python"
  check "oracle (every collective, dtype and grid)" \
    "$python" "$inputs/oracle.py" "$via"
  check "linalg ops" "$python" "$inputs/linalg_ops.py" "$via" \
    "$inputs/linalg_ops.mlir" "$tmp/linalg"
  check "math ops" "$python" "$inputs/math_ops.py" "$via" \
    "$inputs/math_ops.mlir" "$tmp/math"
  check "train step" "$python" "$inputs/train_step.py" "$via" \
    "$root/examples/train_step.mlir" "$tmp/train"
  # Last: timings, against the copy bound and JAX/PyTorch where installed.
  [[ -d $bundle/bench ]] &&
    check "benchmarks" "$python" "$root/bench/gpu.py" run "$bundle/bench" \
      --out "${OUT:-$tmp}"
  ((${#skipped[@]})) && echo "gpu-check: skipped: ${skipped[*]}"
  if ((${#failures[@]})); then
    echo "gpu-check: FAILED: ${failures[*]}"
    return 1
  fi
  echo "gpu-check: every check that ran passed"
}

case "${1:-}" in
  prepare) prepare ;;
  rehearse)
    # One simulated GPU, as on the lent machine.
    export PCC_GPU_CHECK_BACKEND=cuda-sim PCC_SIM_GPUS=1
    (prepare) && run_checks
    ;;
  run)
    if [[ -n ${OUT:-} ]]; then
      run_checks 2>&1 | tee "$OUT/gpu-check.log"
    else
      run_checks
    fi
    ;;
  *)
    echo "usage: scripts/gpu-check.sh prepare|run|rehearse" >&2
    exit 1
    ;;
esac
