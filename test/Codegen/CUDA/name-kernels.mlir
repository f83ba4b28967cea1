// RUN: pcc-opt %s --pcc-name-kernels | FileCheck %s

// Kernels outlined from the program's @u.main hold a `.`, which PTX names
// may not: every `.` becomes `_`, a taken name gets a number, and every
// launch follows.
module attributes {gpu.container_module} {
  // CHECK: gpu.module @u_main_kernel
  // CHECK:   gpu.func @u_main_kernel() kernel
  gpu.module @u.main_kernel {
    gpu.func @u.main_kernel() kernel {
      gpu.return
    }
  }
  // CHECK: gpu.module @u_main_kernel_0
  // CHECK:   gpu.func @u_main_kernel() kernel
  gpu.module @u_main_kernel_0 {
    gpu.func @u.main_kernel() kernel {
      gpu.return
    }
  }
  // CHECK: gpu.module @main_pmap_kernel
  // CHECK:   gpu.func @main_pmap_kernel() kernel
  gpu.module @main_pmap_kernel {
    gpu.func @main_pmap_kernel() kernel {
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @launches
  func.func @launches() {
    %c1 = arith.constant 1 : index
    // CHECK: gpu.launch_func @u_main_kernel::@u_main_kernel
    gpu.launch_func @u.main_kernel::@u.main_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    // CHECK: gpu.launch_func @u_main_kernel_0::@u_main_kernel
    gpu.launch_func @u_main_kernel_0::@u.main_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    // CHECK: gpu.launch_func @main_pmap_kernel::@main_pmap_kernel
    gpu.launch_func @main_pmap_kernel::@main_pmap_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
