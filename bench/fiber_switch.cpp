// Cost of a fiber switch: pcc's hand-written x86-64 switch
// (lib/Runtime/Common/Fibers.cpp, compiled into this file unchanged) against Boost.Context's
// fiber (callcc-style API) and its bare fcontext (jump_fcontext). Not part of
// the CMake build. Build and run from the repository root:
//
//   g++ -std=c++17 -O2 bench/fiber_switch.cpp -o /tmp/fiber_switch -lboost_context
//   /tmp/fiber_switch [--runs 7] [--switches 10000000] [--stacks 10000]
//
// (Debian: apt-get install libboost-context-dev.) Each figure is the median
// of --runs runs; the variants of a test take turns run by run (a b c d a b
// c d ...), so that noise on the machine hits them alike.
//
//   ping-pong     two contexts switching directly to each other
//   round robin   a scheduler resuming 64 fibers in turn, each switching
//                 straight back (how runDevicesAsFibers runs devices)
//   runtime path  runDevicesAsFibers with 2 or 64 devices that only call
//                 yieldToSiblingDevice, the path of a device waiting in a
//                 collective (a yield is two switches: to the scheduler and
//                 on to the next device): Fibers.cpp itself, and copies of
//                 its scheduler that differ only in the switch
//   stacks        creating --stacks fibers with 64 KiB stacks behind a
//                 guard page, then entering each, its end, and freeing it
//
// Every switch test also runs "pop+jmp", pcc's switch with its final `ret`
// replaced by `pop %rcx; jmp *%rcx` (defined here only), which tells how
// much of the difference is the return-stack misprediction of that `ret`.
//
// A "switch" is one transfer from one context to another; every test does
// --switches of them in total and reports ns per switch.

#include "../lib/Runtime/Common/Fibers.cpp"

#include <boost/context/detail/fcontext.hpp>
#include <boost/context/fiber.hpp>
#include <boost/context/fixedsize_stack.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

// Fibers.cpp keeps the call site of a waiting device across its switch; the
// real definition lives in Collectives.cpp, which this benchmark leaves out.
namespace pcc::runtime {
CallSite &currentCallSite() {
  thread_local CallSite site;
  return site;
}
} // namespace pcc::runtime

// A variant of pcc_fiber_switch for this benchmark only: the same saves and
// restores, leaving by popping the return address and jumping to it, as
// Boost's jump_fcontext does, instead of `ret` (what pcc's switch did before
// this measurement; it now ends the same way, so the two columns agree).
// A `ret` to another context's call site is one the return-stack predictor
// never foresees.
asm(R"(
  .text
  .p2align 4
  .globl bench_switch_jmp
  .hidden bench_switch_jmp
  .type bench_switch_jmp,@function
bench_switch_jmp:
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
  .size bench_switch_jmp, .-bench_switch_jmp
)");
extern "C" void bench_switch_jmp(void **save, void *next);

namespace ctx = boost::context;
using ctx::detail::fcontext_t;
using ctx::detail::jump_fcontext;
using ctx::detail::make_fcontext;
using ctx::detail::transfer_t;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

[[noreturn]] void fail(const char *what) {
  std::fprintf(stderr, "fiber_switch: %s\n", what);
  std::exit(1);
}

constexpr size_t kSmallStack = size_t(64) << 10;
constexpr int kFibers = 64;

/// A 64 KiB stack behind a guard page, mapped as Fibers.cpp's mapStack maps
/// its 16 MiB ones. Returns the usable stack's lowest address.
char *mapSmallStack() {
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  void *base = mmap(nullptr, kSmallStack + page, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                    -1, 0);
  if (base == MAP_FAILED)
    fail("mmap failed");
  mprotect(base, page, PROT_NONE);
  return static_cast<char *>(base) + page;
}

void unmapSmallStack(char *stack) {
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  munmap(stack - page, kSmallStack + page);
}

//===----------------------------------------------------------------------===//
// pcc's switch, called directly
//===----------------------------------------------------------------------===//

/// Lays out a suspended context on the stack below `top` as Fibers.cpp's
/// prepare() does, entering fn(arg) through pcc_fiber_start on the first
/// switch to it. Returns its saved stack pointer.
void *pccMakeContext(char *top, void (*fn)(void *), void *arg) {
  auto t = reinterpret_cast<uintptr_t>(top) & ~uintptr_t(15);
  auto *frame = reinterpret_cast<uint64_t *>(t - 80);
  uint32_t mxcsr;
  uint16_t fpuControl;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(fpuControl));
  std::memset(frame, 0, 80);
  frame[0] = uint64_t(mxcsr) | uint64_t(fpuControl) << 32;
  frame[4] = reinterpret_cast<uint64_t>(fn);              // r12
  frame[5] = reinterpret_cast<uint64_t>(arg);             // rbx
  frame[7] = reinterpret_cast<uint64_t>(&pcc_fiber_start); // return address
  return frame;
}

using SwitchFn = void (*)(void **, void *);

struct PccRaw {
  void *mainSp = nullptr;
  void *sp = nullptr;
  int64_t rounds = 0;
  int64_t count = 0;
};

/// A context that switches back to the main one `rounds` times, then once
/// more for good.
template <SwitchFn Switch> void pccRawEntry(void *arg) {
  auto *c = static_cast<PccRaw *>(arg);
  for (int64_t k = 0; k < c->rounds; ++k) {
    ++c->count;
    Switch(&c->sp, c->mainSp);
  }
  Switch(&c->sp, c->mainSp);
  __builtin_unreachable();
}

template <SwitchFn Switch> double pccPingPong(int64_t switches) {
  char *stack = mapSmallStack();
  PccRaw c;
  c.rounds = switches / 2;
  c.sp = pccMakeContext(stack + kSmallStack, pccRawEntry<Switch>, &c);
  Switch(&c.mainSp, c.sp); // enter: not timed
  auto start = Clock::now();
  for (int64_t k = 1; k < c.rounds; ++k)
    Switch(&c.mainSp, c.sp);
  double s = secondsSince(start);
  Switch(&c.mainSp, c.sp); // the context's last switch back
  if (c.count != c.rounds)
    fail("pcc ping-pong miscounted");
  unmapSmallStack(stack);
  return s / double(2 * (c.rounds - 1));
}

template <SwitchFn Switch> double pccRoundRobin(int64_t switches) {
  int64_t rounds = switches / (2 * kFibers);
  std::vector<PccRaw> fibers(kFibers);
  std::vector<char *> stacks(kFibers);
  for (int i = 0; i < kFibers; ++i) {
    stacks[i] = mapSmallStack();
    fibers[i].rounds = rounds;
    fibers[i].sp = pccMakeContext(stacks[i] + kSmallStack, pccRawEntry<Switch>,
                                  &fibers[i]);
  }
  // The scheduler saves its stack pointer where the fiber it resumes will
  // look for it (f.mainSp).
  for (auto &f : fibers)
    Switch(&f.mainSp, f.sp); // enter: not timed
  auto start = Clock::now();
  for (int64_t k = 1; k < rounds; ++k)
    for (auto &f : fibers)
      Switch(&f.mainSp, f.sp);
  double s = secondsSince(start);
  for (auto &f : fibers)
    Switch(&f.mainSp, f.sp);
  for (int i = 0; i < kFibers; ++i) {
    if (fibers[i].count != rounds)
      fail("pcc round robin miscounted");
    unmapSmallStack(stacks[i]);
  }
  return s / double(2 * kFibers * (rounds - 1));
}

//===----------------------------------------------------------------------===//
// Boost.Context's fiber
//===----------------------------------------------------------------------===//

double boostPingPong(int64_t switches) {
  int64_t rounds = switches / 2;
  int64_t count = 0;
  ctx::fiber f{std::allocator_arg, ctx::protected_fixedsize_stack(kSmallStack),
               [&](ctx::fiber &&main) {
                 for (int64_t k = 0; k < rounds; ++k) {
                   ++count;
                   main = std::move(main).resume();
                 }
                 return std::move(main);
               }};
  f = std::move(f).resume(); // enter: not timed
  auto start = Clock::now();
  for (int64_t k = 1; k < rounds; ++k)
    f = std::move(f).resume();
  double s = secondsSince(start);
  f = std::move(f).resume(); // the fiber returns
  if (f || count != rounds)
    fail("boost ping-pong miscounted");
  return s / double(2 * (rounds - 1));
}

double boostRoundRobin(int64_t switches) {
  int64_t rounds = switches / (2 * kFibers);
  std::vector<int64_t> counts(kFibers, 0);
  std::vector<ctx::fiber> fibers;
  fibers.reserve(kFibers);
  for (int i = 0; i < kFibers; ++i)
    fibers.emplace_back(std::allocator_arg,
                        ctx::protected_fixedsize_stack(kSmallStack),
                        [&, i](ctx::fiber &&scheduler) {
                          for (int64_t k = 0; k < rounds; ++k) {
                            ++counts[i];
                            scheduler = std::move(scheduler).resume();
                          }
                          return std::move(scheduler);
                        });
  for (auto &f : fibers)
    f = std::move(f).resume();
  auto start = Clock::now();
  for (int64_t k = 1; k < rounds; ++k)
    for (auto &f : fibers)
      f = std::move(f).resume();
  double s = secondsSince(start);
  for (auto &f : fibers)
    f = std::move(f).resume();
  for (int i = 0; i < kFibers; ++i)
    if (fibers[i] || counts[i] != rounds)
      fail("boost round robin miscounted");
  return s / double(2 * kFibers * (rounds - 1));
}

//===----------------------------------------------------------------------===//
// Boost.Context's fcontext
//===----------------------------------------------------------------------===//

struct Fctx {
  fcontext_t fctx = nullptr;
  int64_t rounds = 0;
  int64_t count = 0;
};

/// Switches back to whoever entered it `rounds` times, then once more for
/// good (an fcontext function must not return).
void fctxEntry(transfer_t t) {
  auto *c = static_cast<Fctx *>(t.data);
  for (int64_t k = 0; k < c->rounds; ++k) {
    ++c->count;
    t = jump_fcontext(t.fctx, nullptr);
  }
  jump_fcontext(t.fctx, nullptr);
  __builtin_unreachable();
}

double fctxPingPong(int64_t switches) {
  char *stack = mapSmallStack();
  Fctx c;
  c.rounds = switches / 2;
  c.fctx = make_fcontext(stack + kSmallStack, kSmallStack, fctxEntry);
  c.fctx = jump_fcontext(c.fctx, &c).fctx; // enter: not timed
  auto start = Clock::now();
  for (int64_t k = 1; k < c.rounds; ++k)
    c.fctx = jump_fcontext(c.fctx, nullptr).fctx;
  double s = secondsSince(start);
  jump_fcontext(c.fctx, nullptr);
  if (c.count != c.rounds)
    fail("fcontext ping-pong miscounted");
  unmapSmallStack(stack);
  return s / double(2 * (c.rounds - 1));
}

double fctxRoundRobin(int64_t switches) {
  int64_t rounds = switches / (2 * kFibers);
  std::vector<Fctx> fibers(kFibers);
  std::vector<char *> stacks(kFibers);
  for (int i = 0; i < kFibers; ++i) {
    stacks[i] = mapSmallStack();
    fibers[i].rounds = rounds;
    fibers[i].fctx =
        make_fcontext(stacks[i] + kSmallStack, kSmallStack, fctxEntry);
  }
  for (auto &f : fibers)
    f.fctx = jump_fcontext(f.fctx, &f).fctx;
  auto start = Clock::now();
  for (int64_t k = 1; k < rounds; ++k)
    for (auto &f : fibers)
      f.fctx = jump_fcontext(f.fctx, nullptr).fctx;
  double s = secondsSince(start);
  for (auto &f : fibers)
    jump_fcontext(f.fctx, nullptr);
  for (int i = 0; i < kFibers; ++i) {
    if (fibers[i].count != rounds)
      fail("fcontext round robin miscounted");
    unmapSmallStack(stacks[i]);
  }
  return s / double(2 * kFibers * (rounds - 1));
}

//===----------------------------------------------------------------------===//
// pcc's runtime API: runDevicesAsFibers + yieldToSiblingDevice
//===----------------------------------------------------------------------===//

// The path of a device that waits in a collective: Sync.h's SpinWait calls
// yieldToSiblingDevice, in another translation unit (hence the call through
// a pointer here), which switches to the thread's scheduler, which resumes
// the next unfinished device. Measured for Fibers.cpp itself and for copies
// of its scheduler (below) that differ only in the switch.

using YieldFn = bool (*)();
using RunFn = void (*)(int64_t, int64_t, void (*)(void *, int64_t), void *);

struct ApiArgs {
  YieldFn yield = nullptr;
  int64_t yields = 0;
  std::vector<int64_t> counts;
};

void apiBody(void *p, int64_t device) {
  auto *a = static_cast<ApiArgs *>(p);
  YieldFn volatile yield = a->yield;
  for (int64_t k = 0; k < a->yields; ++k) {
    if (!yield())
      fail("yieldToSiblingDevice did not switch");
    ++a->counts[size_t(device)];
  }
}

/// n devices each yielding until `switches` switches are done; includes
/// preparing the fibers and their ends (n of each against 10^7 switches).
double runApi(RunFn run, YieldFn yield, int64_t switches, int n) {
  ApiArgs a;
  a.yield = yield;
  a.yields = switches / (2 * n);
  a.counts.assign(size_t(n), 0);
  auto start = Clock::now();
  run(0, n, apiBody, &a);
  double s = secondsSince(start);
  for (int64_t c : a.counts)
    if (c != a.yields)
      fail("api miscounted");
  return s / double(2 * n * a.yields);
}

/// Fibers.cpp's runDevicesAsFibers / yieldToSiblingDevice, with the switch
/// given by Switch: the same structure, the same stacks (Fibers.cpp's
/// reserved 16 MiB ones), the same bookkeeping (ASan/TSan hooks left out:
/// they compile to nothing here as there).
template <class Handle> struct SFiber {
  Handle handle{};
  char *stack = nullptr;
  int64_t device = 0;
  bool finished = true;
};

template <class Handle> struct SThread {
  std::vector<SFiber<Handle>> fibers;
  Handle scheduler{};
  SFiber<Handle> *current = nullptr;
  int64_t live = 0;
  void (*body)(void *, int64_t) = nullptr;
  void *args = nullptr;
};

template <class Switch> struct Scheduler {
  using Fiber = SFiber<typename Switch::Handle>;
  using Thread = SThread<typename Switch::Handle>;
  static inline thread_local Thread thread;

  static void fiberMain(Fiber *f) {
    Thread &t = thread;
    t.body(t.args, f->device);
    f->finished = true;
    --t.live;
  }

  static void run(int64_t first, int64_t count,
                  void (*body)(void *, int64_t), void *args) {
    Thread &t = thread;
    t.fibers.resize(size_t(count));
    t.body = body;
    t.args = args;
    t.live = count;
    for (int64_t i = 0; i < count; ++i) {
      Fiber &f = t.fibers[i];
      f.device = first + i;
      f.stack = pcc::runtime::stacks()[size_t(f.device)];
      f.finished = false;
      Switch::prepare(f, t);
    }
    while (t.live > 0)
      for (Fiber &f : t.fibers) {
        if (f.finished)
          continue;
        t.current = &f;
        Switch::resume(f, t);
        t.current = nullptr;
      }
  }

  static bool yield() {
    Thread &t = thread;
    Fiber *f = t.current;
    if (!f || t.live <= 1)
      return false;
    pcc::runtime::CallSite site = pcc::runtime::currentCallSite();
    Switch::toScheduler(*f, t);
    pcc::runtime::currentCallSite() = site;
    return true;
  }
};

/// pcc's own assembly switch, as Fibers.cpp uses it (the control: should
/// match Fibers.cpp itself), or the benchmark's variant of it.
template <SwitchFn SwitchAsm> struct AsmSwitch {
  using Handle = void *;
  using Fiber = SFiber<Handle>;
  using Thread = SThread<Handle>;
  static void entry(void *arg);
  static void prepare(Fiber &f, Thread &) {
    f.handle =
        pccMakeContext(f.stack + pcc::runtime::kDeviceStackSize, entry, &f);
  }
  static void resume(Fiber &f, Thread &t) {
    SwitchAsm(&t.scheduler, f.handle);
  }
  static void toScheduler(Fiber &f, Thread &t) {
    SwitchAsm(&f.handle, t.scheduler);
  }
};

template <SwitchFn SwitchAsm> void AsmSwitch<SwitchAsm>::entry(void *arg) {
  using S = Scheduler<AsmSwitch>;
  auto *f = static_cast<Fiber *>(arg);
  S::fiberMain(f);
  SwitchAsm(&f->handle, S::thread.scheduler);
  __builtin_unreachable();
}

/// Boost's jump_fcontext: the context left is handed to the one entered,
/// rather than saved by the one left.
struct FcontextSwitch {
  using Handle = fcontext_t;
  using Fiber = SFiber<Handle>;
  using Thread = SThread<Handle>;
  static void entry(transfer_t t);
  static void prepare(Fiber &f, Thread &) {
    f.handle = make_fcontext(f.stack + pcc::runtime::kDeviceStackSize,
                             pcc::runtime::kDeviceStackSize, entry);
  }
  static void resume(Fiber &f, Thread &) {
    f.handle = jump_fcontext(f.handle, &f).fctx;
  }
  static void toScheduler(Fiber &, Thread &t) {
    t.scheduler = jump_fcontext(t.scheduler, nullptr).fctx;
  }
};

void FcontextSwitch::entry(transfer_t t) {
  using S = Scheduler<FcontextSwitch>;
  auto *f = static_cast<Fiber *>(t.data);
  S::thread.scheduler = t.fctx;
  S::fiberMain(f);
  jump_fcontext(S::thread.scheduler, nullptr);
  __builtin_unreachable();
}

/// A stack that the fiber is given and does not free: Fibers.cpp keeps its
/// stacks from run to run.
struct KeptStack {
  ctx::stack_context allocate() { fail("KeptStack allocates nothing"); }
  void deallocate(ctx::stack_context &) noexcept {}
};

/// boost::context::fiber: a fiber holds the continuation of whoever resumed
/// it; one that returns hands its last continuation back.
struct BoostFiberSwitch {
  using Handle = ctx::fiber;
  using Fiber = SFiber<Handle>;
  using Thread = SThread<Handle>;
  static void prepare(Fiber &f, Thread &);
  static void resume(Fiber &f, Thread &) {
    f.handle = std::move(f.handle).resume();
  }
  static void toScheduler(Fiber &, Thread &t) {
    t.scheduler = std::move(t.scheduler).resume();
  }
};

void BoostFiberSwitch::prepare(Fiber &f, Thread &) {
  using S = Scheduler<BoostFiberSwitch>;
  ctx::stack_context sc;
  sc.size = pcc::runtime::kDeviceStackSize;
  sc.sp = f.stack + pcc::runtime::kDeviceStackSize;
  Fiber *self = &f;
  f.handle = ctx::fiber{std::allocator_arg,
                        ctx::preallocated(sc.sp, sc.size, sc), KeptStack{},
                        [self](ctx::fiber &&scheduler) {
                          S::thread.scheduler = std::move(scheduler);
                          S::fiberMain(self);
                          return std::move(S::thread.scheduler);
                        }};
}

//===----------------------------------------------------------------------===//
// Creating fibers
//===----------------------------------------------------------------------===//

struct StackCost {
  double create = 0; ///< ns per fiber: stack and context, ready to enter
  double total = 0;  ///< ns per fiber: that, entering it once, its end, free
};

void pccNothing(void *arg) {
  auto *c = static_cast<PccRaw *>(arg);
  pcc_fiber_switch(&c->sp, c->mainSp);
  __builtin_unreachable();
}

StackCost pccStacks(int n) {
  std::vector<PccRaw> cs(static_cast<size_t>(n));
  std::vector<char *> stacks(static_cast<size_t>(n));
  auto start = Clock::now();
  for (int i = 0; i < n; ++i) {
    stacks[i] = mapSmallStack();
    cs[i].sp = pccMakeContext(stacks[i] + kSmallStack, pccNothing, &cs[i]);
  }
  double create = secondsSince(start);
  for (int i = 0; i < n; ++i) {
    pcc_fiber_switch(&cs[i].mainSp, cs[i].sp);
    unmapSmallStack(stacks[i]);
  }
  double total = secondsSince(start);
  return {create / n * 1e9, total / n * 1e9};
}

/// Fibers.cpp's own mapStack (16 MiB, MAP_NORESERVE) with the same frame.
StackCost pccMapStack(int n) {
  std::vector<PccRaw> cs(static_cast<size_t>(n));
  std::vector<char *> stacks(static_cast<size_t>(n));
  auto start = Clock::now();
  for (int i = 0; i < n; ++i) {
    stacks[i] = pcc::runtime::mapStack();
    if (!stacks[i])
      fail("mapStack failed");
    cs[i].sp = pccMakeContext(stacks[i] + pcc::runtime::kDeviceStackSize,
                              pccNothing, &cs[i]);
  }
  double create = secondsSince(start);
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  for (int i = 0; i < n; ++i) {
    pcc_fiber_switch(&cs[i].mainSp, cs[i].sp);
    munmap(stacks[i] - page, pcc::runtime::kDeviceStackSize + page);
  }
  double total = secondsSince(start);
  return {create / n * 1e9, total / n * 1e9};
}

template <typename Alloc> StackCost boostStacks(int n) {
  std::vector<ctx::fiber> fibers;
  fibers.reserve(size_t(n));
  auto start = Clock::now();
  for (int i = 0; i < n; ++i)
    fibers.emplace_back(std::allocator_arg, Alloc(kSmallStack),
                        [](ctx::fiber &&main) { return std::move(main); });
  double create = secondsSince(start);
  // Run to its end, a fiber frees its own stack; destroying one that has
  // not ended would unwind it with an exception.
  for (auto &f : fibers)
    f = std::move(f).resume();
  double total = secondsSince(start);
  return {create / n * 1e9, total / n * 1e9};
}

void fctxNothing(transfer_t t) {
  jump_fcontext(t.fctx, nullptr);
  __builtin_unreachable();
}

StackCost fctxStacks(int n) {
  std::vector<fcontext_t> cs(static_cast<size_t>(n));
  std::vector<char *> stacks(static_cast<size_t>(n));
  auto start = Clock::now();
  for (int i = 0; i < n; ++i) {
    stacks[i] = mapSmallStack();
    cs[i] = make_fcontext(stacks[i] + kSmallStack, kSmallStack, fctxNothing);
  }
  double create = secondsSince(start);
  for (int i = 0; i < n; ++i) {
    jump_fcontext(cs[i], nullptr);
    unmapSmallStack(stacks[i]);
  }
  double total = secondsSince(start);
  return {create / n * 1e9, total / n * 1e9};
}

//===----------------------------------------------------------------------===//

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct Variant {
  const char *name;
  std::function<double()> run;
  std::vector<double> figures = {};
};

/// Runs the variants in turn, `runs` times, and prints each one's median,
/// minimum and maximum in ns.
void sideBySide(const char *test, std::vector<Variant> variants, int runs) {
  for (int r = 0; r < runs; ++r)
    for (auto &v : variants)
      v.figures.push_back(v.run());
  std::printf("%s\n", test);
  for (auto &v : variants)
    std::printf("  %-36s %7.2f ns  (%.2f-%.2f)\n", v.name,
                median(v.figures),
                *std::min_element(v.figures.begin(), v.figures.end()),
                *std::max_element(v.figures.begin(), v.figures.end()));
  std::fflush(stdout);
}

int64_t argValue(int argc, char **argv, const char *flag, int64_t fallback) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == flag)
      return std::strtoll(argv[i + 1], nullptr, 10);
  return fallback;
}

} // namespace

int main(int argc, char **argv) {
  int runs = int(argValue(argc, argv, "--runs", 7));
  int64_t switches = argValue(argc, argv, "--switches", 10000000);
  int stacks = int(argValue(argc, argv, "--stacks", 10000));
  std::printf("ns per switch, median of %d interleaved runs (min-max); "
              "%lld switches a run\n",
              runs, (long long)switches);
  if (!pcc::runtime::reserveFiberStacks(kFibers))
    fail("cannot reserve pcc's fiber stacks");

  auto ns = [](double s) { return s * 1e9; };
  using PccAsm = Scheduler<AsmSwitch<pcc_fiber_switch>>;
  using JmpAsm = Scheduler<AsmSwitch<bench_switch_jmp>>;
  using Fctx = Scheduler<FcontextSwitch>;
  using BoostFiber = Scheduler<BoostFiberSwitch>;
  sideBySide("ping-pong, 2 contexts",
             {{"pcc pcc_fiber_switch",
               [&] { return ns(pccPingPong<pcc_fiber_switch>(switches)); }},
              {"boost::context::fiber", [&] { return ns(boostPingPong(switches)); }},
              {"boost jump_fcontext", [&] { return ns(fctxPingPong(switches)); }},
              {"pcc's switch, ret -> pop+jmp (bench)",
               [&] { return ns(pccPingPong<bench_switch_jmp>(switches)); }}},
             runs);
  sideBySide("round robin, scheduler + 64 fibers",
             {{"pcc pcc_fiber_switch",
               [&] { return ns(pccRoundRobin<pcc_fiber_switch>(switches)); }},
              {"boost::context::fiber", [&] { return ns(boostRoundRobin(switches)); }},
              {"boost jump_fcontext", [&] { return ns(fctxRoundRobin(switches)); }},
              {"pcc's switch, ret -> pop+jmp (bench)",
               [&] { return ns(pccRoundRobin<bench_switch_jmp>(switches)); }}},
             runs);
  for (int n : {2, kFibers}) {
    std::string title = "runtime path, " + std::to_string(n) +
                        " devices on one thread (per switch; a yield is 2)";
    sideBySide(
        title.c_str(),
        {{"Fibers.cpp itself", [&] {
            return ns(runApi(pcc::runtime::runDevicesAsFibers,
                             pcc::runtime::yieldToSiblingDevice, switches, n));
          }},
         {"copy, pcc_fiber_switch", [&] {
            return ns(runApi(PccAsm::run, PccAsm::yield, switches, n));
          }},
         {"copy, boost::context::fiber", [&] {
            return ns(runApi(BoostFiber::run, BoostFiber::yield, switches, n));
          }},
         {"copy, boost jump_fcontext", [&] {
            return ns(runApi(Fctx::run, Fctx::yield, switches, n));
          }},
         {"copy, ret -> pop+jmp (bench)", [&] {
            return ns(runApi(JmpAsm::run, JmpAsm::yield, switches, n));
          }}},
        runs);
  }

  std::vector<std::pair<const char *, std::function<StackCost()>>> makers = {
      {"pcc-style mmap+guard 64 KiB", [&] { return pccStacks(stacks); }},
      {"boost fiber protected_fixedsize 64K",
       [&] { return boostStacks<ctx::protected_fixedsize_stack>(stacks); }},
      {"boost make_fcontext, mmap+guard 64K", [&] { return fctxStacks(stacks); }},
      {"boost fiber fixedsize (malloc) 64K",
       [&] { return boostStacks<ctx::fixedsize_stack>(stacks); }},
      {"pcc mapStack (16 MiB, as Fibers.cpp)",
       [&] { return pccMapStack(stacks); }}};
  std::vector<std::vector<double>> create(makers.size()), total(makers.size());
  for (int r = 0; r < runs; ++r)
    for (size_t i = 0; i < makers.size(); ++i) {
      StackCost c = makers[i].second();
      create[i].push_back(c.create);
      total[i].push_back(c.total);
    }
  std::printf("creating %d fibers: ns per fiber, median of %d interleaved "
              "runs\n  %-36s %9s %22s\n",
              stacks, runs, "", "create", "create+enter+end+free");
  for (size_t i = 0; i < makers.size(); ++i)
    std::printf("  %-36s %9.0f %22.0f\n", makers[i].first, median(create[i]),
                median(total[i]));
  return 0;
}
