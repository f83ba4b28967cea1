//===- FiberSwitch.h - Switching between stacks in user space ---*- C++ -*-===//
//
// The one primitive under the runtime's fibers (Fibers.cpp: devices sharing
// a host thread) and the simulated GPU's threads (Sim/: a block's threads
// sharing one): a switch of stacks that saves the callee-saved registers and
// the floating-point control words on the stack it leaves and restores them
// from the one it enters, in a few nanoseconds and without a system call;
// how a new stack is laid out to enter a function on the first switch; and
// what the sanitizers must be told about each switch.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_RUNTIME_FIBERSWITCH_H
#define PCC_LIB_RUNTIME_FIBERSWITCH_H

#include <cstddef>
#include <cstdint>

// The sanitizers must be told about switches of stacks.
#if defined(__SANITIZE_ADDRESS__)
#define PCC_ASAN 1
#elif defined(__SANITIZE_THREAD__)
#define PCC_TSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PCC_ASAN 1
#elif __has_feature(thread_sanitizer)
#define PCC_TSAN 1
#endif
#endif
#ifdef PCC_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef PCC_TSAN
#include <sanitizer/tsan_interface.h>
#endif

#if defined(__x86_64__) && defined(__ELF__)
#define PCC_HAVE_FIBERS 1
/// Pushes the callee-saved registers and MXCSR/x87 control words, stores
/// the stack pointer in *save, and pops the same from the stack `next`
/// points at (Fibers.cpp defines it).
extern "C" void pcc_fiber_switch(void **save, void *next);
#endif

namespace pcc::runtime {

/// Maps a stack of `size` bytes with a guard page below it, committed only
/// as it is touched. Returns its lowest usable byte, or null on failure.
char *mapFiberStack(size_t size);

#ifdef PCC_HAVE_FIBERS
/// Lays out the stack [stack, stack + size) as pcc_fiber_switch leaves a
/// suspended one, so that the first switch to the returned stack pointer
/// calls entry(arg), which must never return.
void *prepareFiberStack(char *stack, size_t size, void (*entry)(void *),
                        void *arg);
#endif

// ASan follows switches of stacks: it is told before one (the stack entered,
// and where to keep the fake stack of the one left, null when that one will
// never be resumed) and after (the fake stack kept; it tells the stack left).
#ifdef PCC_ASAN
inline void asanStartSwitch(void **fakeStack, const void *stack, size_t size) {
  __sanitizer_start_switch_fiber(fakeStack, stack, size);
}
inline void asanFinishSwitch(void *fakeStack, const void **from,
                             size_t *fromSize) {
  __sanitizer_finish_switch_fiber(fakeStack, from, fromSize);
}
/// A stack reused by a new fiber may hold the redzones of frames that never
/// returned (a finished fiber's entry function): ASan must forget them.
inline void asanForgetStack(char *stack, size_t size) {
  __asan_unpoison_memory_region(stack, size);
}
#else
inline void asanStartSwitch(void **, const void *, size_t) {}
inline void asanFinishSwitch(void *, const void **, size_t *) {}
inline void asanForgetStack(char *, size_t) {}
#endif

// ThreadSanitizer keeps a state per fiber, and is told right before a
// switch (which then orders what the two fibers did, as on one thread).
#ifdef PCC_TSAN
inline void *tsanCurrentFiber() { return __tsan_get_current_fiber(); }
inline void *tsanNewFiber() { return __tsan_create_fiber(0); }
inline void tsanSwitchTo(void *fiber) { __tsan_switch_to_fiber(fiber, 0); }
inline void tsanDestroyFiber(void *fiber) { __tsan_destroy_fiber(fiber); }
#else
inline void *tsanCurrentFiber() { return nullptr; }
inline void *tsanNewFiber() { return nullptr; }
inline void tsanSwitchTo(void *) {}
inline void tsanDestroyFiber(void *) {}
#endif

} // namespace pcc::runtime

#endif // PCC_LIB_RUNTIME_FIBERSWITCH_H
