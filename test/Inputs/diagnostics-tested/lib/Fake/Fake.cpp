// Made-up diagnostics for test/diagnostics-tested.test: the check must find
// every one, in every form below, and report those that test/ does not show.

#include "mlir/IR/Diagnostics.h"

using namespace mlir;

// Not a call: declarations and definitions are not diagnostics.
InFlightDiagnostic emitError(Location loc);
// op->emitError() << "a diagnostic in a comment does not count";
/* op->emitError() << "nor does one in a block comment"; */

LogicalResult tested(Operation *op, Type type, int64_t size) {
  if (size == 0)
    // Tested: values and a ternary between the literals; the test shows
    // the values.
    return op->emitOpError()
           << "needs a frobnicated operand of size " << size << ", got "
           << type << (size > 1 ? " (too many)" : " (too few)");
  if (size == 1)
    // Tested: a literal argument, concatenated ("; " in a string is no end).
    return mlir::emitError(op->getLoc(), "expected a widget; got " +
                                             llvm::Twine(size) +
                                             " gadgets instead");
  // Tested: the test writes {{.*}} for the values.
  op->emitWarning() << "the widget " << type << " is deprecated since "
                    << "version " << size;
  return success();
}

LogicalResult untested(Operation *op, StringRef message) {
  InFlightDiagnostic diag = op->emitError()
                            << "this made-up diagnostic has no test, for "
                            << "the check to find";
  diag.attachNote(op->getLoc()) << "nor has " << "this note";
  // Too little literal text to look for.
  op->emitRemark() << message << ": " << message;
  return diag;
}
