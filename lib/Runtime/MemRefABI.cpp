//===- MemRefABI.cpp - collectives on memrefs from generated code --------===//
//
// The `_mlir_ciface_pcc_mlir_*` entry points of pcc_runtime.h: generated code
// hands buffers over as memrefs (so that MLIR's buffer deallocation sees
// every use), and these shims take the data pointer and element count from
// the descriptors and forward to pcc_all_reduce / pcc_all_gather, or to the
// cuda platform's collectives when the calling thread runs a cuda device
// (both backends' generated code calls these). Only the descriptor layout of
// MLIR's C interface is used, not MLIR itself.
//
//===----------------------------------------------------------------------===//

#include "pcc/Runtime/pcc_runtime.h"

#include "CudaPlatform.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
/// A contiguous buffer described by a memref descriptor.
struct Buffer {
  char *data;
  int64_t count;
};

/// Reads an unranked memref's descriptor; aborts on a non-contiguous layout,
/// which pcc's lowering never produces.
Buffer readBuffer(const pcc_unranked_memref *memref, size_t elementSize) {
  const char *descriptor = static_cast<const char *>(memref->descriptor);
  char *aligned;
  int64_t offset;
  std::memcpy(&aligned, descriptor + sizeof(void *), sizeof(void *));
  std::memcpy(&offset, descriptor + 2 * sizeof(void *), sizeof(int64_t));
  const auto *sizes = reinterpret_cast<const int64_t *>(
      descriptor + 2 * sizeof(void *) + sizeof(int64_t));
  const int64_t *strides = sizes + memref->rank;
  int64_t count = 1;
  for (int64_t dim = memref->rank - 1; dim >= 0; --dim) {
    if (sizes[dim] != 1 && strides[dim] != count) {
      std::fprintf(stderr, "pcc runtime: internal error: a collective got a "
                           "non-contiguous buffer\n");
      std::abort();
    }
    count *= sizes[dim];
  }
  return {aligned + offset * static_cast<int64_t>(elementSize), count};
}
} // namespace

#define PCC_DEFINE_MEMREF_ALL_GATHER(suffix, dtype, elementSize)               \
  void _mlir_ciface_pcc_mlir_all_gather_##suffix(                              \
      int64_t device, pcc_unranked_memref *grid, int64_t axes_mask,            \
      pcc_unranked_memref *in, pcc_unranked_memref *out) {                     \
    Buffer dims = readBuffer(grid, sizeof(int64_t));                           \
    Buffer input = readBuffer(in, elementSize);                                \
    Buffer output = readBuffer(out, elementSize);                              \
    auto *gridDims = reinterpret_cast<const int64_t *>(dims.data);             \
    if (pcc::runtime::boundCudaDevice())                                       \
      pcc::runtime::cudaAllGather(device, dims.count, gridDims, axes_mask,     \
                                  dtype, input.data, output.data,              \
                                  input.count);                                \
    else                                                                       \
      pcc_all_gather(device, dims.count, gridDims, axes_mask, dtype,           \
                     input.data, output.data, input.count);                    \
  }
#define PCC_DEFINE_MEMREF_COLLECTIVES(suffix, dtype, elementSize)              \
  PCC_DEFINE_MEMREF_ALL_GATHER(suffix, dtype, elementSize)                     \
  void _mlir_ciface_pcc_mlir_all_reduce_##suffix(                              \
      int64_t device, pcc_unranked_memref *grid, int64_t axes_mask,            \
      int32_t reduction, pcc_unranked_memref *in, pcc_unranked_memref *out) {  \
    Buffer dims = readBuffer(grid, sizeof(int64_t));                           \
    Buffer input = readBuffer(in, elementSize);                                \
    Buffer output = readBuffer(out, elementSize);                              \
    auto *gridDims = reinterpret_cast<const int64_t *>(dims.data);             \
    if (pcc::runtime::boundCudaDevice())                                       \
      pcc::runtime::cudaAllReduce(device, dims.count, gridDims, axes_mask,     \
                                  reduction, dtype, input.data, output.data,   \
                                  input.count);                                \
    else                                                                       \
      pcc_all_reduce(device, dims.count, gridDims, axes_mask, reduction,       \
                     dtype, input.data, output.data, input.count);             \
  }

extern "C" {
PCC_DEFINE_MEMREF_COLLECTIVES(i8, PCC_I8, 1)
PCC_DEFINE_MEMREF_COLLECTIVES(i16, PCC_I16, 2)
PCC_DEFINE_MEMREF_COLLECTIVES(i32, PCC_I32, 4)
PCC_DEFINE_MEMREF_COLLECTIVES(i64, PCC_I64, 8)
PCC_DEFINE_MEMREF_COLLECTIVES(f16, PCC_F16, 2)
PCC_DEFINE_MEMREF_COLLECTIVES(bf16, PCC_BF16, 2)
PCC_DEFINE_MEMREF_COLLECTIVES(f32, PCC_F32, 4)
PCC_DEFINE_MEMREF_COLLECTIVES(f64, PCC_F64, 8)
PCC_DEFINE_MEMREF_ALL_GATHER(i1, PCC_I1, 1)
}
