//===- LinalgToGPU.cpp - reductions and matmuls as cooperative kernels ---===//
//
// The cuda pipeline maps linalg ops to GPU threads through parallel loops:
// one thread per output element, which is right for elementwise work but
// leaves a reduction over a long axis to one thread per output looping
// serially, and a matmul re-reading A and B from global memory for every
// output. This pass launches those two kinds of op as kernels in which the
// threads of a block cooperate:
//
//  - a reduction (any linalg op whose body ends in a recognised combining
//    op on the accumulator, over at least kMinBlockReduction elements) gets
//    one block per output element: each thread folds a strided share of the
//    reduction space, then the block combines the partial values with
//    gpu.all_reduce (warp shuffles and shared memory, lowered by
//    pcc-gpu-lower-all-reduce once kernels are outlined);
//  - linalg.matmul and linalg.batch_matmul on one float type are tiled 16x16
//    through shared memory, each thread computing one output element.
//
// Ops it does not match are left to the parallel-loop path, and so are
// buffer copies (memref.copy), which it turns into linalg.copy so that they
// run on the GPU too instead of touching device data from the host; copies
// out of a global (constants, host memory) stay on the host.
//
//===----------------------------------------------------------------------===//

#include "pcc/Codegen/CUDA/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace pcc {
#define GEN_PASS_DEF_PCCLINALGTOGPU
#include "pcc/Codegen/CUDA/Passes.h.inc"
} // namespace pcc

using namespace mlir;

/// Below this many elements per output, one thread per output folding them
/// serially is as fast as a block, and the parallel-loop path does that.
static constexpr int64_t kMinBlockReduction = 64;
/// Threads of a reduction block.
static constexpr int64_t kReductionBlock = 256;
/// The side of a matmul tile (and of its thread block).
static constexpr int64_t kMatmulTile = 16;
/// The most blocks along grid y or z.
static constexpr int64_t kMaxGridYZ = 65535;

namespace {
/// The op that folds one value into a reduction's accumulator, what
/// gpu.all_reduce calls it, and its identity element.
struct Combiner {
  Operation *op = nullptr;
  /// The operand of `op` that is not the accumulator.
  Value folded;
  gpu::AllReduceOperation kind;
  TypedAttr identity;
};
} // namespace

/// Matches a body whose yielded value is `combine(acc, x)` (or `(x, acc)`),
/// where `acc` is the output's block argument and is used nowhere else.
static std::optional<Combiner> matchCombiner(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1)
    return std::nullopt;
  Operation *combine = yield.getOperand(0).getDefiningOp();
  BlockArgument acc = body->getArguments().back();
  if (!combine || combine->getBlock() != body ||
      combine->getNumOperands() != 2 || !acc.hasOneUse())
    return std::nullopt;
  Combiner combiner;
  combiner.op = combine;
  if (combine->getOperand(0) == acc)
    combiner.folded = combine->getOperand(1);
  else if (combine->getOperand(1) == acc)
    combiner.folded = combine->getOperand(0);
  else
    return std::nullopt;

  Type type = acc.getType();
  // Shuffles move 32 or 64 bits (64-bit ones are split).
  if (!type.isF32() && !type.isF64() && !type.isSignlessInteger(32) &&
      !type.isSignlessInteger(64))
    return std::nullopt;
  Builder b(op.getContext());
  auto floatValue = [&](double value) -> TypedAttr {
    return b.getFloatAttr(type, value);
  };
  auto intValue = [&](const APInt &value) -> TypedAttr {
    return b.getIntegerAttr(type, value);
  };
  unsigned width = type.getIntOrFloatBitWidth();
  double inf = std::numeric_limits<double>::infinity();
  double nan = std::numeric_limits<double>::quiet_NaN();
  using Kind = gpu::AllReduceOperation;
  std::optional<std::pair<Kind, TypedAttr>> match =
      llvm::TypeSwitch<Operation *,
                       std::optional<std::pair<Kind, TypedAttr>>>(combine)
          .Case([&](arith::AddFOp) {
            return std::make_pair(Kind::ADD, floatValue(-0.0));
          })
          .Case([&](arith::MulFOp) {
            return std::make_pair(Kind::MUL, floatValue(1.0));
          })
          // maxnumf/minnumf ignore NaN: NaN is their identity.
          .Case([&](arith::MaxNumFOp) {
            return std::make_pair(Kind::MAXNUMF, floatValue(nan));
          })
          .Case([&](arith::MinNumFOp) {
            return std::make_pair(Kind::MINNUMF, floatValue(nan));
          })
          .Case([&](arith::MaximumFOp) {
            return std::make_pair(Kind::MAXIMUMF, floatValue(-inf));
          })
          .Case([&](arith::MinimumFOp) {
            return std::make_pair(Kind::MINIMUMF, floatValue(inf));
          })
          .Case([&](arith::AddIOp) {
            return std::make_pair(Kind::ADD, intValue(APInt(width, 0)));
          })
          .Case([&](arith::MulIOp) {
            return std::make_pair(Kind::MUL, intValue(APInt(width, 1)));
          })
          .Case([&](arith::MaxSIOp) {
            return std::make_pair(Kind::MAXSI,
                                  intValue(APInt::getSignedMinValue(width)));
          })
          .Case([&](arith::MinSIOp) {
            return std::make_pair(Kind::MINSI,
                                  intValue(APInt::getSignedMaxValue(width)));
          })
          .Case([&](arith::MaxUIOp) {
            return std::make_pair(Kind::MAXUI, intValue(APInt(width, 0)));
          })
          .Case([&](arith::MinUIOp) {
            return std::make_pair(Kind::MINUI,
                                  intValue(APInt::getAllOnes(width)));
          })
          .Case([&](arith::AndIOp) {
            return std::make_pair(Kind::AND,
                                  intValue(APInt::getAllOnes(width)));
          })
          .Case([&](arith::OrIOp) {
            return std::make_pair(Kind::OR, intValue(APInt(width, 0)));
          })
          .Case([&](arith::XOrIOp) {
            return std::make_pair(Kind::XOR, intValue(APInt(width, 0)));
          })
          .Default([](Operation *) { return std::nullopt; });
  if (!match)
    return std::nullopt;
  combiner.kind = match->first;
  combiner.identity = match->second;
  return combiner;
}

/// Splits `linear` into indices of the row-major space `sizes`.
static SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                                      ArrayRef<int64_t> sizes) {
  SmallVector<Value> indices(sizes.size());
  for (size_t i = sizes.size(); i-- > 0;) {
    Value size = arith::ConstantIndexOp::create(b, loc, sizes[i]);
    indices[i] = arith::RemUIOp::create(b, loc, linear, size);
    linear = arith::DivUIOp::create(b, loc, linear, size);
  }
  return indices;
}

/// The value of operand `operand` of `op` at the loop indices `indices`: a
/// load for a memref, the value itself for a scalar.
static Value loadOperand(OpBuilder &b, Location loc, linalg::LinalgOp op,
                         OpOperand &operand, ArrayRef<Value> indices) {
  if (!isa<MemRefType>(operand.get().getType()))
    return operand.get();
  AffineMap map = op.getMatchingIndexingMap(&operand);
  SmallVector<Value> subscripts;
  for (AffineExpr expr : map.getResults())
    subscripts.push_back(indices[cast<AffineDimExpr>(expr).getPosition()]);
  return memref::LoadOp::create(b, loc, operand.get(), subscripts);
}

/// Whether `op` is a reduction this pass launches, with static loop ranges
/// and indexing maps that are projected permutations.
static bool isBlockReduction(linalg::LinalgOp op, int64_t &reductionSize) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 || isa<linalg::MatmulOp>(op) ||
      isa<linalg::BatchMatmulOp>(op))
    return false;
  if (!llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
        return map.isProjectedPermutation(/*allowZeroInResults=*/false);
      }))
    return false;
  // Each block owns one output element: the output must be indexed by
  // exactly the parallel dimensions, each once (else blocks would race on
  // it, or the output would move along the reduction).
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  llvm::SmallBitVector indexed(op.getNumLoops());
  for (AffineExpr expr :
       op.getMatchingIndexingMap(op.getDpsInitOperand(0)).getResults()) {
    unsigned dim = cast<AffineDimExpr>(expr).getPosition();
    if (iterators[dim] != utils::IteratorType::parallel || indexed.test(dim))
      return false;
    indexed.set(dim);
  }
  if (indexed.count() != op.getNumParallelLoops())
    return false;
  reductionSize = 1;
  int64_t parallelSize = 1;
  for (auto [size, iterator] :
       llvm::zip(op.getStaticLoopRanges(), op.getIteratorTypesArray())) {
    if (ShapedType::isDynamic(size))
      return false;
    (iterator == utils::IteratorType::reduction ? reductionSize
                                                : parallelSize) *= size;
  }
  // Blocks index the outputs with blockIdx.x.
  return reductionSize >= kMinBlockReduction &&
         parallelSize <= std::numeric_limits<int32_t>::max() &&
         matchCombiner(op).has_value();
}

/// Launches the reduction `op`: one block per output element.
static void launchBlockReduction(linalg::LinalgOp op, int64_t reductionSize) {
  Combiner combiner = *matchCombiner(op);
  Location loc = op.getLoc();
  OpBuilder b(op);
  SmallVector<int64_t> parallelSizes, reductionSizes;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t outputs = 1;
  for (auto [size, iterator] : llvm::zip(ranges, iterators)) {
    if (iterator == utils::IteratorType::reduction) {
      reductionSizes.push_back(size);
    } else {
      parallelSizes.push_back(size);
      outputs *= size;
    }
  }
  // Whole warps, at most kReductionBlock threads.
  int64_t threads = std::min(kReductionBlock, (reductionSize + 31) / 32 * 32);

  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto launch = gpu::LaunchOp::create(
      b, loc, arith::ConstantIndexOp::create(b, loc, outputs), one, one,
      arith::ConstantIndexOp::create(b, loc, threads), one, one);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value thread = launch.getThreadIds().x;
  SmallVector<Value> parallelIndices =
      delinearize(b, loc, launch.getBlockIds().x, parallelSizes);

  // Each thread folds elements thread, thread + threads, ...
  Value identity = arith::ConstantOp::create(b, loc, combiner.identity);
  auto loop = scf::ForOp::create(
      b, loc, thread, arith::ConstantIndexOp::create(b, loc, reductionSize),
      arith::ConstantIndexOp::create(b, loc, threads), ValueRange{identity});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> reductionIndices =
        delinearize(b, loc, loop.getInductionVar(), reductionSizes);
    SmallVector<Value> indices;
    unsigned nextParallel = 0, nextReduction = 0;
    for (utils::IteratorType iterator : iterators)
      indices.push_back(iterator == utils::IteratorType::reduction
                            ? reductionIndices[nextReduction++]
                            : parallelIndices[nextParallel++]);
    IRMapping mapping;
    Block *body = op.getBlock();
    for (OpOperand *input : op.getDpsInputOperands())
      mapping.map(body->getArgument(input->getOperandNumber()),
                  loadOperand(b, loc, op, *input, indices));
    for (Operation &bodyOp : body->without_terminator()) {
      if (&bodyOp == combiner.op)
        continue;
      if (auto index = dyn_cast<linalg::IndexOp>(bodyOp)) {
        mapping.map(index.getResult(), indices[index.getDim()]);
        continue;
      }
      b.clone(bodyOp, mapping);
    }
    mapping.map(body->getArguments().back(), loop.getRegionIterArg(0));
    Operation *folded = b.clone(*combiner.op, mapping);
    scf::YieldOp::create(b, loc, folded->getResult(0));
  }

  // The block combines its threads' values; thread 0 folds the total into
  // the output.
  Value total = gpu::AllReduceOp::create(
      b, loc, loop.getResult(0),
      gpu::AllReduceOperationAttr::get(b.getContext(), combiner.kind),
      b.getUnitAttr());
  Value isFirst = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, thread,
      arith::ConstantIndexOp::create(b, loc, 0));
  auto ifFirst = scf::IfOp::create(b, loc, isFirst, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifFirst.getThenRegion().front());
    SmallVector<Value> indices;
    unsigned nextParallel = 0;
    for (utils::IteratorType iterator : iterators)
      indices.push_back(iterator == utils::IteratorType::reduction
                            ? Value()
                            : parallelIndices[nextParallel++]);
    OpOperand *init = op.getDpsInitOperand(0);
    Value old = loadOperand(b, loc, op, *init, indices);
    IRMapping mapping;
    mapping.map(op.getBlock()->getArguments().back(), old);
    mapping.map(combiner.folded, total);
    Value updated = b.clone(*combiner.op, mapping)->getResult(0);
    SmallVector<Value> subscripts;
    for (AffineExpr expr : op.getMatchingIndexingMap(init).getResults())
      subscripts.push_back(indices[cast<AffineDimExpr>(expr).getPosition()]);
    memref::StoreOp::create(b, loc, updated, init->get(), subscripts);
  }
  gpu::TerminatorOp::create(b, loc);
  op->erase();
}

/// Whether `op` is a linalg.matmul or linalg.batch_matmul with the default
/// indexing maps on memrefs of one float type.
static bool isTiledMatmul(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics())
    return false;
  if (auto matmul = dyn_cast<linalg::MatmulOp>(*op)) {
    if (matmul.hasUserDefinedMaps())
      return false;
  } else if (auto batch = dyn_cast<linalg::BatchMatmulOp>(*op)) {
    if (batch.hasUserDefinedMaps())
      return false;
  } else {
    return false;
  }
  // Any strided layout (pmap slices its operands) is fine for loads.
  Type elementType;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type || !type.hasStaticShape())
      return false;
    if (elementType && type.getElementType() != elementType)
      return false;
    elementType = type.getElementType();
  }
  // Grid y (row tiles) and z (batch) are limited to 65535 blocks.
  ArrayRef<int64_t> cShape =
      cast<MemRefType>(op.getDpsInitOperand(0)->get().getType()).getShape();
  int64_t rowTiles = (cShape[cShape.size() - 2] + kMatmulTile - 1) / kMatmulTile;
  int64_t batch = cShape.size() == 3 ? cShape[0] : 1;
  if (rowTiles > kMaxGridYZ || batch > kMaxGridYZ)
    return false;
  return elementType.isF32() || elementType.isF64();
}

/// Launches a matmul as 16x16 output tiles, A and B staged through shared
/// memory a 16-wide slice of K at a time.
static void launchTiledMatmul(linalg::LinalgOp op) {
  Location loc = op.getLoc();
  OpBuilder b(op);
  Value a = op.getDpsInputOperand(0)->get();
  Value bMatrix = op.getDpsInputOperand(1)->get();
  Value c = op.getDpsInitOperand(0)->get();
  auto cType = cast<MemRefType>(c.getType());
  bool batched = cType.getRank() == 3;
  ArrayRef<int64_t> cShape = cType.getShape();
  int64_t batch = batched ? cShape[0] : 1;
  int64_t m = cShape[cShape.size() - 2], n = cShape.back();
  int64_t k = cast<MemRefType>(a.getType()).getShape().back();
  Type elementType = cType.getElementType();
  auto tileType = MemRefType::get(
      {kMatmulTile, kMatmulTile}, elementType, AffineMap(),
      gpu::AddressSpaceAttr::get(b.getContext(),
                                 gpu::GPUDialect::getWorkgroupAddressSpace()));

  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Value one = index(1);
  Value tile = index(kMatmulTile);
  auto launch = gpu::LaunchOp::create(
      b, loc, index((n + kMatmulTile - 1) / kMatmulTile),
      index((m + kMatmulTile - 1) / kMatmulTile), index(batch), tile, tile,
      one, /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, TypeRange{tileType, tileType});
  b.setInsertionPointToStart(&launch.getBody().front());
  Value aTile = launch.getWorkgroupAttributions()[0];
  Value bTile = launch.getWorkgroupAttributions()[1];
  Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
  Value row = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, launch.getBlockIds().y, tile), ty);
  Value col = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, launch.getBlockIds().x, tile), tx);
  Value batchIndex = launch.getBlockIds().z;
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elementType));
  auto subscripts = [&](Value i, Value j) -> SmallVector<Value> {
    if (batched)
      return {batchIndex, i, j};
    return {i, j};
  };
  auto less = [&](Value lhs, int64_t bound) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lhs,
                                 index(bound));
  };
  // matrix[i, j] where both are in bounds, else 0.
  auto loadOrZero = [&](Value matrix, Value i, int64_t iBound, Value j,
                        int64_t jBound) -> Value {
    Value iInBounds = less(i, iBound);
    Value jInBounds = less(j, jBound);
    Value inBounds = arith::AndIOp::create(b, loc, iInBounds, jInBounds);
    auto ifOp = scf::IfOp::create(b, loc, elementType, inBounds,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    scf::YieldOp::create(
        b, loc,
        ValueRange{memref::LoadOp::create(b, loc, matrix, subscripts(i, j))});
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    scf::YieldOp::create(b, loc, zero);
    return ifOp.getResult(0);
  };

  auto kLoop = scf::ForOp::create(b, loc, index(0), index(k), tile,
                                  ValueRange{zero});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value k0 = kLoop.getInductionVar();
    Value aColumn = arith::AddIOp::create(b, loc, k0, tx);
    Value aValue = loadOrZero(a, row, m, aColumn, k);
    memref::StoreOp::create(b, loc, aValue, aTile, ValueRange{ty, tx});
    Value bRow = arith::AddIOp::create(b, loc, k0, ty);
    Value bValue = loadOrZero(bMatrix, bRow, k, col, n);
    memref::StoreOp::create(b, loc, bValue, bTile, ValueRange{ty, tx});
    gpu::BarrierOp::create(b, loc);
    auto inner = scf::ForOp::create(b, loc, index(0), tile, one,
                                    ValueRange{kLoop.getRegionIterArg(0)});
    {
      OpBuilder::InsertionGuard innerGuard(b);
      b.setInsertionPointToStart(inner.getBody());
      Value j = inner.getInductionVar();
      Value aElement = memref::LoadOp::create(b, loc, aTile, ValueRange{ty, j});
      Value bElement = memref::LoadOp::create(b, loc, bTile, ValueRange{j, tx});
      Value product = arith::MulFOp::create(b, loc, aElement, bElement);
      scf::YieldOp::create(
          b, loc,
          ValueRange{arith::AddFOp::create(b, loc, inner.getRegionIterArg(0),
                                           product)});
    }
    // Nobody overwrites the tiles while others still read them.
    gpu::BarrierOp::create(b, loc);
    scf::YieldOp::create(b, loc, inner.getResult(0));
  }
  Value rowInBounds = less(row, m);
  Value colInBounds = less(col, n);
  Value inBounds = arith::AndIOp::create(b, loc, rowInBounds, colInBounds);
  auto store = scf::IfOp::create(b, loc, inBounds, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&store.getThenRegion().front());
    Value old = memref::LoadOp::create(b, loc, c, subscripts(row, col));
    Value sum = arith::AddFOp::create(b, loc, old, kLoop.getResult(0));
    memref::StoreOp::create(b, loc, sum, c, subscripts(row, col));
  }
  gpu::TerminatorOp::create(b, loc);
  op->erase();
}

namespace {
struct PCCLinalgToGPUPass
    : public pcc::impl::PCCLinalgToGPUBase<PCCLinalgToGPUPass> {
  using PCCLinalgToGPUBase::PCCLinalgToGPUBase;

  void runOnOperation() override {
    getOperation()->walk([&](memref::CopyOp copy) {
      if (copy.getSource().getDefiningOp<memref::GetGlobalOp>())
        return;
      OpBuilder b(copy);
      linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy->erase();
    });
    SmallVector<linalg::LinalgOp> ops;
    // An op inside another linalg op's body or a parallel loop runs within
    // one thread of its kernel (pcc-sequential-loops), not as a kernel.
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!op->getParentOfType<linalg::LinalgOp>() &&
          !op->getParentOfType<scf::ParallelOp>())
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops) {
      int64_t reductionSize = 0;
      if (isTiledMatmul(op))
        launchTiledMatmul(op);
      else if (isBlockReduction(op, reductionSize))
        launchBlockReduction(op, reductionSize);
    }
  }
};
} // namespace
