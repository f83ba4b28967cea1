//===- HostString.h - strings that only the host runtime reads --*- C++ -*-===//
//
// Private to lib/Conversion/SPMDToRuntime: the call-site descriptions of
// collectives and the messages of failed checks, which generated code hands
// to the runtime for its errors.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_CONVERSION_SPMDTORUNTIME_HOSTSTRING_H
#define PCC_LIB_CONVERSION_SPMDTORUNTIME_HOSTSTRING_H

#include "pcc/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"

namespace pcc {

/// A private constant global named `name` (made unique in `symbols`)
/// holding `text` and a NUL, created by `builder` (at module level), and
/// marked as read by the host runtime only, so that
/// pcc-copy-constant-globals leaves it on the host.
inline mlir::memref::GlobalOp createHostString(mlir::OpBuilder &builder,
                                               mlir::SymbolTable &symbols,
                                               mlir::Location loc,
                                               llvm::StringRef name,
                                               llvm::StringRef text) {
  auto type =
      mlir::MemRefType::get({int64_t(text.size()) + 1}, builder.getI8Type());
  llvm::SmallVector<int8_t> bytes(text.begin(), text.end());
  bytes.push_back(0);
  auto global = mlir::memref::GlobalOp::create(
      builder, loc, name, builder.getStringAttr("private"), type,
      mlir::DenseElementsAttr::get(
          mlir::RankedTensorType::get(type.getShape(), builder.getI8Type()),
          llvm::ArrayRef<int8_t>(bytes)),
      /*constant=*/true, /*alignment=*/mlir::IntegerAttr());
  global->setAttr(kHostOnlyAttrName, builder.getUnitAttr());
  symbols.insert(global);
  return global;
}

/// The values a failed check's message may show (pcc_mlir_check_failed's).
constexpr unsigned kCheckValues = 4;

/// Calls the runtime's pcc_mlir_check_failed at `builder`'s insertion point
/// with `text` (in a host string, one per distinct text in `messages`) and
/// the (at most kCheckValues) i64 values its `{0}`, `{1}`, ... stand for
/// (zeros if not given).
/// Declares the function in the module the first time.
void callCheckFailed(mlir::OpBuilder &builder, mlir::SymbolTable &symbols,
                     llvm::StringMap<mlir::memref::GlobalOp> &messages,
                     mlir::Location loc, llvm::StringRef text,
                     mlir::ValueRange values = {});

/// The runtime function `name` of `type`, called through MLIR's C interface
/// (`_mlir_ciface_<name>`): declared in the module of `symbols` the first
/// time.
mlir::func::FuncOp declareRuntimeFunction(mlir::SymbolTable &symbols,
                                          llvm::StringRef name,
                                          mlir::FunctionType type);

/// "prog.mlir:7:10: " for a file location, "" otherwise.
std::string formatLocation(mlir::Location loc);

} // namespace pcc

#endif // PCC_LIB_CONVERSION_SPMDTORUNTIME_HOSTSTRING_H
