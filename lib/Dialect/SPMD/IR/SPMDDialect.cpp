//===- SPMDDialect.cpp - registration of the spmd dialect ----------------===//
//
// Registers the spmd ops with the dialect. The ops themselves (parsing,
// printing, verification) live in SPMDOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

using namespace mlir;
using namespace pcc::spmd;

#include "pcc/Dialect/SPMD/IR/SPMDOpsDialect.cpp.inc"

void SPMDDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "pcc/Dialect/SPMD/IR/SPMDOps.cpp.inc"
      >();
}
