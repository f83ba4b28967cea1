//===- SPMDOps.cpp - parsing, printing and verifying spmd ops ------------===//
//
// The custom syntax of spmd.pmap, the `over` axis-name lists of the
// collectives, and the verifiers for every rule of docs/language.md. Each
// diagnostic says what was expected, so that the user knows the fix.
//
//===----------------------------------------------------------------------===//

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "pcc/Dialect/SPMD/Analysis/Uniformity.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace pcc::spmd;

#include "pcc/Dialect/SPMD/IR/SPMDOpsInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

const pcc::abi::ElementType *pcc::spmd::getRuntimeElementType(Type type) {
  for (const abi::ElementType &element : abi::kElementTypes) {
    bool matches = false;
    switch (element.kind) {
    case abi::ElementKind::Integer:
      matches = type.isSignlessInteger(element.bits);
      break;
    case abi::ElementKind::Float:
      matches = (type.isF16() || type.isF32() || type.isF64()) &&
                type.getIntOrFloatBitWidth() == element.bits;
      break;
    case abi::ElementKind::BFloat:
      matches = type.isBF16();
      break;
    }
    if (matches)
      return &element;
  }
  return nullptr;
}

bool pcc::spmd::isSupportedElementType(Type type, bool allowI1) {
  const abi::ElementType *element = getRuntimeElementType(type);
  return element && (element->reducible || allowI1);
}

std::string pcc::spmd::getSupportedElementTypesText(bool allowI1) {
  SmallVector<StringRef> names;
  for (const abi::ElementType &element : abi::kElementTypes)
    if (element.reducible || allowI1)
      names.push_back(element.suffix);
  std::string text;
  for (auto [i, name] : llvm::enumerate(names))
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + name.str();
  return text;
}

/// Checks that `type`, the type of a value that crosses devices (a mapped
/// operand or a yielded value; collectives' operands are checked by their
/// ODS type constraints), is a statically shaped
/// tensor or a scalar of a runtime element type. `what` names the value
/// in the message.
static LogicalResult verifyDeviceValueType(Operation *op, Type type,
                                           const Twine &what) {
  auto tensorType = dyn_cast<TensorType>(type);
  if (!tensorType && !type.isIntOrIndexOrFloat())
    return op->emitOpError()
           << what << " must be a tensor or a scalar, got " << type;
  if (tensorType && !tensorType.hasStaticShape())
    return op->emitOpError()
           << what << " must have a static shape, got " << type;
  Type elementType = getElementTypeOrSelf(type);
  if (isSupportedElementType(elementType))
    return success();
  InFlightDiagnostic diag = op->emitOpError()
                            << what << " has unsupported element type "
                            << elementType << "; expected "
                            << getSupportedElementTypesText(/*allowI1=*/false);
  if (elementType.isIndex())
    diag << " (convert index values with arith.index_cast)";
  return diag;
}

/// The axes an op inside pmaps (or inside a device function that pcc
/// outlined from them) can name, with their sizes, outermost first.
struct AxesInScope {
  SmallVector<StringAttr> names;
  SmallVector<int64_t> sizes;
};

/// The spmd.pmap ops around `op`, innermost first.
static SmallVector<PmapOp> getEnclosingPmaps(Operation *op) {
  SmallVector<PmapOp> pmaps;
  for (auto pmap = op->getParentOfType<PmapOp>(); pmap;
       pmap = pmap->getParentOfType<PmapOp>())
    pmaps.push_back(pmap);
  return pmaps;
}

static AxesInScope getAxesInScope(Operation *op) {
  AxesInScope scope;
  // Outlined device functions carry their grid as attributes.
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    auto axes = parent->getAttrOfType<ArrayAttr>(kGridAxesAttrName);
    auto sizes = parent->getAttrOfType<DenseI64ArrayAttr>(kGridSizesAttrName);
    if (!axes || !sizes || int64_t(axes.size()) != sizes.size())
      continue;
    // Verified by SPMDDialect::verifyOperationAttribute before nested ops.
    for (auto [name, size] : llvm::zip(axes, sizes.asArrayRef())) {
      scope.names.push_back(cast<StringAttr>(name));
      scope.sizes.push_back(size);
    }
    break;
  }
  // Named: a temporary inside llvm::reverse would die before the loop runs.
  SmallVector<PmapOp> pmaps = getEnclosingPmaps(op);
  for (PmapOp pmap : llvm::reverse(pmaps)) {
    scope.names.push_back(pmap.getAxisNameAttr());
    scope.sizes.push_back(pmap.getAxisSize());
  }
  return scope;
}

/// Checks the axis names of an AxisOpInterface op: at least one, no repeats,
/// each bound by an enclosing spmd.pmap (or the grid of the device function
/// it was outlined into). Returns the number of devices in the group the op
/// spans (the product of the named axes' sizes).
static FailureOr<int64_t> verifyAxisNames(Operation *op, ArrayAttr names) {
  AxesInScope scope = getAxesInScope(op);
  if (scope.names.empty())
    return op->emitOpError()
           << "must be inside an 'spmd.pmap': it runs across the devices of "
              "a pmap axis";
  if (names.empty())
    return op->emitOpError() << "needs at least one axis name";

  int64_t groupSize = 1;
  for (auto [index, attr] : llvm::enumerate(names)) {
    auto name = cast<StringAttr>(attr);
    if (llvm::is_contained(names.getValue().take_front(index), name))
      return op->emitOpError() << "names axis " << name << " twice";
    auto *binder = llvm::find(scope.names, name);
    if (binder == scope.names.end()) {
      InFlightDiagnostic diag = op->emitOpError()
                                << "unbound axis name " << name
                                << "; axes in scope: ";
      llvm::interleaveComma(scope.names, diag,
                            [&](StringAttr axis) { diag << axis; });
      return diag;
    }
    int64_t size = scope.sizes[binder - scope.names.begin()];
    if (llvm::MulOverflow(groupSize, size, groupSize))
      return op->emitOpError() << "spans more devices than fit in 64 bits";
  }
  return groupSize;
}

/// Checks the axes of `op` and its `groups`, if any: one axis name, and
/// groups that hold every position along it exactly once (of equal sizes
/// where `equalGroups`). Returns N, the number of devices that run the
/// collective together: the product of the axes' sizes, or the size of a
/// group (the first, where sizes may differ).
static FailureOr<int64_t> verifyAxesAndGroups(AxisOpInterface op,
                                              bool equalGroups) {
  FailureOr<int64_t> axisSize = verifyAxisNames(op, op.getAxisNames());
  ArrayAttr groups = op.getGroupsAttr();
  if (failed(axisSize) || !groups)
    return axisSize;
  if (op.getAxisNames().size() != 1)
    return op->emitOpError()
           << "takes 'groups' with a single axis name only, as JAX's "
              "axis_index_groups; got "
           << op.getAxisNames().size()
           << " axes: gather over one axis, or drop 'groups'";
  if (groups.empty())
    return op->emitOpError() << "needs at least one group in 'groups'";
  SmallVector<int64_t> groupOf(*axisSize, -1);
  for (auto [index, attr] : llvm::enumerate(groups)) {
    ArrayRef<int64_t> group = cast<DenseI64ArrayAttr>(attr).asArrayRef();
    if (group.empty())
      return op->emitOpError() << "group #" << index
                               << " is empty; every group needs at least one "
                                  "position: remove the empty list";
    if (equalGroups &&
        int64_t(group.size()) != cast<DenseI64ArrayAttr>(groups[0]).size())
      return op->emitOpError()
             << "needs groups of equal size, but group #" << index << " has "
             << group.size() << " members and group #0 has "
             << cast<DenseI64ArrayAttr>(groups[0]).size()
             << "; only psum, pmean, pmax and pmin take groups of "
                "different sizes";
    for (int64_t position : group) {
      if (position < 0 || position >= *axisSize)
        return op->emitOpError()
               << "group #" << index << " names position " << position
               << ", outside axis " << op.getAxisNames()[0] << " of size "
               << *axisSize << " (positions are 0 to " << *axisSize - 1 << ")";
      if (groupOf[position] >= 0)
        return op->emitOpError()
               << "position " << position << " is in group #"
               << groupOf[position] << " and again in group #" << index
               << "; the groups must hold every position along the axis "
                  "exactly once";
      groupOf[position] = index;
    }
  }
  if (auto missing = llvm::find(groupOf, -1); missing != groupOf.end())
    return op->emitOpError()
           << "position " << missing - groupOf.begin() << " of axis "
           << op.getAxisNames()[0]
           << " is in no group; the groups must hold every position along "
              "the axis exactly once";
  return int64_t(cast<DenseI64ArrayAttr>(groups[0]).size());
}

int64_t pcc::spmd::getGroupSize(AxisOpInterface op) {
  FailureOr<int64_t> size = verifyAxesAndGroups(op, /*equalGroups=*/false);
  assert(succeeded(size) && "expected a verified op");
  return *size;
}

SmallVector<int64_t> pcc::spmd::getAxisPositions(AxisOpInterface op) {
  AxesInScope scope = getAxesInScope(op);
  SmallVector<int64_t> positions;
  for (Attribute name : op.getAxisNames())
    positions.push_back(llvm::find(scope.names, name) - scope.names.begin());
  return positions;
}

/// Parses `"i"` or `["i", "j"]`.
static ParseResult parseAxisList(OpAsmParser &parser, ArrayAttr &names) {
  SmallVector<Attribute> list;
  auto parseOne = [&]() -> ParseResult {
    std::string name;
    SMLoc loc = parser.getCurrentLocation();
    if (failed(parser.parseOptionalString(&name)))
      return parser.emitError(loc, "expected an axis name in quotes, such as "
                                   "\"i\", or a list such as [\"i\", \"j\"]");
    list.push_back(parser.getBuilder().getStringAttr(name));
    return success();
  };
  if (succeeded(parser.parseOptionalLSquare())) {
    if (failed(parser.parseOptionalRSquare()) &&
        (parser.parseCommaSeparatedList(parseOne) || parser.parseRSquare()))
      return failure();
  } else if (parseOne()) {
    return failure();
  }
  names = parser.getBuilder().getArrayAttr(list);
  return success();
}

/// A `groups` written where an op that takes none would have it: an error
/// that says which ops take it.
static ParseResult parseNoGroups(OpAsmParser &parser) {
  SMLoc groupsLoc = parser.getCurrentLocation();
  if (failed(parser.parseOptionalKeyword("groups")))
    return success();
  return parser.emitError(groupsLoc)
         << "'groups' is taken by psum, pmean, pmax, pmin, all_gather, "
            "psum_scatter and all_to_all only (as JAX's "
            "axis_index_groups); ppermute, pshuffle, pbroadcast and "
            "axis_index address positions along the whole axis: leave "
            "'groups' out (a ppermute within groups lists the pairs of "
            "every group in its 'perm')";
}

/// The axes of an op that takes no `groups` (parseNoGroups after them).
static ParseResult parseAxisNames(OpAsmParser &parser, ArrayAttr &names) {
  if (parseAxisList(parser, names))
    return failure();
  return parseNoGroups(parser);
}

/// After the attributes of an op that takes no `groups`, one written there
/// (which the format would otherwise reject as "expected ':'").
static ParseResult parseNoLateGroups(OpAsmParser &parser, ArrayAttr) {
  return parseNoGroups(parser);
}

/// After the attributes of an op that takes `groups`, one written there
/// rather than right after the axis name.
static ParseResult parseLateGroups(OpAsmParser &parser, ArrayAttr) {
  SMLoc groupsLoc = parser.getCurrentLocation();
  if (failed(parser.parseOptionalKeyword("groups")))
    return success();
  return parser.emitError(groupsLoc)
         << "'groups' is written right after the axis name, before every "
            "other attribute: over \"i\" groups [[0, 1], [2, 3]] ...";
}

static void printNoLateGroups(OpAsmPrinter &, Operation *, ArrayAttr) {}
static void printLateGroups(OpAsmPrinter &, Operation *, ArrayAttr) {}

/// Parses `[[0, 1], [2, 3]]`: lists of integers, as `groups` and
/// ppermute's `perm` hold them.
static ParseResult parseIndexLists(OpAsmParser &parser, ArrayAttr &lists) {
  SmallVector<Attribute> parsed;
  auto parseList = [&]() -> ParseResult {
    SmallVector<int64_t> list;
    if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() {
          return parser.parseInteger(list.emplace_back());
        }))
      return failure();
    parsed.push_back(parser.getBuilder().getDenseI64ArrayAttr(list));
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseList))
    return failure();
  lists = parser.getBuilder().getArrayAttr(parsed);
  return success();
}

static void printIndexLists(OpAsmPrinter &printer, Operation *,
                            ArrayAttr lists) {
  printer << '[';
  llvm::interleaveComma(lists, printer, [&](Attribute list) {
    printer << '[';
    llvm::interleaveComma(cast<DenseI64ArrayAttr>(list).asArrayRef(), printer);
    printer << ']';
  });
  printer << ']';
}

static void printAxisNames(OpAsmPrinter &printer, Operation *,
                           ArrayAttr names) {
  if (names.size() == 1) {
    printer.printAttribute(names[0]);
    return;
  }
  printer << '[';
  llvm::interleaveComma(names, printer,
                        [&](Attribute name) { printer.printAttribute(name); });
  printer << ']';
}

/// Parses the axes of a collective that takes `groups`: `"i"` or
/// `["i", "j"]`, then optionally `groups [[0, 2], [1, 3]]`.
static ParseResult parseAxesAndGroups(OpAsmParser &parser, ArrayAttr &names,
                                      ArrayAttr &groups) {
  if (parseAxisList(parser, names))
    return failure();
  if (failed(parser.parseOptionalKeyword("groups")))
    return success();
  return parseIndexLists(parser, groups);
}

static void printAxesAndGroups(OpAsmPrinter &printer, Operation *op,
                               ArrayAttr names, ArrayAttr groups) {
  printAxisNames(printer, op, names);
  if (!groups)
    return;
  printer << " groups ";
  printIndexLists(printer, op, groups);
}

//===----------------------------------------------------------------------===//
// PmapOp
//===----------------------------------------------------------------------===//

/// Calls `visit` on every pmap of `root`'s nest in pre-order (`root`
/// first) with the axis it names first, if any (its own; null where an
/// earlier pmap of the nest named the axis), until `visit` fails.
static LogicalResult
visitNestAxes(PmapOp root,
              function_ref<LogicalResult(PmapOp, StringAttr newAxis)> visit) {
  llvm::SmallDenseSet<StringAttr> named;
  WalkResult walk = root->walk<WalkOrder::PreOrder>([&](PmapOp pmap) {
    StringAttr name = pmap.getAxisNameAttr();
    bool isNew = named.insert(name).second;
    return failed(visit(pmap, isNew ? name : StringAttr()))
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

SmallVector<std::pair<StringAttr, int64_t>> PmapOp::getNestAxes() {
  SmallVector<std::pair<StringAttr, int64_t>> axes;
  (void)visitNestAxes(*this, [&](PmapOp pmap, StringAttr newAxis) {
    if (newAxis)
      axes.push_back({newAxis, pmap.getAxisSize()});
    return success();
  });
  return axes;
}

int64_t PmapOp::getNestDeviceCount() {
  int64_t devices = 1;
  for (auto [name, size] : getNestAxes()) {
    bool overflow = llvm::MulOverflow(devices, size, devices);
    assert(!overflow && "verifyNestGrid bounds the grid");
    (void)overflow;
  }
  return devices;
}

/// The grid that an outermost pmap's nest runs on (getNestAxes): one size
/// per axis name, at most 63 axes (bits of a 64-bit mask in the runtime's
/// collectives) and 2^63 devices. Each error is at the pmap that breaks a
/// limit.
static LogicalResult verifyNestGrid(PmapOp root) {
  llvm::SmallDenseMap<StringAttr, int64_t> sizes;
  int64_t devices = 1;
  return visitNestAxes(
      root, [&](PmapOp pmap, StringAttr newAxis) -> LogicalResult {
        if (!newAxis) {
          int64_t size = sizes.lookup(pmap.getAxisNameAttr());
          if (size == pmap.getAxisSize())
            return success();
          return pmap.emitOpError()
                 << "reuses axis name " << pmap.getAxisNameAttr()
                 << " with a different size in the same pmap nest; pcc "
                    "does not compile that yet: rename one of the axes";
        }
        if (sizes.size() == 63)
          return pmap.emitOpError()
                 << "gives its nest a 64th axis; pcc's grids have at most 63 "
                    "(each nested pmap, and each inner pmap beside another "
                    "with a name of its own, adds one)";
        if (llvm::MulOverflow(devices, pmap.getAxisSize(), devices))
          return pmap.emitOpError()
                 << "makes the device grid larger than 2^63 devices";
        sizes[newAxis] = pmap.getAxisSize();
        return success();
      });
}

Type PmapOp::getSliceType(Type type) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType || tensorType.getRank() == 0)
    return {};
  return RankedTensorType::get(tensorType.getShape().drop_front(),
                               tensorType.getElementType());
}

RankedTensorType PmapOp::getStackedType(Type type, int64_t size) {
  SmallVector<int64_t> shape{size};
  Type elementType = type;
  if (auto tensorType = dyn_cast<RankedTensorType>(type)) {
    llvm::append_range(shape, tensorType.getShape());
    elementType = tensorType.getElementType();
  }
  return RankedTensorType::get(shape, elementType);
}

YieldOp PmapOp::getYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

// spmd.pmap "i" [size N] [(%x = %a : T, ...)] [-> (R, ...)] { body }
//           [attributes {...}]
ParseResult PmapOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  std::string axisName;
  if (failed(parser.parseOptionalString(&axisName)))
    return parser.emitError(parser.getCurrentLocation(),
                            "expected the axis name in quotes, as in "
                            "'spmd.pmap \"i\" ...'");

  std::optional<int64_t> size;
  if (succeeded(parser.parseOptionalKeyword("size"))) {
    int64_t value;
    if (parser.parseInteger(value))
      return failure();
    size = value;
  }

  SmallVector<OpAsmParser::Argument> arguments;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> operandTypes;
  SMLoc operandsLoc = parser.getCurrentLocation();
  auto parseMapping = [&]() -> ParseResult {
    OpAsmParser::Argument argument;
    OpAsmParser::UnresolvedOperand operand;
    Type type;
    if (parser.parseArgument(argument) || parser.parseEqual() ||
        parser.parseOperand(operand) || parser.parseColonType(type))
      return failure();
    // An operand that cannot be split keeps its type; the verifier explains.
    Type sliceType = getSliceType(type);
    argument.type = sliceType ? sliceType : type;
    arguments.push_back(argument);
    operands.push_back(operand);
    operandTypes.push_back(type);
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::OptionalParen,
                                     parseMapping))
    return failure();

  if (!size) {
    if (operandTypes.empty())
      return parser.emitError(parser.getCurrentLocation(),
                              "a 'spmd.pmap' without mapped operands needs "
                              "its axis size: write 'size N' after the axis "
                              "name");
    auto firstType = dyn_cast<RankedTensorType>(operandTypes.front());
    // Unsplittable operands get size 0; the verifier reports the operand.
    size = firstType && firstType.getRank() > 0 ? firstType.getDimSize(0) : 0;
  }

  if (parser.resolveOperands(operands, operandTypes, operandsLoc,
                             result.operands) ||
      parser.parseOptionalArrowTypeList(result.types))
    return failure();

  Region *body = result.addRegion();
  SMLoc bodyLoc = parser.getCurrentLocation();
  if (parser.parseRegion(*body, arguments, /*enableNameShadowing=*/false))
    return failure();
  // Caught here, since the generic "block with no terminator" error would
  // not say what the body needs.
  if (body->empty() || body->front().empty() ||
      !isa<YieldOp>(body->front().back()))
    return parser.emitError(bodyLoc, "the body of 'spmd.pmap' must end with "
                                     "'spmd.yield', giving one value per "
                                     "result");
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();

  result.addAttribute(getAxisNameAttrName(result.name),
                      builder.getStringAttr(axisName));
  result.addAttribute(getSizeAttrName(result.name),
                      builder.getI64IntegerAttr(*size));
  return success();
}

void PmapOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printer.printAttribute(getAxisNameAttr());
  if (getInputs().empty()) {
    printer << " size " << getAxisSize();
  } else {
    printer << " (";
    llvm::interleaveComma(llvm::zip(getBody().getArguments(), getInputs()),
                          printer, [&](auto pair) {
                            auto [argument, input] = pair;
                            printer << argument << " = " << input << " : "
                                    << input.getType();
                          });
    printer << ')';
  }
  if (getNumResults() != 0) {
    printer << " -> (";
    llvm::interleaveComma(getResultTypes(), printer);
    printer << ')';
  }
  printer << ' ';
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/true);
  printer.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getAxisNameAttrName(), getSizeAttrName()});
}

LogicalResult PmapOp::verify() {
  StringAttr axisName = getAxisNameAttr();
  if (axisName.getValue().empty())
    return emitOpError("needs a non-empty axis name");
  for (PmapOp outer : getEnclosingPmaps(*this)) {
    if (outer.getAxisNameAttr() != axisName)
      continue;
    InFlightDiagnostic diag =
        emitOpError() << "reuses the axis name " << axisName
                      << " of an enclosing 'spmd.pmap'; give each nested "
                         "pmap its own axis name";
    diag.attachNote(outer.getLoc()) << "axis " << axisName << " is bound here";
    return diag;
  }

  for (auto [index, input] : llvm::enumerate(getInputs())) {
    std::string what = ("mapped operand #" + Twine(index)).str();
    auto type = dyn_cast<RankedTensorType>(input.getType());
    if (type && type.getRank() == 0)
      return emitOpError()
             << what << " of type " << type
             << " has no leading dimension to split across devices; use "
                "it inside the body without mapping it (every device then "
                "sees the whole value)";
    if (!type)
      return emitOpError() << what << " must be a ranked tensor, got "
                           << input.getType();
    if (failed(verifyDeviceValueType(*this, type, what)))
      return failure();
    int64_t leading = type.getDimSize(0);
    if (leading == getAxisSize())
      continue;
    if (index == 0)
      return emitOpError() << "'size " << getAxisSize()
                           << "' contradicts the leading dimension " << leading
                           << " of mapped operand #0 (" << type
                           << "); write 'size " << leading
                           << "' or leave 'size' out";
    return emitOpError() << what << " (" << type << ") has leading dimension "
                         << leading << ", but the axis size is "
                         << getAxisSize()
                         << " (the leading dimension of mapped operand #0); "
                            "all mapped operands are split along one axis";
  }
  if (getAxisSize() < 1)
    return emitOpError() << "needs an axis size of at least 1, got "
                         << getAxisSize();

  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError() << "body takes " << body.getNumArguments()
                         << " arguments, but there are " << getInputs().size()
                         << " mapped operands";
  for (auto [index, input] : llvm::enumerate(getInputs())) {
    Type expected = getSliceType(input.getType());
    Type actual = body.getArgument(index).getType();
    if (actual != expected)
      return emitOpError() << "body argument #" << index << " has type "
                           << actual << ", but each device's slice of mapped "
                           << "operand #" << index << " has type " << expected;
  }
  return success();
}

LogicalResult PmapOp::verifyRegions() {
  // The outermost pmap checks its whole body at once, after every nested op
  // (and every axis name) has been verified.
  if ((*this)->getParentOfType<PmapOp>())
    return success();
  if (failed(verifyNestGrid(*this)))
    return failure();
  return verifyCollectivesAreUniform(*this);
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

LogicalResult YieldOp::verify() {
  auto pmap = cast<PmapOp>((*this)->getParentOp());
  if (getNumOperands() != pmap.getNumResults())
    return emitOpError() << "yields " << getNumOperands()
                         << " values, but the enclosing 'spmd.pmap' has "
                         << pmap.getNumResults() << " results";
  for (auto [index, value] : llvm::enumerate(getValues())) {
    if (failed(verifyDeviceValueType(*this, value.getType(),
                                     "operand #" + Twine(index))))
      return failure();
    RankedTensorType expected =
        PmapOp::getStackedType(value.getType(), pmap.getAxisSize());
    Type actual = pmap.getResult(index).getType();
    if (actual != expected)
      return emitOpError() << "operand #" << index << " (" << value.getType()
                           << ") stacks to " << expected << " over "
                           << pmap.getAxisSize() << " devices, but result #"
                           << index << " of the enclosing 'spmd.pmap' has type "
                           << actual;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

LogicalResult AllGatherOp::verify() {
  FailureOr<int64_t> groupSize =
      verifyAxesAndGroups(*this, /*equalGroups=*/true);
  if (failed(groupSize))
    return failure();

  Type inputType = getInput().getType();
  SmallVector<int64_t> shape;
  if (auto tensorType = dyn_cast<RankedTensorType>(inputType))
    llvm::append_range(shape, tensorType.getShape());
  int64_t rank = shape.size();
  int64_t axis = getAxis();
  if (getTiled()) {
    if (rank == 0)
      return emitOpError() << "'tiled' concatenates along an existing "
                              "dimension, but the operand is a scalar; leave "
                              "out 'tiled' to stack the values";
    if (axis < 0 || axis >= rank)
      return emitOpError() << "axis " << axis << " is out of range for a "
                           << "tiled gather of a rank-" << rank
                           << " operand; expected 0 to " << rank - 1;
    if (llvm::MulOverflow(shape[axis], *groupSize, shape[axis]))
      return emitOpError() << "result dimension overflows 64 bits";
  } else {
    if (axis < 0 || axis > rank)
      return emitOpError() << "axis " << axis << " is out of range for a "
                           << "rank-" << rank << " operand; expected 0 to "
                           << rank;
    shape.insert(shape.begin() + axis, *groupSize);
  }
  auto expected = RankedTensorType::get(shape, getElementTypeOrSelf(inputType));
  if (getType() != expected)
    return emitOpError() << "result type " << getType()
                         << " does not match the gathered value: " << *groupSize
                         << " devices' " << inputType << " "
                         << (getTiled() ? "concatenated along" : "stacked at")
                         << " axis " << axis << " give " << expected;
  return success();
}

/// Checks that dimension `dim` of `type` can be split into `parts` parts
/// (its size equal to `parts`, or divisible by it when `tiled`). `what`
/// names the attribute in messages ("dim", "split"). Returns the size of a
/// part along that dimension.
static FailureOr<int64_t> verifySplitDimension(Operation *op,
                                               RankedTensorType type,
                                               int64_t dim, int64_t parts,
                                               bool tiled, StringRef what) {
  int64_t rank = type.getRank();
  if (rank == 0)
    return op->emitOpError()
           << "splits a dimension of its operand into one part per device, "
              "but "
           << type
           << " has no dimensions; give the operand a dimension to split";
  if (dim < 0 || dim >= rank)
    return op->emitOpError()
           << "'" << what << " " << dim << "' is out of range for operand type "
           << type << "; expected 0 to " << rank - 1;
  int64_t size = type.getDimSize(dim);
  if (!tiled && size != parts)
    return op->emitOpError()
           << "splits dimension " << dim << " of " << type << " (size " << size
           << ") into one part per device, so its size must equal "
           << "the number of devices, " << parts
           << "; with 'tiled' it need only be divisible by it";
  if (tiled && size % parts != 0)
    return op->emitOpError()
           << "splits dimension " << dim << " of " << type << " (size " << size
           << ") into " << parts << " equal blocks, but " << size
           << " is not divisible by " << parts;
  return tiled ? size / parts : int64_t(1);
}

/// Checks that `op`'s written result type is `expected`; `how` says how the
/// result follows from the operand.
static LogicalResult verifyResultType(Operation *op, Type expected,
                                      const Twine &how) {
  Type actual = op->getResult(0).getType();
  if (actual == expected)
    return success();
  return op->emitOpError() << "result type " << actual
                           << " does not follow from the operand: " << how
                           << " give " << expected;
}

LogicalResult PsumScatterOp::verify() {
  FailureOr<int64_t> parts = verifyAxesAndGroups(*this, /*equalGroups=*/true);
  if (failed(parts))
    return failure();
  auto type = cast<RankedTensorType>(getInput().getType());
  int64_t dim = getDim();
  FailureOr<int64_t> partSize =
      verifySplitDimension(*this, type, dim, *parts, getTiled(), "dim");
  if (failed(partSize))
    return failure();
  SmallVector<int64_t> shape(type.getShape());
  if (getTiled())
    shape[dim] = *partSize;
  else
    shape.erase(shape.begin() + dim);
  return verifyResultType(*this,
                          RankedTensorType::get(shape, type.getElementType()),
                          Twine(*parts) + " parts of dimension " + Twine(dim) +
                              (getTiled() ? ", tiled," : ""));
}

/// Checks that `positions` (of `what`) lie along the op's axes (of size
/// `size`) and that none repeats; `hint` ends the messages.
static LogicalResult verifyPositions(Operation *op, ArrayRef<int64_t> positions,
                                     int64_t size, StringRef what,
                                     StringRef hint) {
  SmallVector<bool> seen(size, false);
  for (int64_t position : positions) {
    if (position < 0 || position >= size)
      return op->emitOpError()
             << what << " " << position
             << " is out of range: the named axes have " << size
             << " devices, at positions 0 to " << size - 1 << hint;
    if (seen[position])
      return op->emitOpError()
             << what << " " << position << " appears twice in 'perm'" << hint;
    seen[position] = true;
  }
  return success();
}

LogicalResult PpermuteOp::verify() {
  FailureOr<int64_t> size = verifyAxisNames(*this, getAxisNames());
  if (failed(size))
    return failure();
  SmallVector<int64_t> sources, destinations;
  for (auto [index, attr] : llvm::enumerate(getPerm())) {
    ArrayRef<int64_t> pair = cast<DenseI64ArrayAttr>(attr).asArrayRef();
    if (pair.size() != 2)
      return emitOpError() << "'perm' entry #" << index << " has "
                           << pair.size()
                           << " positions; each entry is a [source, "
                              "destination] pair";
    sources.push_back(pair[0]);
    destinations.push_back(pair[1]);
  }
  StringRef hint = "; each device sends to at most one and receives from at "
                   "most one";
  if (failed(verifyPositions(*this, sources, *size, "source", hint)))
    return failure();
  return verifyPositions(*this, destinations, *size, "destination", hint);
}

LogicalResult PshuffleOp::verify() {
  FailureOr<int64_t> size = verifyAxisNames(*this, getAxisNames());
  if (failed(size))
    return failure();
  if (int64_t(getPerm().size()) != *size)
    return emitOpError() << "'perm' has " << getPerm().size()
                         << " entries, but the named axes have " << *size
                         << " devices; it must be a permutation of 0 to "
                         << *size - 1 << " (device k receives perm[k]'s value)";
  std::string hint =
      ("; 'perm' must be a permutation of 0 to " + Twine(*size - 1) +
       " (use 'spmd.ppermute' for a "
       "partial one)")
          .str();
  return verifyPositions(*this, getPerm(), *size, "source", hint);
}

LogicalResult AllToAllOp::verify() {
  FailureOr<int64_t> parts = verifyAxesAndGroups(*this, /*equalGroups=*/true);
  if (failed(parts))
    return failure();
  auto type = cast<RankedTensorType>(getInput().getType());
  int64_t split = getSplit(), concat = getConcat();
  FailureOr<int64_t> chunk =
      verifySplitDimension(*this, type, split, *parts, getTiled(), "split");
  if (failed(chunk))
    return failure();
  // The received chunks, each of the operand's shape split along `split`.
  SmallVector<int64_t> shape(type.getShape());
  if (getTiled())
    shape[split] = *chunk;
  else
    shape.erase(shape.begin() + split);
  int64_t rank = shape.size();
  if (getTiled() ? (concat < 0 || concat >= rank)
                 : (concat < 0 || concat > rank))
    return emitOpError() << "'concat " << concat << "' is out of range; "
                         << "expected 0 to " << (getTiled() ? rank - 1 : rank)
                         << (getTiled() ? " (a dimension of the operand)"
                                        : " (where the new dimension goes "
                                          "in the result)");
  if (getTiled())
    shape[concat] *= *parts;
  else
    shape.insert(shape.begin() + concat, *parts);
  return verifyResultType(
      *this, RankedTensorType::get(shape, type.getElementType()),
      Twine(*parts) + " chunks split along dimension " + Twine(split) +
          (getTiled() ? " and concatenated along " : " and stacked at ") +
          Twine(concat));
}

LogicalResult PbroadcastOp::verify() {
  FailureOr<int64_t> size = verifyAxisNames(*this, getAxisNames());
  if (failed(size))
    return failure();
  int64_t source = getSource();
  if (source < 0 || source >= *size)
    return emitOpError() << "'from " << source
                         << "' is out of range: the named axes have " << *size
                         << " devices, at positions 0 to " << *size - 1;
  return success();
}

LogicalResult AxisIndexOp::verify() {
  return verifyAxisNames(*this, getAxisNames());
}

//===----------------------------------------------------------------------===//
// Device functions and LaunchOp
//===----------------------------------------------------------------------===//

LogicalResult SPMDDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  if (name == kWrittenAsAttrName) {
    auto writtenAs = dyn_cast<StringAttr>(attribute.getValue());
    if (!isa<AxisOpInterface>(op) || !writtenAs ||
        !writtenAs.getValue().starts_with("spmd."))
      return op->emitError()
             << "'" << name
             << "' belongs on a collective, naming the spmd op it was "
                "written as (\"spmd.pmean\")";
    return success();
  }
  if (name != kGridAxesAttrName && name != kGridSizesAttrName)
    return op->emitError() << "unknown spmd attribute '" << name << "'";
  // A func.func, or the llvm.func it becomes.
  auto function = dyn_cast<FunctionOpInterface>(op);
  auto axes = op->getAttrOfType<ArrayAttr>(kGridAxesAttrName);
  auto sizes = op->getAttrOfType<DenseI64ArrayAttr>(kGridSizesAttrName);
  if (!function || !axes || !sizes || int64_t(axes.size()) != sizes.size() ||
      axes.empty())
    return op->emitError()
           << "'" << kGridAxesAttrName << "' (an array of axis names) and '"
           << kGridSizesAttrName
           << "' (their sizes) go together on a device function";
  if (function.getNumArguments() == 0 ||
      !function.getArgumentTypes().front().isInteger(64))
    return op->emitError() << "a device function takes its device index "
                              "(i64) as its first argument";
  for (auto [index, axis] : llvm::enumerate(axes)) {
    auto axisName = dyn_cast<StringAttr>(axis);
    if (!axisName || axisName.getValue().empty() ||
        llvm::is_contained(axes.getValue().take_front(index), axis))
      return op->emitError() << "'" << kGridAxesAttrName
                             << "' must hold distinct, non-empty axis names";
  }
  if (axes.size() >= 64 ||
      llvm::any_of(sizes.asArrayRef(), [](int64_t size) { return size < 1; }))
    return op->emitError() << "'" << kGridSizesAttrName
                           << "' must hold at most 63 sizes of at least 1";
  return success();
}

/// The buffer a launch passes for `type`: a memref as it is, a tensor as the
/// identity-layout memref the device function takes.
static Type getLaunchBufferType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return MemRefType::get(tensor.getShape(), tensor.getElementType());
  return type;
}

LogicalResult LaunchOp::verify() {
  if (!hasPureBufferSemantics() && !llvm::all_of(getOutputs(), [](Value v) {
        return isa<RankedTensorType>(v.getType());
      }))
    return emitOpError() << "takes outputs that are all tensors (before "
                            "bufferization) or all buffers (after)";
  for (auto [name, flags] :
       {std::pair("uniform_outputs", getUniformOutputs()),
        std::pair("returned_outputs", getReturnedOutputs())})
    if (flags && flags->size() != getOutputs().size())
      return emitOpError() << "has " << flags->size() << " " << name
                           << " flags for " << getOutputs().size()
                           << " outputs";
  return success();
}

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbols) {
  // A func.func, or the llvm.func it becomes on the way to the LLVM dialect.
  auto callee = symbols.lookupNearestSymbolFrom<FunctionOpInterface>(
      *this, getCalleeAttr());
  if (!callee || !callee->hasAttr(kGridSizesAttrName))
    return emitOpError() << "calls " << getCalleeAttr()
                         << ", which is not a device function";
  if (auto function = dyn_cast<func::FuncOp>(callee.getOperation())) {
    SmallVector<Type> expected{IntegerType::get(getContext(), 64)};
    for (Type type : getOperandTypes())
      expected.push_back(getLaunchBufferType(type));
    if (function.getFunctionType() !=
        FunctionType::get(getContext(), expected, {}))
      return emitOpError() << "passes buffers that do not match the signature "
                           << function.getFunctionType() << " of "
                           << getCalleeAttr();
  }
  int64_t devices = 1;
  for (int64_t size :
       callee->getAttrOfType<DenseI64ArrayAttr>(kGridSizesAttrName)
           .asArrayRef())
    devices *= size;
  if (devices != static_cast<int64_t>(getDevices()))
    return emitOpError() << "runs " << getDevices() << " devices, but the grid "
                         << "of " << getCalleeAttr() << " has " << devices;
  return success();
}

/// The effects of a call that reads `inputs` and writes `outputs` where they
/// are buffers (tensors have no memory effects).
static void addBufferEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects,
    MutableArrayRef<OpOperand> inputs, MutableArrayRef<OpOperand> outputs) {
  for (OpOperand &input : inputs)
    if (isa<BaseMemRefType>(input.get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), &input);
  for (OpOperand &output : outputs)
    if (isa<BaseMemRefType>(output.get().getType()))
      effects.emplace_back(MemoryEffects::Write::get(), &output);
}

void LaunchOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addBufferEffects(effects, getInputsMutable(), getOutputsMutable());
}

LogicalResult RuntimeCallOp::verify() {
  // The runtime takes a buffer as a pointer to its first element.
  for (Value operand : getOperation()->getOperands()) {
    auto buffer = dyn_cast<MemRefType>(operand.getType());
    if (buffer && !buffer.areTrailingDimsContiguous(buffer.getRank()))
      return emitOpError() << "passes the runtime a buffer that is not "
                              "contiguous: "
                           << buffer;
  }
  return success();
}

void RuntimeCallOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addBufferEffects(effects, getArgumentsMutable(), getOutputMutable());
  // The call meets the other devices: it must stay where it is, and stay.
  effects.emplace_back(MemoryEffects::Write::get());
}

#define GET_OP_CLASSES
#include "pcc/Dialect/SPMD/IR/SPMDOps.cpp.inc"
