//===- BufferizableOpInterfaceImpl.h - bufferizing spmd ops -----*- C++ -*-===//
//
// How One-Shot Bufferize sees the spmd ops that pcc's lowering creates on
// tensors (spmd.launch, spmd.runtime_call): what they read, what they
// write, what aliases what.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_DIALECT_SPMD_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
#define PCC_DIALECT_SPMD_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace pcc::spmd {
/// Attaches BufferizableOpInterface to spmd.launch and spmd.runtime_call.
void registerBufferizableOpInterfaceExternalModels(
    mlir::DialectRegistry &registry);
} // namespace pcc::spmd

#endif // PCC_DIALECT_SPMD_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
