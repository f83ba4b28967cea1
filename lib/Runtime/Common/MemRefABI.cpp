//===- MemRefABI.cpp - collectives on memrefs from generated code --------===//
//
// The `_mlir_ciface_pcc_mlir_*` entry points of pcc_runtime.h: generated code
// hands buffers over as memrefs (so that MLIR's buffer deallocation sees
// every use), and these shims take the data pointer and element count from
// the descriptors (packing the rare non-contiguous one) and forward to
// pcc_all_reduce / pcc_all_gather, or to the
// cuda platform's collectives when the calling thread runs a cuda device
// (both backends' generated code calls these). Only the descriptor layout of
// MLIR's C interface is used, not MLIR itself.
//
//===----------------------------------------------------------------------===//

#include "pcc/Runtime/pcc_runtime.h"

#include "Collectives.h"
#include "GpuPlatform.h"
#include "RuntimeError.h"
#include "StackGuard.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace pcc::runtime;

namespace {
/// Where a memref's first element lies: its aligned pointer plus its
/// offset, in elements of `elementSize` bytes.
char *firstElement(const pcc_unranked_memref *memref, size_t elementSize) {
  const char *descriptor = static_cast<const char *>(memref->descriptor);
  char *aligned;
  int64_t offset;
  std::memcpy(&aligned, descriptor + sizeof(void *), sizeof(void *));
  std::memcpy(&offset, descriptor + 2 * sizeof(void *), sizeof(int64_t));
  return aligned + offset * static_cast<int64_t>(elementSize);
}

/// A memref's elements as one contiguous run, in row-major order: the
/// memref's own memory when its layout is contiguous (as for every buffer of
/// pcc's lowering but a strided slice), else a packed copy, which an output
/// writes back when it goes out of scope.
class Buffer {
public:
  Buffer(const pcc_unranked_memref *memref, size_t elementSize, bool isOutput)
      : elementSize(elementSize), isOutput(isOutput) {
    const char *descriptor = static_cast<const char *>(memref->descriptor);
    base = firstElement(memref, elementSize);
    rank = memref->rank;
    sizes = reinterpret_cast<const int64_t *>(descriptor + 2 * sizeof(void *) +
                                              sizeof(int64_t));
    strides = sizes + rank;
    bool contiguous = true;
    count = 1;
    for (int64_t dim = rank - 1; dim >= 0; --dim) {
      contiguous = contiguous && (sizes[dim] == 1 || strides[dim] == count);
      count *= sizes[dim];
    }
    data = base;
    if (contiguous || count == 0)
      return;
    packed.resize(static_cast<size_t>(count) * elementSize);
    data = packed.data();
    if (!isOutput) {
      char *cursor = data;
      copy(0, base, cursor, /*pack=*/true);
    }
  }
  ~Buffer() {
    if (!packed.empty() && isOutput) {
      char *cursor = data;
      copy(0, base, cursor, /*pack=*/false);
    }
  }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;

  char *data;
  int64_t count;

  /// A hash of the shape, for fingerprints.
  uint64_t shapeHash() const {
    uint64_t hash = 1469598103934665603ull ^ uint64_t(rank);
    for (int64_t dim = 0; dim < rank; ++dim)
      hash = (hash ^ uint64_t(sizes[dim])) * 1099511628211ull;
    return hash;
  }

private:
  /// Copies the elements of dimensions [dim, rank) at `at` to (pack) or from
  /// the packed run at `cursor`, advancing it.
  void copy(int64_t dim, char *at, char *&cursor, bool pack) const {
    if (dim == rank) {
      std::memcpy(pack ? cursor : at, pack ? at : cursor, elementSize);
      cursor += elementSize;
      return;
    }
    for (int64_t i = 0; i < sizes[dim]; ++i)
      copy(dim + 1, at + i * strides[dim] * int64_t(elementSize), cursor, pack);
  }

  size_t elementSize;
  bool isOutput;
  char *base;
  int64_t rank;
  const int64_t *sizes;
  const int64_t *strides;
  std::vector<char> packed;
};
/// A rank-1 constant of the program (the grid's sizes, a groups or sources
/// table) as generated code passes it: a global, contiguous, so its first
/// element and its length.
struct ConstantRun {
  explicit ConstantRun(const pcc_unranked_memref *memref) {
    // (Checked first: a descriptor of another rank has no size here.)
    if (memref->rank != 1)
      collectiveFatal("pcc_mlir collective", "a table is not of rank 1");
    const char *descriptor = static_cast<const char *>(memref->descriptor);
    std::memcpy(&count, descriptor + 2 * sizeof(void *) + sizeof(int64_t),
                sizeof(int64_t));
    data = count ? reinterpret_cast<const int64_t *>(
                       firstElement(memref, sizeof(int64_t)))
                 : nullptr;
  }
  const int64_t *data;
  int64_t count;
};

/// The text of a call-site string (a NUL-terminated i8 constant).
const char *siteText(const pcc_unranked_memref *site) {
  return firstElement(site, 1);
}

/// A collective's operands as generated code passes them, unpacked for the
/// runtime: the grid's dims, the input and output runs, the call site for
/// the runtime's checks, and the GPU platform if the calling thread runs one
/// of its devices.
struct CollectiveOperands {
  CollectiveOperands(pcc_unranked_memref *grid, pcc_unranked_memref *site,
                     pcc_unranked_memref *in, pcc_unranked_memref *out,
                     size_t elementSize)
      : dims(grid), input(in, elementSize, false),
        output(out, elementSize, true),
        scope(siteText(site), input.shapeHash()) {
    const GpuPlatform *platform = activeGpuPlatform();
    if (platform && platform->isDeviceThread())
      gpu = platform;
  }

  ConstantRun dims;
  Buffer input, output;
  CallSiteScope scope;
  const GpuPlatform *gpu = nullptr;
};

/// Runs collective `kind` as generated code passes it (pcc_runtime.h): on
/// the GPUs for a cuda device's thread, else on the host.
void runCollective(Collective::Kind kind, int64_t device,
                   pcc_unranked_memref *grid, int64_t mask,
                   pcc_unranked_memref *table, int32_t reduction,
                   pcc_unranked_memref *site, pcc_unranked_memref *in,
                   pcc_unranked_memref *out, int32_t dtype,
                   size_t elementSize) {
  CollectiveOperands o(grid, site, in, out, elementSize);
  // The same address on every device, which the runtime's group slots rely
  // on.
  ConstantRun entries(table);
  bool permute = kind == Collective::Permute;
  Collective call{
      kind,         device,         o.dims.count,
      o.dims.data,  uint64_t(mask), permute ? nullptr : entries.data,
      reduction,    dtype,          permute ? entries.data : nullptr,
      o.input.data, o.output.data,  o.input.count};
  if (o.gpu)
    o.gpu->collective(call);
  else
    runHostCollective(call);
}

/// The Collective::Kind of each entry point.
constexpr Collective::Kind kind_all_reduce = Collective::AllReduce,
                           kind_all_gather = Collective::AllGather,
                           kind_reduce_scatter = Collective::ReduceScatter,
                           kind_all_to_all = Collective::AllToAll,
                           kind_permute = Collective::Permute;

/// The dtype code and element size of each element type's entry points.
#define PCC_ELEMENT_TYPE(suffix, Enum, Kind, bits, reducible)                  \
  constexpr int32_t kDtype_##suffix = PCC_##Enum;                              \
  constexpr size_t kElementSize_##suffix = (bits + 7) / 8;
#include "pcc/Runtime/RuntimeABI.def"
} // namespace

#define PCC_REDUCTION_ARGUMENT_0 0
#define PCC_REDUCTION_ARGUMENT_1 reduction
#define PCC_DEFINE_COLLECTIVE(collective, suffix, reduces)                     \
  void _mlir_ciface_pcc_mlir_##collective##_##suffix(                          \
      int64_t device, pcc_unranked_memref *grid, int64_t axes_mask,            \
      pcc_unranked_memref *table,                                              \
      PCC_REDUCTION_PARAMETER_##reduces pcc_unranked_memref *site,             \
      pcc_unranked_memref *in, pcc_unranked_memref *out) {                     \
    runCollective(kind_##collective, device, grid, axes_mask, table,           \
                  PCC_REDUCTION_ARGUMENT_##reduces, site, in, out,             \
                  kDtype_##suffix, kElementSize_##suffix);                     \
  }

extern "C" void _mlir_ciface_pcc_mlir_check_failed(pcc_unranked_memref *message,
                                                   int64_t a, int64_t b,
                                                   int64_t c, int64_t d) {
  const int64_t values[] = {a, b, c, d};
  std::string text;
  for (const char *at = siteText(message); *at; ++at) {
    if (at[0] == '{' && at[1] >= '0' && at[1] <= '3' && at[2] == '}') {
      text += std::to_string(values[at[1] - '0']);
      at += 2;
    } else {
      text += *at;
    }
  }
  // Inside a pmap, the device that failed: the index may depend on it.
  int64_t device = pcc::runtime::runningDevice();
  failRun(device < 0 ? text : "device " + std::to_string(device) + ": " + text);
}

extern "C" void
_mlir_ciface_pcc_mlir_check_stack(pcc_unranked_memref *function) {
  pcc::runtime::checkStack(siteText(function));
}

#define PCC_ELEMENT_TYPE(suffix, Enum, Kind, bits, reducible)                  \
  PCC_COLLECTIVE_ENTRY_POINTS(PCC_DEFINE_COLLECTIVE, suffix, reducible)
extern "C" {
#include "pcc/Runtime/RuntimeABI.def"
}
