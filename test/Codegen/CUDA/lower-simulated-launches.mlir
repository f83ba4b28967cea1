// RUN: pcc-opt %s --pcc-lower-simulated-launches --split-input-file --verify-diagnostics

// Only the kernels of pcc-gpu-kernels-to-host, with their attributes.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target, "">]
  // expected-error @+1 {{a simulated kernel without its name or its shared memory size}}
  llvm.func @pcc.sim.k.k(%t: !llvm.ptr) attributes {pcc.sim.module = "k"} {
    llvm.return
  }
}

// -----

// Only synchronous launches (what the cuda pipeline makes).
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target, "">]
  llvm.func @pcc.sim.k.k(%t: !llvm.ptr) attributes {pcc.sim.module = "k", pcc.sim.kernel = "k", pcc.sim.shared_bytes = 0 : i64} {
    llvm.return
  }
  llvm.func @host(%s: !llvm.ptr) {
    %c1 = llvm.mlir.constant(1 : index) : i64
    // expected-error @+1 {{pcc-lower-simulated-launches handles synchronous launches only}}
    gpu.launch_func <%s : !llvm.ptr> @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64
    llvm.return
  }
}
