//===- SPMDOps.td - the spmd dialect: pmap regions and collectives -------===//
//
// The `spmd` dialect holds what pcc adds to upstream MLIR: `spmd.pmap`, which
// runs one body on N devices, and the collectives that devices of a pmap use
// to talk to each other (JAX's `lax.psum`, `pmean`, `pmax`, `pmin`,
// `all_gather`, `psum_scatter`, `ppermute`, `pshuffle`, `all_to_all` and
// `axis_index`). The descriptions below are the dialect
// reference in docs/dialect/spmd.md.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_DIALECT_SPMD_IR_SPMDOPS_TD
#define PCC_DIALECT_SPMD_IR_SPMDOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

def SPMD_Dialect : Dialect {
  let name = "spmd";
  let cppNamespace = "::pcc::spmd";
  let summary = "Single-program multiple-data regions and collectives";
  let description = [{
    The `spmd` dialect expresses programs the way JAX users write
    `jax.pmap` with `lax.psum` and friends. An `spmd.pmap` runs its body once
    on each of N devices; every device sees its own slice of the mapped
    operands. Inside the body, collectives such as `spmd.psum` combine a
    value across the devices of one or more named axes and hand the result
    back to every one of them.

    ```mlir
    func.func @main(%data: tensor<4x3xi32>) -> tensor<4xi32> {
      %r = spmd.pmap "devices" (%x = %data : tensor<4x3xi32>) -> (tensor<4xi32>) {
        // %x : tensor<3xi32>, row d of %data on device d
        %zero = arith.constant dense<0> : tensor<i32>
        %local = linalg.reduce ins(%x : tensor<3xi32>) outs(%zero : tensor<i32>)
                   dimensions = [0]
          (%a: i32, %b: i32) {
            %s = arith.addi %a, %b : i32
            linalg.yield %s : i32
          }
        %total = spmd.psum %local over "devices" : tensor<i32>
        spmd.yield %total : tensor<i32>
      }
      return %r : tensor<4xi32>   // [66 66 66 66] for arange(12)
    }
    ```

    Collectives must be reached by every device of the axes they name: a
    collective under control flow that branches on a per-device value is a
    verifier error, since such a program would hang on real hardware.
  }];
  let hasOperationAttrVerify = 1;
}

class SPMD_Op<string mnemonic, list<Trait> traits = []>
    : Op<SPMD_Dialect, mnemonic, traits>;

// After outlining, a device function names its grid in two attributes
// instead of enclosing pmaps: `spmd.grid_axes` (axis names, outermost first)
// and `spmd.grid_sizes` (their sizes).

//===----------------------------------------------------------------------===//
// Interfaces
//===----------------------------------------------------------------------===//

def SPMD_AxisOpInterface : OpInterface<"AxisOpInterface"> {
  let cppNamespace = "::pcc::spmd";
  let description = [{
    An op that names axes bound by enclosing `spmd.pmap` ops: every
    collective and `spmd.axis_index`. The verifier checks that each name is
    bound; analyses use the interface to find the device groups an op spans.
  }];
  let methods = [
    InterfaceMethod<"The axis names this op runs over, outermost first as "
                    "written.", "::mlir::ArrayAttr", "getAxisNames">,
    InterfaceMethod<"The device groups (JAX `axis_index_groups`) this op "
                    "runs within, as arrays of positions along its one "
                    "axis, or null when it spans all devices of its axes.",
                    "::mlir::ArrayAttr", "getGroupsAttr", (ins), [{}],
                    [{ return {}; }]>,
    InterfaceMethod<"Whether every device of the named axes receives the "
                    "same result (what the uniformity analysis relies on).",
                    "bool", "hasUniformResult", (ins), [{}],
                    [{ return false; }]>,
  ];
}

//===----------------------------------------------------------------------===//
// spmd.pmap and spmd.yield
//===----------------------------------------------------------------------===//

def SPMD_PmapOp : SPMD_Op<"pmap", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects,
    RecursivelySpeculatable]> {
  let summary = "Run one body on N devices (JAX `jax.pmap`)";
  let description = [{
    `spmd.pmap` runs its body once on each of N devices and binds an axis
    name that collectives in the body refer to.

    ```mlir
    %r0, %r1 = spmd.pmap "i" (%x = %a : tensor<4x3xf32>, %y = %b : tensor<4xi32>)
                 -> (tensor<4xf32>, tensor<4x3xf32>) {
      // %x : tensor<3xf32>   device d sees row d of %a
      // %y : tensor<i32>     device d sees element d of %b
      ...
      spmd.yield %s, %v : tensor<f32>, tensor<3xf32>
    }
    ```

    - Every operand in parentheses is *mapped*: it is split along its leading
      dimension, and device `d` receives slice `d` with that dimension
      removed, as the block argument named on the left of `=`.
    - The axis size N is the leading dimension of the mapped operands; they
      must all agree. With no mapped operand, write it:
      `spmd.pmap "i" size 4 -> (tensor<4xi64>) { ... }`. `size N` may also be
      written alongside operands, and must then agree with them.
    - Values defined outside the body may be used inside it: every device
      sees the same whole value (JAX's `in_axes=None`).
    - Each `spmd.yield` operand of type `tensor<S...xT>` (or scalar `T`)
      becomes a result of type `tensor<NxS...xT>`: the per-device values
      stacked in device order (JAX's `out_axes=0`).
    - A `spmd.pmap` nested in another's body maps a second axis, with a
      different name. The devices form a row-major grid: with outer `"i"` of
      size 2 and inner `"j"` of size 3 there are 6 devices, and device
      (i, j) has linear index `i*3 + j`.

    The verifier also checks that every collective in the body is reached by
    all devices of the axes it names (see the dialect description).
  }];

  let arguments = (ins StrAttr:$axis_name, I64Attr:$size,
                       Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);

  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;

  let extraClassDeclaration = [{
    /// The axis size N (the `size` attribute, read as a signed value).
    int64_t getAxisSize() { return getSizeAttr().getInt(); }
    /// The `spmd.yield` that ends the body.
    YieldOp getYield();
    /// The axes of the grid that this pmap and the pmaps nested in its body
    /// run on as one launch, outermost first: this pmap's, then the nested
    /// pmaps' in pre-order, each name once with its first size. Sibling
    /// inner pmaps with different names each add an axis.
    ::llvm::SmallVector<std::pair<::mlir::StringAttr, int64_t>> getNestAxes();
    /// The devices of that launch: the product of the nest's axis sizes.
    int64_t getNestDeviceCount();
    /// The type device `d` sees for a mapped operand of type `type`: `type`
    /// without its leading dimension. Returns null if `type` cannot be
    /// mapped (not a ranked tensor of rank >= 1).
    static ::mlir::Type getSliceType(::mlir::Type type);
    /// The result type that stacks `size` per-device values of `type`.
    static ::mlir::RankedTensorType getStackedType(::mlir::Type type,
                                                  int64_t size);
  }];
}

def SPMD_YieldOp : SPMD_Op<"yield", [
    Pure, Terminator, ReturnLike, HasParent<"PmapOp">]> {
  let summary = "Return per-device values from a `spmd.pmap` body";
  let description = [{
    Ends the body of a `spmd.pmap`. Operand `k`, a tensor or a scalar, is
    this device's part of result `k`; the pmap stacks the parts of all
    devices in device order.

    ```mlir
    spmd.yield %total, %local : tensor<f32>, f32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

// The values that collectives exchange: the runtime's element types
// (pcc/Runtime/RuntimeABI.def, which the predicates read), statically shaped.
def SPMD_ReducibleElement
    : Type<CPred<"::pcc::spmd::isSupportedElementType($_self)">,
           "i8, i16, i32, i64, f16, bf16, f32 or f64">;
def SPMD_GatherableElement
    : Type<CPred<"::pcc::spmd::isSupportedElementType($_self, "
                 "/*allowI1=*/true)">,
           "i8, i16, i32, i64, f16, bf16, f32, f64 or i1">;
def SPMD_ReducibleValue
    : AnyTypeOf<[SPMD_ReducibleElement,
                 StaticShapeTensorOf<[SPMD_ReducibleElement]>],
                "a scalar or statically shaped tensor of i8, i16, i32, i64, "
                "f16, bf16, f32 or f64">;
def SPMD_GatherableValue
    : AnyTypeOf<[SPMD_GatherableElement,
                 StaticShapeTensorOf<[SPMD_GatherableElement]>],
                "a scalar or statically shaped tensor of i8, i16, i32, i64, "
                "f16, bf16, f32, f64 or i1">;

// `groups [[0, 2], [1, 3]]` (JAX `axis_index_groups`): lists of positions
// along the op's one axis.
def SPMD_GroupsAttr : TypedArrayAttrBase<DenseI64ArrayAttr,
                                         "lists of positions along an axis">;

class SPMD_ReductionOp<string mnemonic, string jaxName, string what,
                       string before, string after, string note>
    : SPMD_Op<mnemonic, [Pure, SameOperandsAndResultType,
                         DeclareOpInterfaceMethods<SPMD_AxisOpInterface,
                                                   ["hasUniformResult"]>]> {
  let summary = what # " across devices (JAX `lax." # jaxName # "`)";
  let description = what # [{ of the operand over every device of the named
    axes; every device receives the same result. `over` takes one axis name
    or a list of enclosing axis names: a list combines the devices that
    agree on every other axis of the grid.

    ```mlir
    %r = spmd.}] # mnemonic # [{ %v over "i" : tensor<3xf32>
    %s = spmd.}] # mnemonic # [{ %w over ["i", "j"] : f32
    %g = spmd.}] # mnemonic # [{ %v over "i" groups [[0, 2], [1, 3]] : tensor<3xf32>
    ```

    With four devices on axis `"i"`:

    ```
    before:  }] # before # [{
    after:   }] # after # [{
    ```

    `groups` (JAX's `axis_index_groups`, with one axis name only) splits the
    axis into groups that each combine their own members: the groups must
    hold every position along the axis exactly once, and may differ in size.

    The operand is a statically shaped tensor or a scalar of type `i8`,
    `i16`, `i32`, `i64`, `f16`, `bf16`, `f32` or `f64`. The result is bitwise
    identical on every device (of a group), and the same on every run.

    }] # note;
  let arguments = (ins SPMD_ReducibleValue:$input,
                       StrArrayAttr:$axis_names,
                       OptionalAttr<SPMD_GroupsAttr>:$groups);
  let results = (outs SPMD_ReducibleValue:$result);
  let assemblyFormat = [{
    $input `over` custom<AxesAndGroups>($axis_names, $groups)
    attr-dict `:` type($input)
  }];
  // Every reduction checks its axes alike (pmean adds its own rule).
  let hasVerifier = 1;
  code extraVerification = "";
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::verify() {
      if (::mlir::failed(verifyAxesAndGroups(*this, /*equalGroups=*/false)))
        return ::mlir::failure();
      }] # extraVerification # [{
      return ::mlir::success();
    }
    bool $cppClass::hasUniformResult() { return !getGroups(); }
  }];
}

def SPMD_PsumOp : SPMD_ReductionOp<"psum", "psum", "Sum",
    "d0: 1   d1: 2   d2: 3   d3: 4",
    "d0: 10  d1: 10  d2: 10  d3: 10",
    "Integer sums wrap around (two's complement); `f16` and `bf16` are "
    "summed in `f32` and rounded once.">;

def SPMD_PmeanOp : SPMD_ReductionOp<"pmean", "pmean", "Mean",
    "d0: 1.0  d1: 2.0  d2: 3.0  d3: 4.0",
    "d0: 2.5  d1: 2.5  d2: 2.5  d3: 2.5",
    "The mean is the sum divided by the number of devices in the group, so "
    "`pmean` takes floating-point operands only; for integers use "
    "`spmd.psum` and divide."> {
  let extraVerification = [{
    ::mlir::Type elementType = ::mlir::getElementTypeOrSelf(getInput());
    if (!::mlir::isa<::mlir::FloatType>(elementType))
      return emitOpError() << "needs a floating-point operand, got element "
                              "type " << elementType
                           << "; for integers use 'spmd.psum' and divide";
  }];
}

def SPMD_PmaxOp : SPMD_ReductionOp<"pmax", "pmax", "Maximum",
    "d0: 1   d1: 7   d2: 3   d3: 4",
    "d0: 7   d1: 7   d2: 7   d3: 7",
    "A NaN on any device makes the result NaN.">;

def SPMD_PminOp : SPMD_ReductionOp<"pmin", "pmin", "Minimum",
    "d0: 5   d1: 7   d2: 3   d3: 4",
    "d0: 3   d1: 3   d2: 3   d3: 3",
    "A NaN on any device makes the result NaN.">;

def SPMD_AllGatherOp : SPMD_Op<"all_gather", [
    Pure, DeclareOpInterfaceMethods<SPMD_AxisOpInterface,
                                    ["hasUniformResult"]>]> {
  let summary = "Gather every device's value (JAX `lax.all_gather`)";
  let description = [{
    Every device receives the operands of all devices of the named axes, in
    device order.

    ```mlir
    %g  = spmd.all_gather %v over "i" : tensor<3xf32> -> tensor<4x3xf32>
    %g1 = spmd.all_gather %v over "i" axis 1 : tensor<3x2xf32> -> tensor<3x4x2xf32>
    %t  = spmd.all_gather %v over "i" tiled : tensor<3xf32> -> tensor<12xf32>
    %p  = spmd.all_gather %v over "i" groups [[0, 3], [1, 2]] : tensor<3xf32> -> tensor<2x3xf32>
    ```

    - Without `tiled`, a new dimension of size N (the number of devices in
      the group) is inserted at position `axis` (default 0, at most the
      operand's rank).
    - With `tiled`, the operands are concatenated along their existing
      dimension `axis` instead, which grows N times.
    - With `groups` (one axis name only; groups of equal size that hold
      every position along the axis once), each group gathers its own
      members, in the order the group lists them.

    With four devices on axis `"i"`, each holding `[d, d]`:

    ```
    before:  d0: [0 0]  d1: [1 1]  d2: [2 2]  d3: [3 3]
    after (every device, no `tiled`):  [[0 0] [1 1] [2 2] [3 3]]
    after (every device, `tiled`):     [0 0 1 1 2 2 3 3]
    ```

    Operands are statically shaped tensors or scalars of the element types
    the reductions take, and also `i1`. The written result type must be the
    one that follows from `axis` and `tiled`.
  }];
  let arguments = (ins SPMD_GatherableValue:$input, StrArrayAttr:$axis_names,
                       OptionalAttr<SPMD_GroupsAttr>:$groups,
                       DefaultValuedAttr<I64Attr, "0">:$axis,
                       UnitAttr:$tiled);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `over` custom<AxesAndGroups>($axis_names, $groups)
    (`axis` $axis^)? (`tiled` $tiled^)? custom<LateGroups>(ref($groups))
    attr-dict `:` type($input) `->`
    type($result)
  }];
  let extraClassDefinition = [{
    bool $cppClass::hasUniformResult() { return !getGroups(); }
  }];
  let hasVerifier = 1;
}

def SPMD_PsumScatterOp : SPMD_Op<"psum_scatter", [
    Pure, SPMD_AxisOpInterface]> {
  let summary = "Sum across devices, each keeping one part "
                "(JAX `lax.psum_scatter`)";
  let description = [{
    The sum of the operands of every device of the named axes, of which
    device k keeps part k along dimension `dim` (default 0): the
    reduce-scatter half of an all-reduce, as in ZeRO-style sharded
    optimizers.

    ```mlir
    %rs = spmd.psum_scatter %v over "i" : tensor<4x3xf32> -> tensor<3xf32>
    %rt = spmd.psum_scatter %v over "i" dim 1 tiled : tensor<3x8xf32> -> tensor<3x2xf32>
    ```

    - Without `tiled`, dimension `dim` must have size N (the number of
      devices in the group) and is removed: part k is index k.
    - With `tiled`, its size must be divisible by N and becomes size / N:
      part k is the k-th block.
    - With `groups` (one axis name only; groups of equal size), each group
      sums its own members, and member k of a group keeps part k.

    `spmd.all_gather` with the same `axis`/`tiled` is its inverse:
    `all_gather(psum_scatter(x))` is `psum(x)`, bit for bit. Sums are those
    of `spmd.psum` (in device order; integers wrap; `f16` and `bf16` are
    summed in `f32` and rounded once).

    With two devices on axis `"i"`:

    ```
    before:  d0: [1 2]  d1: [10 20]
    after:   d0: 11     d1: 22
    ```
  }];
  let arguments = (ins StaticShapeTensorOf<[SPMD_ReducibleElement]>:$input,
                       StrArrayAttr:$axis_names,
                       OptionalAttr<SPMD_GroupsAttr>:$groups,
                       DefaultValuedAttr<I64Attr, "0">:$dim,
                       UnitAttr:$tiled);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `over` custom<AxesAndGroups>($axis_names, $groups)
    (`dim` $dim^)? (`tiled` $tiled^)? custom<LateGroups>(ref($groups))
    attr-dict `:` type($input) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def SPMD_PpermuteOp : SPMD_Op<"ppermute", [
    Pure, SameOperandsAndResultType, SPMD_AxisOpInterface]> {
  let summary = "Send each device's value to another (JAX `lax.ppermute`)";
  let description = [{
    `perm` lists `[source, destination]` pairs of positions along the named
    axes: device `destination` receives device `source`'s value. No source
    and no destination may appear twice; a device that is no destination
    receives zeros. Rings, pipelines and halo exchanges are written with it.

    ```mlir
    %p = spmd.ppermute %v over "i" perm [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<3xf32>
    ```

    With four devices and the ring shift above:

    ```
    before:  d0: 1  d1: 2  d2: 3  d3: 4
    after:   d0: 4  d1: 1  d2: 2  d3: 3
    ```
  }];
  let arguments = (ins SPMD_GatherableValue:$input, StrArrayAttr:$axis_names,
                       SPMD_GroupsAttr:$perm);
  let results = (outs SPMD_GatherableValue:$result);
  let assemblyFormat = [{
    $input `over` custom<AxisNames>($axis_names) `perm` custom<IndexLists>($perm)
    custom<NoLateGroups>(ref($axis_names)) attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

def SPMD_PshuffleOp : SPMD_Op<"pshuffle", [
    Pure, SameOperandsAndResultType, SPMD_AxisOpInterface]> {
  let summary = "Permute values across devices (JAX `lax.pshuffle`)";
  let description = [{
    Device k receives device `perm[k]`'s value; `perm` must be a
    permutation of the positions 0 to N-1 along the named axes.

    ```mlir
    %q = spmd.pshuffle %v over "i" perm [3, 0, 1, 2] : tensor<3xf32>
    ```

    With four devices:

    ```
    before:  d0: 1  d1: 2  d2: 3  d3: 4
    after:   d0: 4  d1: 1  d2: 2  d3: 3
    ```
  }];
  let arguments = (ins SPMD_GatherableValue:$input, StrArrayAttr:$axis_names,
                       DenseI64ArrayAttr:$perm);
  let results = (outs SPMD_GatherableValue:$result);
  let assemblyFormat = [{
    $input `over` custom<AxisNames>($axis_names) `perm` $perm
    custom<NoLateGroups>(ref($axis_names)) attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

def SPMD_AllToAllOp : SPMD_Op<"all_to_all", [
    Pure, SPMD_AxisOpInterface]> {
  let summary = "Exchange chunks between all devices (JAX `lax.all_to_all`)";
  let description = [{
    Each device splits its value along dimension `split` into N chunks (N
    the number of devices in the group) and sends chunk j to device j; the
    chunks it receives are stacked in device order along `concat`. It
    re-shards a tensor, as mixture-of-experts dispatch and sequence
    parallelism do.

    ```mlir
    %a  = spmd.all_to_all %v over "i" split 0 concat 1 : tensor<4x3xf32> -> tensor<3x4xf32>
    %at = spmd.all_to_all %v over "i" split 0 concat 1 tiled : tensor<8x3xf32> -> tensor<2x12xf32>
    ```

    - Without `tiled`, the `split` dimension's size must equal N and it is
      removed; a new dimension of size N is inserted at position `concat`
      of the result.
    - With `tiled`, the `split` size must be divisible by N, and the
      received chunks are concatenated along dimension `concat` of the
      operand's rank.
    - With `groups` (one axis name only; groups of equal size), the
      exchange happens within each group, in the order the group lists its
      members.

    Applying it twice with `split` and `concat` swapped gives the operand
    back.
  }];
  let arguments = (ins StaticShapeTensorOf<[SPMD_GatherableElement]>:$input,
                       StrArrayAttr:$axis_names,
                       OptionalAttr<SPMD_GroupsAttr>:$groups,
                       I64Attr:$split, I64Attr:$concat, UnitAttr:$tiled);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `over` custom<AxesAndGroups>($axis_names, $groups)
    `split` $split `concat` $concat (`tiled` $tiled^)?
    custom<LateGroups>(ref($groups)) attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def SPMD_PbroadcastOp : SPMD_Op<"pbroadcast", [
    Pure, SameOperandsAndResultType,
    DeclareOpInterfaceMethods<SPMD_AxisOpInterface, ["hasUniformResult"]>]> {
  let summary = "Every device receives one device's value";
  let description = [{
    Every device of the named axes receives the value of the device at
    position `from` along them.

    ```mlir
    %b = spmd.pbroadcast %v over "i" from 2 : tensor<3xf32>
    ```
  }];
  let arguments = (ins SPMD_GatherableValue:$input, StrArrayAttr:$axis_names,
                       I64Attr:$source);
  let results = (outs SPMD_GatherableValue:$result);
  let assemblyFormat = [{
    $input `over` custom<AxisNames>($axis_names) `from` $source
    custom<NoLateGroups>(ref($axis_names)) attr-dict `:` type($input)
  }];
  let extraClassDefinition = [{
    bool $cppClass::hasUniformResult() { return true; }
  }];
  let hasVerifier = 1;
}

def SPMD_AxisIndexOp : SPMD_Op<"axis_index", [
    Pure, SPMD_AxisOpInterface]> {
  let summary = "This device's position along pmap axes (JAX `lax.axis_index`)";
  let description = [{
    The index of the executing device along the named axis. Over a list of
    axes it is the row-major linear index over them: in a grid with `"i"` of
    size 2 and `"j"` of size 3, device (i, j) gets `i*3 + j` from
    `spmd.axis_index ["i", "j"]`.

    ```mlir
    %k = spmd.axis_index "i" : index
    ```

    Unlike the collectives, its result differs between devices: control
    flow that depends on it must not contain collectives over those axes.
  }];
  let arguments = (ins StrArrayAttr:$axis_names);
  let results = (outs Index:$result);
  let assemblyFormat = [{
    custom<AxisNames>($axis_names) attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Ops that pcc's lowering creates
//===----------------------------------------------------------------------===//

def SPMD_LaunchOp : SPMD_Op<"launch", [
    AttrSizedOperandSegments, DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Run an outlined pmap body on every device (created by pcc)";
  let description = [{
    Calls the device function `callee` once on each of `devices` devices,
    concurrently, and returns when all calls have returned. The callee is a
    `func.func` that `pcc-outline-pmaps` made from a pmap body: it takes the
    device's linear index (`i64`) followed by the buffers of `inputs` and
    `outputs`, and carries the device grid in its `spmd.grid_axes` and
    `spmd.grid_sizes` attributes. Every device reads the inputs and writes
    its own part of the outputs; together they write every element.

    The op is in destination-passing style: on tensors, each output is an
    init tensor whose buffer the devices fill and which the matching result
    then holds (as `linalg` ops do), so that bufferization sees what the
    devices read and write. On buffers it has no results.

    `work`, where the compiler could count it, is how many elements one
    device reads and writes (an estimate; see docs/design.md). The runtime
    runs a launch whose devices together do little on a single thread.
    `uniform_outputs` marks, for each output, whether every device yields
    the same value into it (the uniformity analysis proved it, as for a
    `psum` over every axis): under several processes, each then fills the
    others' slices from its own instead of receiving them.
    `returned_outputs` marks the outputs that are the entry's results and
    that nothing else reads (set by `pcc-entry-results-in-place`): a
    uniform one then leaves the other processes' slices to be filled when
    the host takes the results, so that a run repeated by the host does not
    copy them each time.

    ```mlir
    %r = spmd.launch @main_pmap devices 4 (%data) outs(%init) {work = 15 : i64}
        : (tensor<4x3xi32>) -> tensor<4xi32> -> tensor<4xi32>
    spmd.launch @main_pmap devices 4 (%buffer) outs(%out) {work = 15 : i64}
        : (memref<4x3xi32>) -> memref<4xi32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, I64Attr:$devices,
                       Variadic<AnyShaped>:$inputs,
                       Variadic<AnyShaped>:$outputs,
                       OptionalAttr<I64Attr>:$work,
                       OptionalAttr<DenseBoolArrayAttr>:$uniform_outputs,
                       OptionalAttr<DenseBoolArrayAttr>:$returned_outputs);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $callee `devices` $devices `(` $inputs `)` `outs` `(` $outputs `)`
    attr-dict `:` functional-type($inputs, $outputs) (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getOutputsMutable();
    }
  }];
  let hasVerifier = 1;
}

def SPMD_RuntimeCallOp : SPMD_Op<"runtime_call", [
    DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Call pcc's runtime on tensors or buffers (created by pcc)";
  let description = [{
    Calls the runtime function `callee` with `arguments` followed by the
    buffer of `output`, which the call writes (what `pcc-lower-collectives`
    makes of a collective). Tensor arguments are read; scalar and buffer
    arguments are passed as they are, buffers as pointers to their first
    element: the runtime takes contiguous buffers (a row-major layout,
    whatever the offset), and bufferization copies others.

    The op is in destination-passing style, so that bufferization sees
    exactly what the call reads and writes: on tensors, `output` is an init
    tensor and the result holds what the call wrote into its buffer; on
    buffers (after bufferization) the op has no result, and
    `pcc-lower-runtime-calls` turns it into a `func.call`.
    `elementwise` says that element k of the output depends on element k of
    the tensor arguments alone, all of which the call reads before it writes
    any: bufferization may then have it write in place of an argument.

    ```mlir
    %s = spmd.runtime_call @pcc_collective(
             %site, %groups, %text, %device, %x) outs(%init) {elementwise}
         : (memref<9xi64>, memref<0xi64>, memref<40xi8>, i64,
            tensor<8xf32>) -> tensor<8xf32> -> tensor<8xf32>
    ```

    A call also synchronizes devices, so it is never removed, merged with
    another or moved, even when its result is unused.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<AnyType>:$arguments,
                       AnyShaped:$output, UnitAttr:$elementwise);
  let results = (outs Optional<AnyRankedTensor>:$result);
  let assemblyFormat = [{
    $callee `(` $arguments `)` `outs` `(` $output `)` attr-dict
    `:` functional-type($arguments, $output) (`->` type($result)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getOutputMutable();
    }
  }];
  let hasVerifier = 1;
}

#endif // PCC_DIALECT_SPMD_IR_SPMDOPS_TD
