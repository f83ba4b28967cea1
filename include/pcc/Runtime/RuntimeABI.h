//===- RuntimeABI.h - RuntimeABI.def as C++ tables --------------*- C++ -*-===//
//
// What the compiler and the driver need of the runtime's ABI, expanded from
// RuntimeABI.def: the element types, the fields of a collective call site,
// and the names of the functions that lowered programs may call. No MLIR.
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

/// The fields of pcc_collective_site, by their index in the i64 array that
/// generated code passes for a call site; the grid's sizes follow at
/// kSiteFields.
enum SiteField {
#define PCC_SITE_FIELD(name) kSite_##name,
#include "pcc/Runtime/RuntimeABI.def"
  kSiteFields
};
static_assert(sizeof(pcc_collective_site) == kSiteFields * sizeof(int64_t),
              "pcc_collective_site is an array of int64_t");

/// Every runtime function that a lowered program may call by name.
inline std::vector<std::string> getRuntimeFunctionNames() {
  std::vector<std::string> names = {
#define PCC_RUNTIME_FUNCTION(name, backend) #name,
#include "pcc/Runtime/RuntimeABI.def"
  };
  return names;
}

} // namespace pcc::abi

#endif // PCC_RUNTIME_RUNTIMEABI_H
