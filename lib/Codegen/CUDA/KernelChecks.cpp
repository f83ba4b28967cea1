//===- KernelChecks.cpp - Bounds checks of GPU kernels' accesses ----------===//

#include "KernelChecks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::string pcc::describeLocation(Location loc) {
  std::string text;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      llvm::raw_string_ostream(text)
          << file.getFilename().getValue() << ":" << file.getLine() << ":"
          << file.getColumn();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return text;
}

/// Checks each index of `access` on `memref`, described by `what`.
static void checkAccess(Operation *access, Value memref, ValueRange indices,
                        StringRef what, pcc::OutOfBoundsHandler onFailure) {
  if (indices.empty())
    return;
  auto type = cast<MemRefType>(memref.getType());
  Location loc = access->getLoc();
  std::string site = pcc::describeLocation(loc);
  site += site.empty() ? "" : ": ";
  llvm::raw_string_ostream(site)
      << access->getName() << " (" << what << " a " << type << ")";
  OpBuilder b(access);
  for (auto [axis, index] : llvm::enumerate(indices)) {
    Value bound = memref::DimOp::create(b, loc, memref, int64_t(axis));
    // Unsigned: a negative index is a huge one.
    Value inside =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index, bound);
    // The access, and the rest of its block, go on only if inside.
    Block *before = b.getInsertionBlock();
    Block *after = before->splitBlock(b.getInsertionPoint());
    Block *failure =
        b.createBlock(before->getParent(), Region::iterator(after));
    Value axisValue =
        arith::ConstantIntOp::create(b, loc, b.getI64Type(), int64_t(axis));
    Value index64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
    Value bound64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), bound);
    onFailure(b, loc, site, axisValue, index64, bound64);
    LLVM::UnreachableOp::create(b, loc);
    b.setInsertionPointToEnd(before);
    cf::CondBranchOp::create(b, loc, inside, after, failure);
    b.setInsertionPointToStart(after);
  }
}

void pcc::checkKernelAccesses(Region &body, OutOfBoundsHandler onFailure) {
  SmallVector<Operation *> accesses;
  body.walk([&](Operation *op) {
    if (isa<memref::LoadOp, memref::StoreOp, memref::AtomicRMWOp,
            memref::GenericAtomicRMWOp>(op))
      accesses.push_back(op);
  });
  for (Operation *op : accesses) {
    if (auto load = dyn_cast<memref::LoadOp>(op))
      checkAccess(op, load.getMemRef(), load.getIndices(), "load from",
                  onFailure);
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      checkAccess(op, store.getMemRef(), store.getIndices(), "store to",
                  onFailure);
    else if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op))
      checkAccess(op, atomic.getMemref(), atomic.getIndices(),
                  "atomic update of", onFailure);
    else if (auto atomic = dyn_cast<memref::GenericAtomicRMWOp>(op))
      checkAccess(op, atomic.getMemref(), atomic.getIndices(),
                  "atomic update of", onFailure);
  }
}

LLVM::LLVMFuncOp pcc::declareLLVMFunction(SymbolTable &symbols, StringRef name,
                                          Type result,
                                          ArrayRef<Type> arguments) {
  if (auto existing = symbols.lookup<LLVM::LLVMFuncOp>(name))
    return existing;
  Operation *module = symbols.getOp();
  auto builder = OpBuilder::atBlockEnd(&module->getRegion(0).front());
  auto function =
      LLVM::LLVMFuncOp::create(builder, module->getLoc(), name,
                               LLVM::LLVMFunctionType::get(result, arguments));
  symbols.insert(function);
  return function;
}
