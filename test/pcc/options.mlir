// The driver's options: --repeat, --verbose, --backend and MLIR's own.
// RUN: pcc run %s --repeat=3 2> %t.err | FileCheck %s --check-prefix=RESULT
// RUN: FileCheck %s --check-prefix=REPEAT < %t.err
// RUN: pcc run %s --verbose 2> %t.verbose | FileCheck %s --check-prefix=RESULT
// RUN: FileCheck %s --check-prefix=VERBOSE < %t.verbose
// RUN: FileCheck %s --check-prefix=AUTO < %t.verbose
// RUN: pcc run %pcc_src/examples/psum.mlir --verbose 2>&1 | FileCheck %s --check-prefix=DEVICES
// RUN: not pcc run %s --backend=cuda 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: pcc run %s --mlir-print-ir-after-all --mlir-print-debuginfo 2>&1 | FileCheck %s --check-prefix=IR
// RUN: pcc run %s --mlir-timing 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: pcc run %pcc_src/examples/psum.mlir --mlir-print-ir-after=pcc-outline-pmaps,ownership-based-buffer-deallocation,finalize-memref-to-llvm 2>&1 | FileCheck %s --check-prefix=AFTER

// The result is printed once, however often the entry runs.
// RESULT: [3 5 7]
// RESULT-NOT: [

// REPEAT:      pcc: compile: {{[0-9.]+}} s
// REPEAT-NEXT: pcc: run 1/3: {{[0-9.]+}} s
// REPEAT-NEXT: pcc: run 2/3: {{[0-9.]+}} s
// REPEAT-NEXT: pcc: run 3/3: {{[0-9.]+}} s
// REPEAT-NOT: run

// VERBOSE:      pcc: backend: cpu
// VERBOSE-NEXT: pcc: devices: none (the program has no spmd.pmap)
// VERBOSE-NEXT: pcc: parse: {{[0-9.]+}} s
// VERBOSE-NEXT: pcc: passes: {{[0-9.]+}} s
// VERBOSE-NEXT: pcc: codegen/JIT: {{[0-9.]+}} s
// VERBOSE-NEXT: pcc: codegen threads: 1
// VERBOSE-NEXT: pcc: run: {{[0-9.]+}} s

// DEVICES: pcc: devices: 4 (host threads)
// DEVICES: [66 66 66 66]

// --backend=auto (the default) says why it uses cpu.
// AUTO: pcc: backend: auto: {{.*}}; using cpu

// A machine without a driver or a GPU says so; one with a GPU says that the
// cuda backend is not built yet.
// CUDA: pcc: error: --backend=cuda: {{(no CUDA driver: libcuda.so.1 could not be loaded .*; install the NVIDIA driver or use --backend=cpu|the CUDA driver found no usable GPU .*|the CUDA driver reports no GPU.*|found [0-9]+ GPUs?, but the cuda backend is not built yet .*)}}

// IR: IR Dump After PCCEntryABI (pcc-entry-abi)
// IR: func.func @_pcc_entry
// IR-SAME: loc(
// IR: [3 5 7]

// Any pass of the pipeline by name, pcc's and upstream's.
// AFTER: IR Dump After PCCOutlinePmaps (pcc-outline-pmaps)
// AFTER: spmd.launch @main_pmap
// AFTER: IR Dump After OwnershipBasedBufferDeallocationPass (ownership-based-buffer-deallocation)
// AFTER: IR Dump After FinalizeMemRefToLLVMConversionPass (finalize-memref-to-llvm)
// AFTER-NOT: IR Dump After
// AFTER: [66 66 66 66]

// TIMING: Execution time report
// TIMING: PCCEntryABI

func.func @main() -> tensor<3xi64> {
  %a = arith.constant dense<[1, 2, 3]> : tensor<3xi64>
  %b = arith.constant dense<[2, 3, 4]> : tensor<3xi64>
  %e = tensor.empty() : tensor<3xi64>
  %r = linalg.add ins(%a, %b : tensor<3xi64>, tensor<3xi64>)
      outs(%e : tensor<3xi64>) -> tensor<3xi64>
  return %r : tensor<3xi64>
}
