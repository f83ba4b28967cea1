//===- CudaTestKernel.h - A tiny PTX kernel for the cuda tests -*- C++ -*-===//
//
// A hand-written PTX module with one kernel, pcc_test_add(int32 *data,
// uint32 n, int32 value), which adds `value` to data[0..n). The GPU tests
// load and launch it through the mgpu* ABI; the CPU tests check that ptxas
// accepts it, so that a GPU run does not fail on a typo here.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_UNITTESTS_RUNTIME_CUDATESTKERNEL_H
#define PCC_UNITTESTS_RUNTIME_CUDATESTKERNEL_H

namespace pcc::test {

inline const char kTestKernelPtx[] = R"ptx(
.version 7.0
.target sm_70
.address_size 64

.visible .entry pcc_test_add(
  .param .u64 data,
  .param .u32 n,
  .param .u32 value)
{
  .reg .pred %p<2>;
  .reg .b32 %r<9>;
  .reg .b64 %rd<5>;

  ld.param.u64 %rd1, [data];
  ld.param.u32 %r1, [n];
  ld.param.u32 %r2, [value];
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %tid.x;
  mad.lo.s32 %r6, %r3, %r4, %r5;
  setp.ge.u32 %p1, %r6, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r6, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r7, [%rd4];
  add.s32 %r8, %r7, %r2;
  st.global.u32 [%rd4], %r8;
DONE:
  ret;
}
)ptx";

} // namespace pcc::test

#endif // PCC_UNITTESTS_RUNTIME_CUDATESTKERNEL_H
