//===- DeviceWork.cpp - How much a device function does -------------------===//
//
// Implements estimateDeviceWork: a count of the elements each op touches,
// in saturating arithmetic. It only has to tell a few hundred elements from
// many thousands, so it ignores what costs per element (a division against
// an addition) and counts views as free.
//
//===----------------------------------------------------------------------===//

#include "DeviceWork.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <limits>

using namespace mlir;

namespace {
using Work = std::optional<int64_t>;

constexpr int64_t kMost = std::numeric_limits<int64_t>::max();

Work add(Work a, Work b) {
  int64_t sum;
  if (!a || !b)
    return std::nullopt;
  return __builtin_add_overflow(*a, *b, &sum) ? kMost : sum;
}

/// `factor` is not negative.
Work multiply(Work a, int64_t factor) {
  int64_t product;
  if (!a)
    return std::nullopt;
  return __builtin_mul_overflow(*a, factor, &product) ? kMost : product;
}

/// Elements of a value: those of a static tensor or memref, 1 for a scalar,
/// nullopt for a dynamic shape.
Work elements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped)
    return 1;
  if (!shaped.hasStaticShape())
    return std::nullopt;
  Work count = 1;
  for (int64_t size : shaped.getShape())
    count = multiply(count, size);
  return count;
}

Work sumOfElements(TypeRange types) {
  Work total = 0;
  for (Type type : types)
    total = add(total, elements(type));
  return total;
}

class Estimator {
public:
  explicit Estimator(int64_t numDevices) : numDevices(numDevices) {}

  Work region(Region &region) {
    Work total = 0;
    for (Block &block : region)
      for (Operation &op : block)
        total = add(total, this->op(&op));
    return total;
  }

private:
  Work op(Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (!trips || trips->isNegative() || trips->getActiveBits() > 62)
        return std::nullopt;
      return multiply(region(loop.getRegion()), trips->getSExtValue());
    }
    if (auto branch = dyn_cast<scf::IfOp>(op))
      return add(region(branch.getThenRegion()),
                 region(branch.getElseRegion()));
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      // Each point of the iteration space reads and writes its operands'
      // elements once.
      Work points = 1;
      for (int64_t range : linalgOp.getStaticLoopRanges())
        points = ShapedType::isDynamic(range) ? std::nullopt
                                              : multiply(points, range);
      return multiply(points, linalgOp->getNumOperands());
    }
    if (isa<pcc::spmd::AxisOpInterface>(op) && !isa<pcc::spmd::AxisIndexOp>(op))
      // Every member's input, read by each, and the result.
      return add(multiply(sumOfElements(op->getOperandTypes()), numDevices),
                 sumOfElements(op->getResultTypes()));
    if (isa<func::CallOp, func::CallIndirectOp>(op) || op->getNumRegions() != 0)
      return std::nullopt;
    if (op->hasTrait<OpTrait::ConstantLike>() ||
        op->hasTrait<OpTrait::IsTerminator>() ||
        isa<ViewLikeOpInterface, tensor::EmptyOp, tensor::ExtractSliceOp,
            tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::CastOp,
            bufferization::ToTensorOp, bufferization::ToBufferOp>(op))
      return 0;
    if (op->getNumResults() != 0)
      return sumOfElements(op->getResultTypes());
    // A write into a buffer: the tensors and scalars it stores, not the
    // whole buffer.
    Work stored = 0;
    for (Type type : op->getOperandTypes())
      if (!isa<BaseMemRefType>(type))
        stored = add(stored, elements(type));
    return stored;
  }

  int64_t numDevices;
};
} // namespace

std::optional<int64_t> pcc::estimateDeviceWork(func::FuncOp device,
                                               int64_t numDevices,
                                               TypeRange written) {
  return add(Estimator(numDevices).region(device.getBody()),
             sumOfElements(written));
}
