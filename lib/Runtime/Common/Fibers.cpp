//===- Fibers.cpp - Several devices on one host thread --------------------===//
//
// Each thread that runs fibers has a scheduler (the thread's own stack) that
// resumes its unfinished fibers in turn; a fiber that waits switches back to
// it (yieldToSiblingDevice). A switch saves the callee-saved registers and
// the floating-point control words on the stack it leaves and restores them
// from the one it enters: a few nanoseconds, no system call. Each device
// number has a stack, mapped before the first run that needs it and reused
// by later ones; its pages are only committed as they are touched.
//
//===----------------------------------------------------------------------===//

#include "Fibers.h"

#include "Collectives.h"
#include "Mappings.h"
#include "RuntimeError.h"
#include "StackGuard.h"

#include "FiberSwitch.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#ifdef PCC_HAVE_FIBERS
// pcc_fiber_switch(void **save, void *next): pushes the callee-saved
// registers and MXCSR/x87 control words, stores the stack pointer in *save,
// and pops the same from the stack `next` points at. pcc_fiber_start is where
// a new fiber's first switch returns to: it calls (%r12)(%rbx), the entry
// function and its fiber, which never return. The switch returns with an
// indirect jump, not `ret`: it returns to another fiber's call site, which
// the return-stack predictor would miss every time (6-9 ns per switch,
// bench/fiber_switch.cpp; the same speed as Boost.Context's switch then).
asm(R"(
  .text
  .p2align 4
  .globl pcc_fiber_switch
  .hidden pcc_fiber_switch
  .type pcc_fiber_switch,@function
pcc_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  popq %rcx
  jmpq *%rcx
  .size pcc_fiber_switch, .-pcc_fiber_switch

  .p2align 4
  .globl pcc_fiber_start
  .hidden pcc_fiber_start
  .type pcc_fiber_start,@function
pcc_fiber_start:
  movq %rbx, %rdi
  callq *%r12
  ud2
  .size pcc_fiber_start, .-pcc_fiber_start
)");

extern "C" void pcc_fiber_start();
#endif

namespace pcc::runtime {

namespace {

struct Fiber {
  /// The saved stack pointer while the fiber is not running.
  void *sp = nullptr;
  /// The usable stack, above a guard page.
  char *stack = nullptr;
  int64_t device = 0;
  bool finished = true;
  /// ThreadSanitizer's state of the fiber.
  void *tsanFiber = nullptr;
};

/// Device d's stack as a fiber; mapped by reserveFiberStacks, before the
/// calls that use them, and kept for later calls.
std::vector<char *> &stacks() {
  static auto *s = new std::vector<char *>;
  return *s;
}

/// The fibers of one thread and its scheduler.
struct FiberThread {
  std::vector<Fiber> fibers;
  void *schedulerSp = nullptr;
  Fiber *current = nullptr;
  int64_t live = 0;
  void (*body)(void *, int64_t) = nullptr;
  void *args = nullptr;
  void *tsanScheduler = nullptr;
  /// The thread's own stack, for ASan, learnt at each switch from it.
  const void *schedulerStack = nullptr;
  size_t schedulerStackSize = 0;
};

thread_local FiberThread fiberThread;

#ifdef PCC_HAVE_FIBERS

/// From the scheduler to fiber `f`, until it switches back.
void resume(Fiber &f) {
  FiberThread &t = fiberThread;
  void *fakeStack = nullptr;
  enterDeviceStack(f.device, f.stack, kDeviceStackSize);
  asanStartSwitch(&fakeStack, f.stack, kDeviceStackSize);
  tsanSwitchTo(f.tsanFiber);
  pcc_fiber_switch(&t.schedulerSp, f.sp);
  asanFinishSwitch(fakeStack, nullptr, nullptr);
  leaveDeviceStack();
}

/// From fiber `f` back to the scheduler, until it is resumed; a fiber that
/// has finished passes `leaving`, and is never resumed.
void switchToScheduler(Fiber &f, bool leaving = false) {
  FiberThread &t = fiberThread;
  void *fakeStack = nullptr;
  asanStartSwitch(leaving ? nullptr : &fakeStack, t.schedulerStack,
                  t.schedulerStackSize);
  tsanSwitchTo(t.tsanScheduler);
  pcc_fiber_switch(&f.sp, t.schedulerSp);
  asanFinishSwitch(fakeStack, &t.schedulerStack, &t.schedulerStackSize);
}

[[noreturn]] void fiberMain(void *fiber) {
  auto *f = static_cast<Fiber *>(fiber);
  FiberThread &t = fiberThread;
  asanFinishSwitch(nullptr, &t.schedulerStack, &t.schedulerStackSize);
  t.body(t.args, f->device);
  f->finished = true;
  --t.live;
  switchToScheduler(*f, /*leaving=*/true);
  __builtin_unreachable();
}

/// Readies fiber `f` to enter fiberMain(f) when first switched to.
void prepare(Fiber &f) {
  f.sp = prepareFiberStack(f.stack, kDeviceStackSize, &fiberMain, &f);
  f.finished = false;
}

#endif // PCC_HAVE_FIBERS

} // namespace

char *mapFiberStack(size_t size) {
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  void *base =
      mmap(nullptr, size + page, PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (base == MAP_FAILED)
    return nullptr;
  mprotect(base, page, PROT_NONE);
  return static_cast<char *>(base) + page;
}

#ifdef PCC_HAVE_FIBERS
void *prepareFiberStack(char *stack, size_t size, void (*entry)(void *),
                        void *arg) {
  auto top = reinterpret_cast<uintptr_t>(stack + size) & ~uintptr_t(15);
  // From the stack pointer up: control words, r15, r14, r13, r12, rbx, rbp
  // and the return address, where pcc_fiber_start calls (%r12)(%rbx). The
  // stack pointer is 16-byte aligned, so that after the return
  // pcc_fiber_start calls with an aligned stack.
  auto *frame = reinterpret_cast<uint64_t *>(top - 80);
  uint32_t mxcsr;
  uint16_t fpuControl;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(fpuControl));
  std::memset(frame, 0, 80);
  frame[0] = uint64_t(mxcsr) | uint64_t(fpuControl) << 32;
  frame[4] = reinterpret_cast<uint64_t>(entry);            // r12
  frame[5] = reinterpret_cast<uint64_t>(arg);              // rbx
  frame[7] = reinterpret_cast<uint64_t>(&pcc_fiber_start); // return address
  return frame;
}
#endif

bool fibersSupported() {
#ifdef PCC_HAVE_FIBERS
  return true;
#else
  return false;
#endif
}

bool reserveFiberStacks(int64_t numDevices) {
  std::vector<char *> &all = stacks();
  if (int64_t(all.size()) >= numDevices)
    return true;
  // Each stack is two mappings; leave a quarter of the limit to the
  // program's buffers and the rest of the process.
  int64_t limit = getMappingLimit(), inUse = countMappings();
  int64_t needed = 2 * (numDevices - int64_t(all.size()));
  if (limit > 0 && inUse >= 0 && inUse + needed > limit - limit / 4) {
    int64_t most = int64_t(all.size()) + (limit - limit / 4 - inUse) / 2;
    char message[512];
    std::snprintf(message, sizeof(message),
                  "%lld devices need %lld memory mappings "
                  "for their stacks (a stack and a guard page each), more "
                  "than vm.max_map_count = %lld leaves (the process has %lld): "
                  "run at most %lld devices per process, or raise the limit "
                  "(sysctl vm.max_map_count=%lld)",
                  static_cast<long long>(numDevices),
                  static_cast<long long>(needed), static_cast<long long>(limit),
                  static_cast<long long>(inUse),
                  static_cast<long long>(most > 0 ? most : 0),
                  static_cast<long long>(4 * (inUse + needed) / 3 + 1));
    reportError(message);
    return false;
  }
  while (int64_t(all.size()) < numDevices) {
    char *stack = mapFiberStack(kDeviceStackSize);
    if (!stack) {
      reportError("cannot map a " + std::to_string(kDeviceStackSize >> 20) +
                  " MiB stack for device " + std::to_string(all.size()) + ": " +
                  std::strerror(errno));
      return false;
    }
    all.push_back(stack);
  }
  return true;
}

void runDevicesAsFibers(int64_t first, int64_t count,
                        void (*body)(void *, int64_t), void *args) {
#ifdef PCC_HAVE_FIBERS
  FiberThread &t = fiberThread;
  t.fibers.resize(size_t(count));
  t.body = body;
  t.args = args;
  t.live = count;
  t.tsanScheduler = tsanCurrentFiber();
  for (int64_t i = 0; i < count; ++i) {
    Fiber &f = t.fibers[i];
    if (!f.tsanFiber)
      f.tsanFiber = tsanNewFiber();
    f.device = first + i;
    f.stack = stacks()[size_t(f.device)];
    prepare(f);
  }
  while (t.live > 0)
    for (Fiber &f : t.fibers) {
      if (f.finished)
        continue;
      t.current = &f;
      resume(f);
      t.current = nullptr;
    }
#else
  // Not reached: the device pool only uses fibers where they are supported.
  for (int64_t d = first; d < first + count; ++d)
    body(args, d);
#endif
}

namespace {
/// PollingFibers alive on this thread.
thread_local int pollingFibers = 0;
} // namespace

PollingFiber::PollingFiber() { ++pollingFibers; }
PollingFiber::~PollingFiber() { --pollingFibers; }
bool siblingPolls() { return pollingFibers > 0; }

bool hasSiblingDevices() {
  FiberThread &t = fiberThread;
  return t.current && t.live > 1;
}

bool yieldToSiblingDevice() {
#ifdef PCC_HAVE_FIBERS
  FiberThread &t = fiberThread;
  Fiber *f = t.current;
  if (!f || t.live <= 1)
    return false;
  // The call site is per device; the thread's slot is shared by its fibers.
  CallSite site = currentCallSite();
  switchToScheduler(*f);
  currentCallSite() = site;
  return true;
#else
  return false;
#endif
}

} // namespace pcc::runtime
