// RUN: pcc-opt %s --pcc-gpu-kernels-to-host --split-input-file --verify-diagnostics | FileCheck %s

// A kernel becomes a host function taking the simulated thread last; ids
// are loads from it, barriers runtime calls, workgroup memory a view of the
// block's shared memory, and every load and store is bounds-checked.
// CHECK: gpu.binary @k
// CHECK-LABEL: func.func @pcc.sim.k.k(
// CHECK-SAME: %[[A:.*]]: memref<8xf32>, %[[T:.*]]: !llvm.ptr)
// CHECK-SAME: pcc.sim.kernel = "k", pcc.sim.module = "k", pcc.sim.shared_bytes = 32 : i64
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK: cf.cond_br
// CHECK: llvm.call @pcc_sim_out_of_bounds
// CHECK: llvm.call @pcc_sim_barrier
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%a: memref<8xf32>) workgroup(%s : memref<8xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %a[%t] : memref<8xf32>
      memref.store %v, %s[%t] : memref<8xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%a: memref<8xindex>) kernel {
      // expected-error @+1 {{the simulated GPU (--backend=cuda-sim) cannot run 'gpu.lane_id' in kernel 'k'}}
      %l = gpu.lane_id
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    // expected-error @+1 {{the simulated GPU needs workgroup memory of a static shape and identity layout}}
    gpu.func @k(%a: memref<8xf32>) workgroup(%s : memref<4xf32, strided<[2]>, #gpu.address_space<workgroup>>) kernel {
      gpu.return
    }
  }
}
