//===- RuntimeABI.h - RuntimeABI.def as C++ tables --------------*- C++ -*-===//
//
// What the compiler and the driver need of the runtime's ABI, expanded from
// RuntimeABI.def: the element types, the reductions, and the names of the
// functions that lowered programs may call. No MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_RUNTIME_RUNTIMEABI_H
#define PCC_RUNTIME_RUNTIMEABI_H

#include "pcc/Runtime/pcc_runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pcc::abi {

/// How an element type's bits are read.
enum class ElementKind { Integer, Float, BFloat };

/// An element type of values that cross devices.
struct ElementType {
  const char *suffix; ///< The MLIR spelling: "i32", "bf16", ...
  pcc_dtype code;
  ElementKind kind;
  unsigned bits;
  bool reducible; ///< Whether all-reduce takes it (all but i1).

  unsigned bytes() const { return (bits + 7) / 8; }
};

inline constexpr ElementType kElementTypes[] = {
#define PCC_ELEMENT_TYPE(suffix, Enum, Kind, bits, reducible)                  \
  {#suffix, PCC_##Enum, ElementKind::Kind, bits, reducible != 0},
#include "pcc/Runtime/RuntimeABI.def"
};

/// The entry point of `collective` ("all_reduce", "permute", ... as in
/// PCC_COLLECTIVE_ENTRY_POINTS) for `type`, by the name the lowering calls
/// it (MLIR's C interface adds the `_mlir_ciface_` prefix).
inline std::string getCollectiveFunction(const char *collective,
                                         const ElementType &type) {
  return std::string("pcc_mlir_") + collective + "_" + type.suffix;
}

/// Every runtime function that a lowered program may call by name.
inline std::vector<std::string> getRuntimeFunctionNames() {
  std::vector<std::string> names = {
#define PCC_RUNTIME_FUNCTION(name, backend) #name,
#include "pcc/Runtime/RuntimeABI.def"
#define PCC_COLLECTIVE_NAME(collective, suffix, reduces)                       \
  "_mlir_ciface_pcc_mlir_" #collective "_" #suffix,
#define PCC_ELEMENT_TYPE(suffix, Enum, Kind, bits, reducible)                  \
  PCC_COLLECTIVE_ENTRY_POINTS(PCC_COLLECTIVE_NAME, suffix, reducible)
#include "pcc/Runtime/RuntimeABI.def"
#undef PCC_COLLECTIVE_NAME
  };
  return names;
}

} // namespace pcc::abi

#endif // PCC_RUNTIME_RUNTIMEABI_H
