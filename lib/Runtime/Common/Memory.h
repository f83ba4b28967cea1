//===- Memory.h - The host buffers of generated code -----------*- C++ -*-===//

#ifndef PCC_LIB_RUNTIME_MEMORY_H
#define PCC_LIB_RUNTIME_MEMORY_H

namespace pcc::runtime {

/// Makes the C library keep the memory of freed buffers for the next ones
/// instead of returning it to the system, unless the user tuned malloc
/// (GLIBC_TUNABLES, MALLOC_*_). Called once, before any device runs.
void keepFreedMemory();

} // namespace pcc::runtime

#endif // PCC_LIB_RUNTIME_MEMORY_H
