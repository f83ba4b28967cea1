//===- Mappings.h - The process's memory mappings and their limit -*- C++
//-*-===//
//
// Linux limits a process to vm.max_map_count memory mappings (65530 by
// default). A device run as a fiber takes two (its stack and the guard page
// below it) and a large buffer one, so that many devices can use them up:
// the runtime then says so, instead of "out of memory".
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_RUNTIME_MAPPINGS_H
#define PCC_LIB_RUNTIME_MAPPINGS_H

#include <cstdint>

namespace pcc::runtime {

/// vm.max_map_count, or -1 if unknown.
int64_t getMappingLimit();

/// The mappings the process has now, or -1 if unknown.
int64_t countMappings();

} // namespace pcc::runtime

#endif // PCC_LIB_RUNTIME_MAPPINGS_H
