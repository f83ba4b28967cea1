//===- SimKernels.cpp - Kernels of the cuda-sim pipeline on the CPU ------===//
//
// A grid runs block after block on the stream's host thread. A block's
// threads are fibers (FiberSwitch.h) that a scheduler resumes in turn: each
// runs until it returns or waits, at a barrier (pcc_sim_barrier) or in a
// warp shuffle (pcc_sim_shuffle). When every thread left waits, the
// scheduler completes what can complete: a shuffle once all 32 lanes of a
// warp (fewer in the block's last warp) are in it, a barrier once every
// thread of the block is at it. Anything else is a fault a GPU would not
// report (it would hang or compute garbage): threads of a block at
// different barriers, a thread that returned while others wait for it, a
// warp whose lanes are not in the same shuffle. Faults and accesses out of
// bounds (pcc_sim_out_of_bounds, called by the checks the compiler puts
// before every load and store) end the run with one message naming the
// kernel, the block and the thread.
//
// Stacks are mapped once per host thread and reused: a block needs as many
// as it has threads waiting at once, and a thread that returns hands its
// stack to the next one to start.
//
//===----------------------------------------------------------------------===//

#include "Sim.h"

#include "FiberSwitch.h"
#include "RuntimeError.h"

#include <cstring>
#include <string>
#include <vector>

namespace {

/// Each simulated GPU thread's stack: kernels compiled for the host need
/// little (no recursion, no allocation on the stack).
constexpr size_t kStackSize = size_t(256) << 10;
constexpr unsigned kWarpSize = 32;

enum class State { Ready, AtBarrier, AtShuffle, Done };

struct Block;

struct SimThread {
  /// What generated code sees; first, so that pcc_sim_* find the rest.
  pcc_sim_thread abi;
  Block *block;
  State state;
  void *sp;
  char *stack;
  void *tsanFiber;
  /// Where the thread waits (a barrier or a shuffle), for messages.
  const char *site;
  /// The pending shuffle.
  uint64_t value;
  int32_t offset, width, mode;
};

struct Block {
  const pcc_sim_kernel *kernel;
  void **params;
  std::vector<SimThread> threads;
  std::vector<char> shared;
  void *schedulerSp = nullptr;
  void *tsanScheduler = nullptr;
  /// The host thread's own stack, for ASan.
  const void *schedulerStack = nullptr;
  size_t schedulerStackSize = 0;
};

/// This host thread's stacks that no simulated thread uses.
thread_local std::vector<char *> freeStacks;

/// "(x, y, z)".
std::string triple(const uint32_t v[3]) {
  return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " +
         std::to_string(v[2]) + ")";
}

std::string describe(const SimThread &t) {
  return "GPU kernel '" + std::string(t.block->kernel->name) + "', block " +
         triple(t.abi.block_id) + ", thread " + triple(t.abi.thread_id);
}

std::string threadIndex(const SimThread &t) { return triple(t.abi.thread_id); }

std::string where(const char *site) {
  return site && *site ? std::string(" at ") + site : std::string();
}

[[noreturn]] void fault(const SimThread &t, const std::string &what) {
  pcc::runtime::failRun(describe(t) + ": " + what);
}

#ifdef PCC_HAVE_FIBERS

SimThread &self(pcc_sim_thread *thread) {
  return *reinterpret_cast<SimThread *>(thread);
}

/// From simulated thread `t` back to its block's scheduler, until resumed.
void suspend(SimThread &t, bool leaving = false) {
  Block &b = *t.block;
  void *fakeStack = nullptr;
  pcc::runtime::asanStartSwitch(leaving ? nullptr : &fakeStack,
                                b.schedulerStack, b.schedulerStackSize);
  pcc::runtime::tsanSwitchTo(b.tsanScheduler);
  pcc_fiber_switch(&t.sp, b.schedulerSp);
  pcc::runtime::asanFinishSwitch(fakeStack, &b.schedulerStack,
                                 &b.schedulerStackSize);
}

[[noreturn]] void threadMain(void *arg) {
  auto &t = *static_cast<SimThread *>(arg);
  Block &b = *t.block;
  pcc::runtime::asanFinishSwitch(nullptr, &b.schedulerStack,
                                 &b.schedulerStackSize);
  b.kernel->entry(b.params, &t.abi);
  t.state = State::Done;
  suspend(t, /*leaving=*/true);
  __builtin_unreachable();
}

/// From the scheduler into simulated thread `t`, until it waits or returns.
void resume(SimThread &t) {
  if (!t.stack) {
    if (freeStacks.empty()) {
      char *stack = pcc::runtime::mapFiberStack(kStackSize);
      if (!stack)
        pcc::runtime::failRun("the simulated GPU cannot map a stack for " +
                              describe(t));
      freeStacks.push_back(stack);
    }
    t.stack = freeStacks.back();
    freeStacks.pop_back();
    pcc::runtime::asanForgetStack(t.stack, kStackSize);
    t.sp =
        pcc::runtime::prepareFiberStack(t.stack, kStackSize, &threadMain, &t);
    t.tsanFiber = pcc::runtime::tsanNewFiber();
  }
  Block &b = *t.block;
  void *fakeStack = nullptr;
  pcc::runtime::asanStartSwitch(&fakeStack, t.stack, kStackSize);
  pcc::runtime::tsanSwitchTo(t.tsanFiber);
  pcc_fiber_switch(&b.schedulerSp, t.sp);
  pcc::runtime::asanFinishSwitch(fakeStack, nullptr, nullptr);
  if (t.state == State::Done) {
    freeStacks.push_back(t.stack);
    t.stack = nullptr;
    pcc::runtime::tsanDestroyFiber(t.tsanFiber);
    t.tsanFiber = nullptr;
  }
}

/// The lane a shuffle reads, or -1 outside [0, width) (gpu.shuffle's
/// semantics: the thread then gets its own value, and valid is false).
int sourceLane(unsigned lane, int32_t offset, int32_t width, int32_t mode) {
  int64_t source;
  switch (mode) {
  case 0: // xor
    source = int64_t(lane ^ unsigned(offset));
    break;
  case 1: // up
    source = int64_t(lane) - offset;
    break;
  case 2: // down
    source = int64_t(lane) + offset;
    break;
  default: // idx
    source = offset;
    break;
  }
  return source >= 0 && source < width ? int(source) : -1;
}

/// Completes the shuffle of the warp starting at thread `first` if all its
/// participating lanes are in it; returns whether it did. As with NVVM's
/// shfl.sync (member mask (1 << width) - 1), lanes [0, width) take part: one
/// of them that returned, waits at a barrier or in another shuffle is a
/// fault, and so is a lane past the width that shuffles.
bool completeShuffle(Block &b, size_t first) {
  size_t end = std::min(b.threads.size(), first + kWarpSize);
  SimThread *waiting = nullptr;
  for (size_t i = first; i < end && !waiting; ++i)
    if (b.threads[i].state == State::AtShuffle)
      waiting = &b.threads[i];
  if (!waiting)
    return false;
  size_t last = std::min(end, first + size_t(waiting->width));
  for (size_t i = first; i < end; ++i) {
    SimThread &t = b.threads[i];
    if (i >= last) {
      if (t.state == State::AtShuffle)
        fault(t, "is lane " + std::to_string(i - first) + " of a warp shuffle" +
                     where(t.site) + " of width " + std::to_string(t.width) +
                     ", in which only lanes below the width take part");
      continue;
    }
    if (t.state == State::Done)
      fault(*waiting, "waits in a warp shuffle" + where(waiting->site) +
                          " that thread " + threadIndex(t) +
                          " of its warp returned without reaching");
    if (t.state == State::AtBarrier)
      fault(*waiting, "waits in a warp shuffle" + where(waiting->site) +
                          " while thread " + threadIndex(t) +
                          " of its warp waits at the barrier" + where(t.site));
    if (t.site != waiting->site || t.width != waiting->width)
      fault(*waiting, "waits in a warp shuffle" + where(waiting->site) +
                          " while thread " + threadIndex(t) +
                          " of its warp waits in another" + where(t.site));
  }
  std::vector<uint64_t> values(last - first);
  for (size_t i = first; i < last; ++i)
    values[i - first] = b.threads[i].value;
  for (size_t i = first; i < last; ++i) {
    SimThread &t = b.threads[i];
    int source = sourceLane(unsigned(i - first), t.offset, t.width, t.mode);
    t.abi.shuffle_valid = source >= 0 && size_t(source) < last - first;
    t.value = t.abi.shuffle_valid ? values[size_t(source)] : values[i - first];
    t.state = State::Ready;
  }
  return true;
}

/// Completes the block's barrier if every thread is at it; a thread that
/// returned while others wait there, or threads at different barriers, are
/// faults. Returns whether it did.
bool completeBarrier(Block &b) {
  SimThread *waiting = nullptr;
  for (SimThread &t : b.threads)
    if (t.state == State::AtBarrier)
      waiting = &t;
  if (!waiting)
    return false;
  for (SimThread &t : b.threads) {
    if (t.state == State::Done)
      fault(*waiting, "waits at the barrier" + where(waiting->site) +
                          " that thread " + threadIndex(t) +
                          " of its block returned without reaching");
    if (t.site != waiting->site)
      fault(*waiting, "waits at the barrier" + where(waiting->site) +
                          " while thread " + threadIndex(t) +
                          " of its block waits at another" + where(t.site));
  }
  for (SimThread &t : b.threads)
    t.state = State::Ready;
  return true;
}

void runBlock(Block &b) {
  b.tsanScheduler = pcc::runtime::tsanCurrentFiber();
  for (;;) {
    bool ran = false;
    for (SimThread &t : b.threads)
      if (t.state == State::Ready) {
        resume(t);
        ran = true;
      }
    if (ran)
      continue;
    bool released = false;
    for (size_t first = 0; first < b.threads.size(); first += kWarpSize)
      released |= completeShuffle(b, first);
    if (released)
      continue;
    if (!completeBarrier(b))
      return; // Every thread returned.
  }
}

#endif // PCC_HAVE_FIBERS

} // namespace

void pcc::sim::runKernel(const pcc_sim_kernel &kernel, const unsigned grid[3],
                         const unsigned block[3], void **params) {
#ifdef PCC_HAVE_FIBERS
  Block b;
  b.kernel = &kernel;
  b.params = params;
  size_t count = size_t(block[0]) * block[1] * block[2];
  b.threads.resize(count);
  b.shared.resize(size_t(kernel.shared_bytes) + 16);
  // 16-byte aligned, as the compiler lays the attributions out.
  char *shared = reinterpret_cast<char *>(
      (reinterpret_cast<uintptr_t>(b.shared.data()) + 15) & ~uintptr_t(15));
  for (unsigned bz = 0; bz < grid[2]; ++bz)
    for (unsigned by = 0; by < grid[1]; ++by)
      for (unsigned bx = 0; bx < grid[0]; ++bx) {
        // Shared memory starts poisoned in every block, as the managed
        // memory does: a read before a write shows as garbage.
        std::memset(shared, 0xcd, size_t(kernel.shared_bytes));
        size_t linear = 0;
        for (unsigned tz = 0; tz < block[2]; ++tz)
          for (unsigned ty = 0; ty < block[1]; ++ty)
            for (unsigned tx = 0; tx < block[0]; ++tx, ++linear) {
              SimThread &t = b.threads[linear];
              t = SimThread{};
              t.abi = pcc_sim_thread{{tx, ty, tz},
                                     {bx, by, bz},
                                     {block[0], block[1], block[2]},
                                     {grid[0], grid[1], grid[2]},
                                     shared,
                                     0};
              t.block = &b;
              t.state = State::Ready;
            }
        runBlock(b);
      }
#else
  (void)grid;
  (void)block;
  (void)params;
  pcc::runtime::failRun(std::string("GPU kernel '") + kernel.name +
                        "': the simulated GPU needs fibers, which this "
                        "build of pcc lacks (x86-64 only)");
#endif
}

//===----------------------------------------------------------------------===//
// What the kernels call
//===----------------------------------------------------------------------===//

#ifdef PCC_HAVE_FIBERS
extern "C" void pcc_sim_barrier(pcc_sim_thread *thread, const char *site) {
  SimThread &t = self(thread);
  t.state = State::AtBarrier;
  t.site = site;
  suspend(t);
  t.site = nullptr;
}

extern "C" uint64_t pcc_sim_shuffle(pcc_sim_thread *thread, uint64_t value,
                                    int32_t offset, int32_t width, int32_t mode,
                                    const char *site) {
  SimThread &t = self(thread);
  if (width <= 0 || width > int32_t(kWarpSize) || mode < 0 || mode > 3)
    fault(t, "a warp shuffle" + where(site) + " of width " +
                 std::to_string(width) + " (from 1 to 32)");
  t.state = State::AtShuffle;
  t.site = site;
  t.value = value;
  t.offset = offset;
  t.width = width;
  t.mode = mode;
  suspend(t);
  t.site = nullptr;
  return t.value;
}
#else
extern "C" void pcc_sim_barrier(pcc_sim_thread *, const char *) {}
extern "C" uint64_t pcc_sim_shuffle(pcc_sim_thread *, uint64_t value, int32_t,
                                    int32_t, int32_t, const char *) {
  return value;
}
#endif

extern "C" void pcc_sim_out_of_bounds(pcc_sim_thread *thread, const char *site,
                                      int64_t dim, int64_t index,
                                      int64_t bound) {
  pcc::runtime::failRun(describe(*reinterpret_cast<SimThread *>(thread)) +
                        ": " + site + ": index " + std::to_string(index) +
                        " is out of bounds for axis " + std::to_string(dim) +
                        " with size " + std::to_string(bound));
}
