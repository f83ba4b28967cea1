//===- EntryPoints.cpp - the runtime functions generated code calls ------===//
//
// pcc_collective, which runs a collective call site of the program on the
// host or, on a thread that runs a cuda device, on the GPUs; and the
// `_mlir_ciface_pcc_mlir_*` functions of failed checks and the stack guard,
// which take their texts as memrefs through MLIR's C interface (only the
// descriptor layout of that interface is used, not MLIR itself).
//
//===----------------------------------------------------------------------===//

#include "pcc/Runtime/pcc_runtime.h"

#include "Collectives.h"
#include "GpuPlatform.h"
#include "RuntimeError.h"
#include "StackGuard.h"

#include <cstring>
#include <string>

using namespace pcc::runtime;

extern "C" void pcc_collective(const pcc_collective_site *site,
                               const int64_t *table, const char *description,
                               int64_t device, const void *in, void *out) {
  CallSiteScope scope(description, uint64_t(site->shape));
  // An empty table is no table (no groups).
  const int64_t *entries = site->table_size ? table : nullptr;
  bool permute = site->kind == PCC_PERMUTE;
  Collective call{Collective::Kind(site->kind),
                  device,
                  site->grid_rank,
                  pcc_site_grid_dims(site),
                  uint64_t(site->axes_mask),
                  permute ? nullptr : entries,
                  int32_t(site->reduction),
                  int32_t(site->dtype),
                  permute ? entries : nullptr,
                  in,
                  out,
                  site->count};
  const GpuPlatform *gpu = activeGpuPlatform();
  if (gpu && gpu->isDeviceThread())
    gpu->collective(call);
  else
    runHostCollective(call);
}

namespace {
/// The text of a NUL-terminated i8 buffer (a constant of the program) that
/// generated code passes as a memref: its aligned pointer plus its offset.
const char *text(const pcc_unranked_memref *memref) {
  const char *descriptor = static_cast<const char *>(memref->descriptor);
  const char *aligned;
  int64_t offset;
  std::memcpy(&aligned, descriptor + sizeof(void *), sizeof(void *));
  std::memcpy(&offset, descriptor + 2 * sizeof(void *), sizeof(int64_t));
  return aligned + offset;
}
} // namespace

extern "C" void _mlir_ciface_pcc_mlir_check_failed(pcc_unranked_memref *message,
                                                   int64_t a, int64_t b,
                                                   int64_t c, int64_t d) {
  const int64_t values[] = {a, b, c, d};
  std::string filled;
  for (const char *at = text(message); *at; ++at) {
    if (at[0] == '{' && at[1] >= '0' && at[1] <= '3' && at[2] == '}') {
      filled += std::to_string(values[at[1] - '0']);
      at += 2;
    } else {
      filled += *at;
    }
  }
  // Inside a pmap, the device that failed: the index may depend on it.
  int64_t device = pcc::runtime::runningDevice();
  failRun(device < 0 ? filled
                     : "device " + std::to_string(device) + ": " + filled);
}

extern "C" void
_mlir_ciface_pcc_mlir_check_stack(pcc_unranked_memref *function) {
  pcc::runtime::checkStack(text(function));
}
