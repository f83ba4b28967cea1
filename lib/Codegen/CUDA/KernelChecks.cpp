//===- KernelChecks.cpp - Bounds checks of GPU kernels' accesses ----------===//

#include "KernelChecks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
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

/// "prog.mlir:9:10: memref.load (load from a memref<8xf32>)": where `op`
/// is, what it is and what it does (`what`) to a memref of `type`.
static std::string describeSite(Operation *op, StringRef what, Type type) {
  std::string site = pcc::describeLocation(op->getLoc());
  site += site.empty() ? "" : ": ";
  llvm::raw_string_ostream(site)
      << op->getName() << " (" << what << " a " << type << ")";
  return site;
}

/// Lets the rest of `b`'s block run only if `inside`; otherwise
/// `onFailure` reports `index` on `axis` of size `bound` at `site`.
static void guard(OpBuilder &b, Location loc, Value inside, StringRef site,
                  int64_t axis, Value index, Value bound,
                  pcc::OutOfBoundsHandler onFailure) {
  Block *before = b.getInsertionBlock();
  Block *after = before->splitBlock(b.getInsertionPoint());
  Block *failure = b.createBlock(before->getParent(), Region::iterator(after));
  Value axisValue = arith::ConstantIntOp::create(b, loc, b.getI64Type(), axis);
  Value index64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  Value bound64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), bound);
  onFailure(b, loc, site, axisValue, index64, bound64);
  LLVM::UnreachableOp::create(b, loc);
  b.setInsertionPointToEnd(before);
  cf::CondBranchOp::create(b, loc, inside, after, failure);
  b.setInsertionPointToStart(after);
}

/// Checks each index of `access` on `memref`, described by `what`.
static void checkAccess(Operation *access, Value memref, ValueRange indices,
                        StringRef what, pcc::OutOfBoundsHandler onFailure) {
  if (indices.empty())
    return;
  Location loc = access->getLoc();
  std::string site = describeSite(access, what, memref.getType());
  OpBuilder b(access);
  for (auto [axis, index] : llvm::enumerate(indices)) {
    Value bound = memref::DimOp::create(b, loc, memref, int64_t(axis));
    // Unsigned: a negative index is a huge one.
    Value inside =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index, bound);
    guard(b, loc, inside, site, axis, index, bound, onFailure);
  }
}

/// Checks that `slice` lies within its source on each axis where its
/// offset, size, stride or the source's size is known only at run time (the
/// verifier checks the rest): its offset and its last element's index,
/// offset + (size - 1) * stride, unless it is empty there; the first of
/// them outside the axis is reported. Accesses through the slice are
/// checked against the slice's own sizes only.
static void checkSlice(memref::SubViewOp slice,
                       pcc::OutOfBoundsHandler onFailure) {
  Location loc = slice.getLoc();
  MemRefType sourceType = slice.getSource().getType();
  std::string site = describeSite(slice, "slice of", sourceType);
  OpBuilder b(slice);
  auto at = [&](OpFoldResult value) {
    return getValueOrCreateConstantIndexOp(b, loc, value);
  };
  for (auto [axis, offset, size, stride] :
       llvm::enumerate(slice.getMixedOffsets(), slice.getMixedSizes(),
                       slice.getMixedStrides())) {
    if (isa<Attribute>(offset) && isa<Attribute>(size) &&
        isa<Attribute>(stride) && !sourceType.isDynamicDim(axis))
      continue;
    Value bound = memref::DimOp::create(b, loc, slice.getSource(), axis);
    Value first = at(offset), count = at(size), step = at(stride);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value beforeLast = arith::SubIOp::create(b, loc, count, one);
    Value span = arith::MulIOp::create(b, loc, beforeLast, step);
    Value last = arith::AddIOp::create(b, loc, first, span);
    auto below = [&](Value index) {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index,
                                   bound);
    };
    Value firstInside = below(first), lastInside = below(last);
    Value empty =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, count, zero);
    Value bothInside = arith::AndIOp::create(b, loc, firstInside, lastInside);
    Value inside = arith::OrIOp::create(b, loc, empty, bothInside);
    Value reported = arith::SelectOp::create(b, loc, firstInside, last, first);
    guard(b, loc, inside, site, axis, reported, bound, onFailure);
  }
}

void pcc::checkKernelAccesses(Region &body, OutOfBoundsHandler onFailure) {
  SmallVector<Operation *> accesses;
  body.walk([&](Operation *op) {
    if (isa<memref::LoadOp, memref::StoreOp, memref::AtomicRMWOp,
            memref::GenericAtomicRMWOp, memref::SubViewOp>(op))
      accesses.push_back(op);
  });
  for (Operation *op : accesses) {
    if (auto slice = dyn_cast<memref::SubViewOp>(op))
      checkSlice(slice, onFailure);
    else if (auto load = dyn_cast<memref::LoadOp>(op))
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
