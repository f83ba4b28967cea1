//===- Memory.cpp - the buffers of generated code -------------------------===//
//
// Both pipelines make memref.alloc/dealloc call MLIR's generic allocation
// functions, which pcc implements here: on the cuda platform they hand out
// managed memory (GpuPlatform.h); on the host they count what the program
// holds against a limit (pcc_set_memory_limit: --memory-limit, by default
// the machine's physical memory), so that a program asking for more ends
// with an error naming the size instead of being killed by the OOM killer,
// and a failed allocation is an error with the size asked for.
//
//===----------------------------------------------------------------------===//

#include "Memory.h"
#include "GpuPlatform.h"
#include "Mappings.h"
#include "RuntimeError.h"

#include "pcc/Runtime/pcc_runtime.h"

#include <malloc.h>
#include <unistd.h>

#include <climits>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace pcc::runtime;

namespace {
/// Bytes the program's host buffers hold, and the most they may. Every
/// allocation and free of every device writes the count: on a cache line of
/// its own, it does not take from the other devices' caches the values they
/// only read (the limit, the GPU platform), as it did by chance in some
/// builds (a chain of psums, each step allocating: 8-18 % slower).
alignas(64) std::atomic<uint64_t> bytesInUse{0};
alignas(64) std::atomic<uint64_t> memoryLimit{0};

/// Every host buffer starts this far into its block; the header before it
/// records the block and the size counted.
constexpr uint64_t kHeader = 64;
/// The alignment of every block malloc returns (glibc: 16 on 64-bit
/// targets).
constexpr uint64_t kMallocAlignment = alignof(std::max_align_t);
struct Header {
  void *block;
  uint64_t size;
};

uint64_t physicalMemory() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) : 0;
}

uint64_t limit() {
  uint64_t value = memoryLimit.load(std::memory_order_relaxed);
  // sysconf reads the kernel's counters: once is enough.
  static const uint64_t machine = physicalMemory();
  return value ? value : machine;
}

[[noreturn]] void outOfMemory(const char *format, unsigned long long a,
                              unsigned long long b, unsigned long long c) {
  char message[512];
  std::snprintf(message, sizeof(message), format, a, b, c);
  reportError(message, "pcc: error");
  _Exit(1);
}

void *hostAlloc(uint64_t alignment, uint64_t size) {
  if (alignment < alignof(Header) || (alignment & (alignment - 1)))
    alignment = alignof(Header);
  uint64_t offset = alignment > kHeader ? alignment : kHeader;
  uint64_t held = bytesInUse.fetch_add(size) + size;
  uint64_t max = limit();
  if (size > max || held > max) {
    bytesInUse.fetch_sub(size);
    outOfMemory("the program asked for a buffer of %llu bytes while holding "
                "%llu, more than the memory limit of %llu bytes allows "
                "(--memory-limit)",
                size, held - size, max);
  }
  // malloc, not posix_memalign: glibc's aligned path splits a larger block
  // on every call (about 600 instructions for a small buffer, against 100),
  // where rounding up within a block malloc already aligns to 16 bytes
  // costs at most `alignment - 16` bytes more.
  uint64_t slack =
      alignment > kMallocAlignment ? alignment - kMallocAlignment : 0;
  void *block = nullptr;
  if (size + offset + slack < size ||
      !(block = std::malloc(size + offset + slack))) {
    bytesInUse.fetch_sub(size);
    int64_t mappings = countMappings(), mappingLimit = getMappingLimit();
    if (mappings >= 0 && mappingLimit > 0 && mappings + 16 >= mappingLimit)
      outOfMemory("cannot allocate a buffer of %llu bytes: the process has "
                  "used up its memory mappings (%llu of vm.max_map_count = "
                  "%llu); run fewer devices per process, or raise the limit",
                  size, mappings, mappingLimit);
    outOfMemory("cannot allocate a buffer of %llu bytes (holding %llu, "
                "limit %llu): the machine is out of memory",
                size, held - size, max);
  }
  uintptr_t start = reinterpret_cast<uintptr_t>(block) + offset;
  char *data = static_cast<char *>(block) +
               ((start + alignment - 1) / alignment * alignment -
                reinterpret_cast<uintptr_t>(block));
  Header header{block, size};
  std::memcpy(data - sizeof(Header), &header, sizeof(Header));
  return data;
}
} // namespace

void pcc::runtime::keepFreedMemory() {
  // glibc maps each block past its threshold (at most 32 MiB) afresh, and
  // gives the free top of a heap back to the system past another (at most
  // 64 MiB): a program whose every step frees and allocates the same
  // buffers then faults its pages in again at every step (an MLP training
  // step on 4 devices on 2 cores spent 22 % of its time so). Like XLA's
  // allocator, the runtime keeps what it freed for the next buffers: blocks
  // up to 32 MiB (glibc's largest threshold) come from the heap, whose
  // memory stays with the process up to 2 GiB free. (Under the pcc driver,
  // which links jemalloc, these settings reach an unused glibc heap:
  // jemalloc reuses freed memory by itself, and gives it back to the
  // system only seconds later.)
  const char *tunables = std::getenv("GLIBC_TUNABLES");
  if ((tunables && std::strstr(tunables, "glibc.malloc.")) ||
      std::getenv("MALLOC_MMAP_THRESHOLD_") ||
      std::getenv("MALLOC_TRIM_THRESHOLD_") || std::getenv("MALLOC_TOP_PAD_"))
    return;
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
}

extern "C" void pcc_set_memory_limit(int64_t bytes) {
  memoryLimit.store(bytes > 0 ? uint64_t(bytes) : 0);
}

extern "C" int64_t pcc_memory_limit(void) { return int64_t(limit()); }

namespace {
std::atomic<const GpuPlatform *> gpuPlatform{nullptr};
} // namespace

const GpuPlatform *pcc::runtime::activeGpuPlatform() {
  return gpuPlatform.load(std::memory_order_acquire);
}

void pcc::runtime::activateGpuPlatform(const GpuPlatform *platform) {
  gpuPlatform.store(platform, std::memory_order_release);
}

extern "C" void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment,
                                                    uint64_t size) {
  if (const GpuPlatform *gpu = activeGpuPlatform())
    return gpu->alloc(alignment, size);
  return hostAlloc(alignment, size);
}

extern "C" void _mlir_memref_to_llvm_free(void *ptr) {
  if (!ptr)
    return;
  if (const GpuPlatform *gpu = activeGpuPlatform()) {
    gpu->free(ptr);
    return;
  }
  Header header;
  std::memcpy(&header, static_cast<char *>(ptr) - sizeof(Header),
              sizeof(Header));
  bytesInUse.fetch_sub(header.size);
  std::free(header.block);
}
