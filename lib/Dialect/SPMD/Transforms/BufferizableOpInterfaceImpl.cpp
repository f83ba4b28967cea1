//===- BufferizableOpInterfaceImpl.cpp - bufferizing spmd ops -------------===//
//
// spmd.launch and spmd.runtime_call are in destination-passing style: tensor
// inputs are read, each output is written (and not read) and its buffer
// becomes the matching result. Stating this here, rather than handing
// buffers to the calls through bufferization.to_buffer/to_tensor pairs,
// lets One-Shot Bufferize see every read and write, so that it never writes
// in place over a value that a call will still read, and may have a call
// write in place of a dead input (a loop-carried psum then needs no buffer
// per step).
//
//===----------------------------------------------------------------------===//

#include "pcc/Dialect/SPMD/Transforms/BufferizableOpInterfaceImpl.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace pcc::spmd;

namespace {
/// Turns the operands of a destination-style op on tensors into buffers:
/// inputs where they are if their layout is `acceptable`, else copied into
/// the identity layout; outputs likewise, except that an output in another
/// layout gets a fresh buffer that is copied back after the call
/// (`copyBacks`, source and target).
struct BufferizedOperands {
  SmallVector<Value> inputs, outputs;
  SmallVector<std::pair<Value, Value>> copyBacks;
};

FailureOr<BufferizedOperands>
bufferizeOperands(RewriterBase &rewriter, Location loc, ValueRange inputs,
                  ValueRange outputs, function_ref<bool(MemRefType)> acceptable,
                  const BufferizationOptions &options,
                  BufferizationState &state) {
  BufferizedOperands result;
  auto identityType = [](Type type) {
    auto memref = cast<MemRefType>(type);
    return MemRefType::get(memref.getShape(), memref.getElementType(),
                           MemRefLayoutAttrInterface(),
                           memref.getMemorySpace());
  };
  for (Value input : inputs) {
    if (!isa<TensorType>(input.getType())) {
      result.inputs.push_back(input);
      continue;
    }
    FailureOr<Value> buffer = getBuffer(rewriter, input, options, state);
    if (failed(buffer))
      return failure();
    if (!acceptable(cast<MemRefType>(buffer->getType()))) {
      buffer = castOrReallocMemRefValue(
          rewriter, *buffer, identityType(buffer->getType()), options);
      if (failed(buffer))
        return failure();
    }
    result.inputs.push_back(*buffer);
  }
  for (Value output : outputs) {
    FailureOr<Value> buffer = getBuffer(rewriter, output, options, state);
    if (failed(buffer))
      return failure();
    if (!acceptable(cast<MemRefType>(buffer->getType()))) {
      Value fresh = memref::AllocOp::create(rewriter, loc,
                                            identityType(buffer->getType()));
      result.copyBacks.push_back({fresh, *buffer});
      result.outputs.push_back(fresh);
      continue;
    }
    result.outputs.push_back(*buffer);
  }
  return result;
}

/// Copies the fresh output buffers back and replaces `op` by its outputs'
/// buffers.
void finishBufferizing(RewriterBase &rewriter, Operation *op,
                       const BufferizedOperands &operands) {
  SmallVector<Value> replacements(operands.outputs);
  for (auto [fresh, target] : operands.copyBacks) {
    memref::CopyOp::create(rewriter, op->getLoc(), fresh, target);
    for (Value &replacement : replacements)
      if (replacement == fresh)
        replacement = target;
  }
  replaceOpWithBufferizedValues(rewriter, op, replacements);
}

/// What both ops share: outputs are written, never read.
template <typename ConcreteModel, typename ConcreteOp>
struct WriteOnlyOutputsModel
    : public DstBufferizableOpInterfaceExternalModel<ConcreteModel,
                                                     ConcreteOp> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &) const {
    return !cast<DestinationStyleOpInterface>(op).isDpsInit(&operand);
  }
};

struct LaunchOpInterface
    : public WriteOnlyOutputsModel<LaunchOpInterface, LaunchOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto launch = cast<LaunchOp>(op);
    // The device function takes identity-layout buffers.
    FailureOr<BufferizedOperands> operands = bufferizeOperands(
        rewriter, op->getLoc(), launch.getInputs(), launch.getOutputs(),
        [](MemRefType type) { return type.getLayout().isIdentity(); }, options,
        state);
    if (failed(operands))
      return failure();
    LaunchOp::create(rewriter, op->getLoc(), TypeRange(),
                     launch.getCalleeAttr(), launch.getDevicesAttr(),
                     operands->inputs, operands->outputs,
                     launch.getWorkAttr(), launch.getUniformOutputsAttr(),
                     launch.getReturnedOutputsAttr());
    finishBufferizing(rewriter, op, *operands);
    return success();
  }
};

struct RuntimeCallOpInterface
    : public WriteOnlyOutputsModel<RuntimeCallOpInterface, RuntimeCallOp> {
  bool bufferizesToElementwiseAccess(Operation *op, const AnalysisState &,
                                     ArrayRef<OpOperand *>) const {
    return cast<RuntimeCallOp>(op).getElementwise();
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto call = cast<RuntimeCallOp>(op);
    // The runtime takes pointers to first elements (any offset).
    FailureOr<BufferizedOperands> operands = bufferizeOperands(
        rewriter, op->getLoc(), call.getArguments(), call.getOutput(),
        [](MemRefType type) {
          return type.areTrailingDimsContiguous(type.getRank());
        },
        options, state);
    if (failed(operands))
      return failure();
    RuntimeCallOp::create(rewriter, op->getLoc(), TypeRange(), call.getCallee(),
                          operands->inputs, operands->outputs.front(),
                          call.getElementwise());
    finishBufferizing(rewriter, op, *operands);
    return success();
  }
};
} // namespace

void pcc::spmd::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, SPMDDialect *) {
    LaunchOp::attachInterface<LaunchOpInterface>(*context);
    RuntimeCallOp::attachInterface<RuntimeCallOpInterface>(*context);
  });
}
