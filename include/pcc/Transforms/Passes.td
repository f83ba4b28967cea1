//===- Passes.td - whole-program passes of both backends ---*- tablegen -*-===//
//
// Passes on the whole program that both backends run: its closure (only
// its own code, values that fit in memory), the entry's C ABI, the renaming
// of its symbols, defined integer division, fused elementwise ops, and buffers
// that loops reuse.
// The descriptions are the pass reference in docs/passes.md.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_TRANSFORMS_PASSES_TD
#define PCC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def PCCVerifyClosed : Pass<"pcc-verify-closed", "mlir::ModuleOp"> {
  let summary = "Reject programs that could run code outside themselves";
  let description = [{
    A `.mlir` file is code, and pcc runs it in its own process: it must run
    only what the program defines and what the pcc runtime provides. On the
    input (the default), the pass rejects ops of dialects a program may not use
    (so no `llvm.call`, `llvm.inline_asm` or `llvm.mlir.addressof`) and
    functions declared without a body (`func.func private @system(...)`),
    each with an error naming the op or the symbol, and types whose size in
    bytes exceeds 2^48 (256 TiB), or `memory-limit` for a value the program
    uses (`pcc run` passes its memory limit, so that a program that cannot
    fit stops before it runs, at the op that needs too much).

    With `lowered`, it checks the LLVM dialect module that goes to the JIT:
    the only external functions are the pcc runtime's entry points (its
    `_mlir_memref_to_llvm_*` allocator among them) and a fixed list of libm
    functions (`erff`, `tan`, ...), and there is no inline assembly and no
    external global. The cpu pipeline runs it first and last.
  }];
  let options = [
    Option<"lowered", "lowered", "bool", /*default=*/"false",
           "Check the lowered LLVM dialect module instead of the input">,
    Option<"memoryLimit", "memory-limit", "int64_t", /*default=*/"0",
           "Reject values of more bytes than this (0: no limit)">,
  ];
}

def PCCCopyToBufferSources : Pass<"pcc-copy-to-buffer-sources"> {
  let summary = "Give each bufferization.to_buffer a buffer of its own";
  let description = [{
    MLIR leaves a write into the buffer of `bufferization.to_buffer`
    undefined, and folds `to_buffer(to_tensor(%m))` into `%m`: a program
    that wrote into the buffer of a tensor that a pmap captured (which pcc
    passes to the device function as its caller's buffer) changed that
    tensor for the rest of the program, or wrote into a constant's
    read-only memory and crashed. pcc defines the write: `to_buffer`
    reads its tensor into a buffer of its own, which the program may write
    and read back with `bufferization.to_tensor`; the tensor itself never
    changes. The pass, run on the program as written, gives each
    `to_buffer` of a ranked tensor a copy of it (`read_only` too: nothing
    checks that the buffer is not written).

    ```mlir
    %m = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32>
    // becomes
    %copy = bufferization.alloc_tensor() copy(%t) : tensor<4xf32>
    %m = bufferization.to_buffer %copy : tensor<4xf32> to memref<4xf32>
    ```
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect"];
}

def PCCEntryABI : Pass<"pcc-entry-abi", "mlir::ModuleOp"> {
  let summary = "Give the entry function a C ABI of memref arguments and out-parameters";
  let description = [{
    Adds `@_pcc_entry`, the function the `pcc` driver calls, next to the
    entry function (`entry`, default `@main`). Every argument of the entry
    becomes a memref argument (a rank-0 memref for a scalar), and every
    result a memref out-parameter that the caller allocates, so the driver
    passes each value as a pointer to a memref descriptor through
    `_mlir_ciface__pcc_entry` and owns all buffers. The entry function itself
    becomes private.

    ```mlir
    // before
    func.func @main(%a: tensor<4x3xf32>, %s: f32) -> tensor<4xf32>
    // after
    func.func private @main(%a: tensor<4x3xf32>, %s: f32) -> tensor<4xf32>
    func.func @_pcc_entry(%a: memref<4x3xf32>, %s: memref<f32>,
                          %r0: memref<4xf32>)
        attributes {llvm.emit_c_interface} {
      // to_tensor / memref.load the arguments, call @main,
      // materialize_in_destination / memref.store the results
    }
    ```
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "The entry function to wrap">,
  ];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::func::FuncDialect"];
}

def PCCEntryResultsInPlace : Pass<"pcc-entry-results-in-place",
                                  "mlir::ModuleOp"> {
  let summary = "Write the entry's results straight into the caller's buffers";
  let description = [{
    After bufferization and `buffer-results-to-out-params`, `@_pcc_entry`
    (see `pcc-entry-abi`) typically allocates a buffer, has it filled (a
    call of the entry, a pmap launch) and copies it into a result
    out-parameter. When that copy is the out-parameter's only use, the
    buffer is replaced by the out-parameter: the copy, which runs on one
    thread, and the allocation disappear. This is sound because the caller
    passes distinct buffers for every argument and result.

    ```mlir
    // before
    %alloc = memref.alloc() : memref<4xf32>
    call @main(%a, %alloc) : (memref<4x3xf32>, memref<4xf32>) -> ()
    memref.copy %alloc, %r0 : memref<4xf32> to memref<4xf32>
    // after
    call @main(%a, %r0) : (memref<4x3xf32>, memref<4xf32>) -> ()
    ```

    A pmap launch that writes an out-parameter, passed down to it through
    calls and read by nothing else, is then marked in its
    `returned_outputs`: on several processes, the other processes' slices
    of a uniform output are filled when the host takes the results
    (`pcc_complete_outputs`), not at every run.
  }];
}

def PCCDefineIntegerArithmetic : Pass<"pcc-define-integer-arithmetic"> {
  let summary = "Give integer division by zero and overflow, shifts by "
                "the width or more, and float-to-integer casts out of range "
                "defined results, and round integers to bf16 once";
  let description = [{
    An integer division by zero, or `INT_MIN / -1`, is undefined behaviour
    in LLVM: on x86 it raises SIGFPE, on a GPU it gives whatever the
    hardware gives. So is a shift by the operand's width or more (MLIR
    makes it poison; x86 shifts by the amount modulo the width). pcc
    defines them as XLA (and NumPy, for shifts) does, alike on every
    backend:

    | op | `y == 0` | `x == INT_MIN, y == -1` |
    |---|---|---|
    | `divsi`, `ceildivsi`, `floordivsi` | -1 | `INT_MIN` |
    | `remsi` | `x` | 0 |
    | `divui`, `ceildivui` | all ones (-1) | |
    | `remui` | `x` | |

    | op | amount `>= width` (unsigned: negative ones too) |
    |---|---|
    | `shli`, `shrui` | 0 |
    | `shrsi` | the sign in every bit (-1 or 0) |

    A float-to-integer cast of NaN, or of a value whose integer part the
    type cannot hold, is poison in LLVM: x86 gives `INT_MIN` or wraps,
    vector code and GPUs other values, so results changed with the backend
    and with a tensor's size. pcc saturates, as XLA does (and LLVM's
    `fptosi.sat`): `fptosi` and `fptoui` give the type's nearest end
    (`fptosi` of 3e9 to i32 is `INT_MAX`, of -inf `INT_MIN`; `fptoui` of
    -5.0 is 0), and NaN gives 0; the cast itself converts 0 instead.

    Each division whose divisor is not a constant that needs no guard
    divides by 1 in those cases instead and selects the defined result
    (each shift likewise shifts by 0, or by width - 1 for `shrsi`):

    ```mlir
    %q = arith.divsi %x, %y : i32
    // becomes
    %bad = arith.ori %is_zero, %overflows : i1     // y == 0, or x == INT_MIN and y == -1
    %d = arith.select %bad, %c1, %y : i32
    %q0 = arith.divsi %x, %d : i32                  // x when y is replaced
    %q = arith.select %is_zero, %c-1, %q0 : i32
    ```

    `floordivsi` is then expanded here, as the quotient toward zero less one
    where the remainder is not 0 and has the divisor's opposite sign:
    upstream's expansion subtracted 2^64 - 1 instead of 1 from integers
    wider than 64 bits. (Before the canonicalizer, whose folding of
    `floordivsi` on constant tensors gave `x / 0 = x`.)

    And a conversion of an integer of 25 to 64 bits to `bf16` (`sitofp`,
    `uitofp`) rounds once: LLVM converts through f32, rounding twice. The
    integer is rounded to odd at 53 bits (toward zero, its lowest bit set
    where bits were lost), which f64 holds exactly, and that is rounded to
    `bf16`.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect"];
}

def PCCExpandMath : Pass<"pcc-expand-math"> {
  let summary = "Expand the math ops that libm and LLVM take in no form";
  let description = [{
    `convert-math-to-libm`, `convert-math-to-llvm` and LLVM's code
    generation leave some ops of the math dialect without a lowering:
    `math.rsqrt` (libm has no `rsqrtf`), `math.fpowi` and `math.copysign`
    (their intrinsics can become calls of compiler-rt, which the JIT does not
    provide), `math.isinf` and `math.isnormal` (no lowering upstream), and
    `math.expm1` (upstream's lowering computes `exp(x) - 1`, which rounds
    every |x| below the type's precision to 0). This
    pass expands them into what the rest of the pipeline takes, before the
    math ops are lowered:

    - `math.rsqrt %x` becomes `1 / math.sqrt %x` (correctly rounded square
      root, then division, as NumPy computes `1 / np.sqrt(x)`);
    - `math.fpowi %x, %n` becomes multiplications for a constant `%n`, else
      `math.powf %x, sitofp %n` (NumPy's `x ** n` on floats);
    - `math.copysign %x, %y` becomes bit operations: the magnitude's bits of
      `%x` with the sign bit of `%y`, for every float type;
    - `math.isinf %x` becomes `|x| == inf`, and `math.isnormal %x`
      `smallest normal <= |x| < inf` (both false for NaN);
    - `math.expm1 %x` becomes Kahan's formula from `exp` and `log`, on
      every backend: with `u = exp(x)`, `x` where `u` rounds to 1, -1 where
      `u - 1` does, `u` where it overflows, else `(u - 1) * (x / log(u))`
      (within a few units in the last place of NumPy's `expm1`, up to
      where it overflows).
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect"];
}

def PCCDecomposeLinalgOps : Pass<"pcc-decompose-linalg-ops"> {
  let summary = "Decompose the linalg ops that do not bufferize, and give "
                "reductions over nothing their inits";
  let description = [{
    One-Shot Bufferize has no model of a few linalg ops. Upstream decomposes
    each into ops that bufferize, and this pass applies its decompositions:

    - `linalg.pack` (`linalg::lowerPack`, as `transform.structured.lower_pack`
      applies it) into a `tensor.pad` (with its padding value) to whole
      tiles, a `tensor.expand_shape` that splits each tiled dimension into
      (tiles, tile), and a `linalg.transpose` that puts the tiles innermost
      in the requested order;
    - `linalg.unpack` into the inverse `linalg.transpose`, a
      `tensor.collapse_shape`, and a `tensor.extract_slice` that drops the
      padding;
    - `linalg.softmax` (its `AggregatedOpInterface`) into `linalg.generic`
      ops: the maximum along the dimension, the exponentials of the
      differences from it, their sum, and the quotients;
    - `linalg.winograd_filter_transform`, `linalg.winograd_input_transform`
      and `linalg.winograd_output_transform` into `scf.for` loops over
      tiles whose bodies multiply each tile by the transform's constant
      matrices (`linalg.matmul`).

    It also gives each structured op whose reduction loops run zero times
    its inits as results. Bufferization copies an init into the result's
    buffer only where the payload reads it, so a payload that ignores its
    init (`linalg.yield %in`, the last element) would return uninitialized
    memory where nothing was reduced. A statically empty reduction is
    replaced by its inits; a dynamically sized one, whose payload ignores an
    init, by an `scf.if` that chooses between the inits and the op at run
    time.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect"];
}

def PCCLowerNestedLinalgOps : Pass<"pcc-lower-nested-linalg-ops",
                                   "mlir::func::FuncOp"> {
  let summary = "Lower each linalg op inside another's body to scf.for loops";
  let description = [{
    Right after bufferization: a linalg op inside another linalg op's body
    (a `linalg.map` computing a tensor of the body's own, a copy, a fill, a
    `tensor.generate` that bufferized to a `linalg.map`) becomes `scf.for`
    loops in that body (`linalg::linalgOpToLoops`), which is how it runs
    anyway: within one element of the enclosing op.

    Left a linalg op, its `linalg.index` ops look to CSE exactly like the
    enclosing op's, which dominate them: CSE replaced the inner op's index
    by the outer one's, and `sum_i (10 * i + j)` over the inner `i` came
    out `sum_i (10 * j + j)`. As loops, each index is the induction
    variable of its own loop.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect"];
}

def PCCPrivatizeBodyWrites : Pass<"pcc-privatize-body-writes",
                                   "mlir::func::FuncOp"> {
  let summary = "Give each write in a linalg op's body into a tensor from "
                "outside it a copy of its own";
  let description = [{
    A linalg op's body (and a `tensor.generate`'s) runs once per element,
    but One-Shot Bufferize analyses it as code that runs once, and linalg
    declares no repetitive region. A write in the body into a tensor from
    outside it (`tensor.insert`, `tensor.insert_slice`, a linalg op's init,
    an `scf.for`'s iter_args, directly or through a view such as
    `tensor.extract_slice`) was made in place where nothing after the body
    read the tensor, and every later element saw the earlier elements'
    writes: element j of `n = t with n[j] = 100; n[0]` came out 100 for
    every j. The pass, run just before bufferization, gives each such write
    a copy made in the body (`bufferization.alloc_tensor() copy(...)`), as
    value semantics mean, or only a buffer where the write needs none of
    the tensor's contents (an empty tensor's, an init that the linalg op's
    payload never reads); reads (`tensor.extract`, slices only read) copy
    nothing. A `tensor.pad`'s padding region runs once per padded element
    too.

    ```mlir
    %n = tensor.insert %v into %t[%j] : tensor<4xf32>   // %t from outside
    // becomes
    %copy = bufferization.alloc_tensor() copy(%t) : tensor<4xf32>
    %n = tensor.insert %v into %copy[%j] : tensor<4xf32>
    ```
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect"];
}

def PCCFuseElementwiseOps : Pass<"pcc-fuse-elementwise-ops",
                                  "mlir::func::FuncOp"> {
  let summary = "Compute chains of elementwise ops in one loop, into their "
                "result";
  let description = [{
    `convert-elementwise-to-linalg` makes each elementwise op on tensors a
    `linalg.generic` of its own, computed into its first operand
    (`%y = arith.addf %a, %b` writes over `%a`). Bufferized, that is a loop
    per op, and a copy of `%a` wherever `%a` may not be overwritten (a
    pmap's input, a value read again later), then a copy of the result into
    the pmap's result: `y = x + x` on 16 MiB per device took 5x the time of
    a copy. This pass, in order:

    - gives every linalg op an empty init (`tensor.empty`) where its payload
      never reads the init, which `eliminate-empty-tensors` then replaces
      by the pmap's result slice (or `pcc-reuse-loop-buffers` by the loop's
      value);
    - fuses each generic into the generic that uses it (upstream's
      `linalg::fuseElementwiseOps`), so that a chain is one loop and no
      intermediate is stored and read back: only into its one user (a value
      read twice would be computed twice), in the same block (not into a
      loop, where it would run every step), where the user reads each of its
      elements once (not a broadcast, which would compute each again for
      every copy), if its payload has no memory effects (it then runs
      where its user does), and if it has one result, which the user's
      payload reads (a value never read would be dead once fused, and the
      index checks that run on the loops later with it);
    - reads splat constant operands as scalars (no buffer of copies of one
      number);
    - makes a generic whose result goes nowhere in particular (not into a
      destination) compute in place of an input that dies there: a buffer
      that a linalg op or a runtime call wrote, that nothing else reads, and
      that the generic reads element by element where it writes them (a
      chain of elementwise ops between collectives allocates nothing).

    Each element is computed by the same scalar ops in the same order as
    before, so results are bitwise the same (no multiply and add is
    contracted: pcc's arith ops carry no `contract` flag, and PTX gets
    `mul.rn`/`add.rn`).

    ```mlir
    %m = arith.mulf %a, %b : tensor<4xf32>
    %s = arith.addf %m, %c : tensor<4xf32>
    // after convert-elementwise-to-linalg and this pass
    %e = tensor.empty() : tensor<4xf32>
    %s = linalg.generic {...} ins(%a, %b, %c : ...) outs(%e : tensor<4xf32>) {
    ^bb0(%x: f32, %y: f32, %z: f32, %out: f32):
      %p = arith.mulf %x, %y : f32
      %q = arith.addf %p, %z : f32
      linalg.yield %q : f32
    } -> tensor<4xf32>
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def PCCRenameUserSymbols : Pass<"pcc-rename-user-symbols", "mlir::ModuleOp"> {
  let summary = "Give the program's own symbols names no library can have";
  let description = [{
    Generated code calls functions by name: libm's (`expf`, from
    `convert-math-to-libm`), libc's (`memcpy` and `memset`, which LLVM calls
    for copies), compiler-rt's. A program that defines a function or global
    of such a name would receive those calls (its `@expf` would be what
    `math.exp` computes), and in an executable of `pcc compile` would replace
    the library's for the runtime too. This pass prefixes every function and
    global the program defined with `u.`, which no C identifier can start
    with, and updates every use. It runs after the passes whose diagnostics
    name the program's functions, and before any lowering that calls a
    library. (Device functions and `@_pcc_entry` are pcc's, and keep their
    names: `--emit=llvm` shows `@u.main` beside `@main_pmap`.)
  }];
}

def PCCReuseLoopBuffers : Pass<"pcc-reuse-loop-buffers",
                                "mlir::func::FuncOp"> {
  let summary = "Compute a loop's next value into its current one";
  let description = [{
    A value that an `scf.for` body yields is often computed into a fresh
    `tensor.empty` (a `linalg.generic` with an empty `outs`, a
    `linalg.reduce` into a `linalg.fill` of one). Bufferization then
    allocates a buffer every step, and the previous step's is freed. This
    pass makes the op that writes such an empty tensor write into the
    loop's value for that position instead (following `outs` through the
    linalg ops and runtime calls that produce the yielded value), which is
    always correct, since an empty tensor's contents are unspecified and
    the op does not read them. One-Shot Bufferize then computes in place of
    the loop's buffer when nothing reads the old value afterwards (no
    allocation per step), and in a fresh buffer, as before, otherwise.

    ```mlir
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%a = %x) -> tensor<4xf32> {
      %e = tensor.empty() : tensor<4xf32>
      %m = linalg.generic ... ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) ...
      scf.yield %m : tensor<4xf32>
    }
    // becomes
      %m = linalg.generic ... ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) ...
    ```
  }];
}

def PCCFoldTransposesIntoMatmuls : Pass<"pcc-fold-transposes-into-matmuls",
                                        "mlir::func::FuncOp"> {
  let summary = "Let matmuls read transposed operands in place";
  let description = [{
    `x.T @ y`, as a program writes it, is a `linalg.transpose` feeding a
    `linalg.matmul`; bufferized, the transpose is a copy of `x`. A matmul's
    indexing maps can read `x` transposed where it lies instead (and the
    cpu backend's GEMM then reads it in place: `pcc-matmul-to-runtime`).
    This pass swaps the map of each matmul operand that is a 2-D
    `linalg.transpose`, reads the transpose's input, and erases the
    transpose once nothing else reads it. Nothing is computed differently:
    the same products are summed in the same order.

    ```mlir
    %xt = linalg.transpose ins(%x : tensor<8x3xf32>)
            outs(%e : tensor<3x8xf32>) permutation = [1, 0]
    %g = linalg.matmul ins(%xt, %err : tensor<3x8xf32>, tensor<8x2xf32>)
                       outs(%z : tensor<3x2xf32>) -> tensor<3x2xf32>
    // becomes
    %g = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
                                        affine_map<(d0, d1, d2) -> (d2, d1)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1)>]
           ins(%x, %err : tensor<8x3xf32>, tensor<8x2xf32>)
           outs(%z : tensor<3x2xf32>) -> tensor<3x2xf32>
    ```
  }];
}

def PCCCloneTensorConstants : Pass<"pcc-clone-tensor-constants",
                                    "mlir::func::FuncOp"> {
  let summary = "Give each use of a tensor constant a constant of its own, "
                "and each op computing into a filled tensor a fill of its own";
  let description = [{
    Canonicalization leaves one `arith.constant` per distinct tensor value,
    which a program may then read in hundreds of places (a learning rate, a
    scale, zeros). One-Shot Bufferize's analysis costs time in proportion to
    the uses of each value it looks at, per op, so one constant read by K
    ops made bufferizing a function grow with K² (a pmap body of 1600
    collectives sharing one constant: 0.7 s of 3 s). This pass clones the
    constant before each of its users but the first, right before
    bufferization; the copies still bufferize to one global, so nothing is
    added at run time.

    ```mlir
    %c = arith.constant dense<2.0> : tensor<8xf32>
    %a = arith.mulf %x, %c : tensor<8xf32>
    %b = arith.mulf %a, %c : tensor<8xf32>
    // becomes
    %c = arith.constant dense<2.0> : tensor<8xf32>
    %a = arith.mulf %x, %c : tensor<8xf32>
    %c_0 = arith.constant dense<2.0> : tensor<8xf32>
    %b = arith.mulf %a, %c_0 : tensor<8xf32>
    ```

    A tensor filled with a constant (`linalg.fill` of a `tensor.empty`) is
    a constant too. Where several ops compute into it (the zeros that
    matmuls accumulate into, shared once CSE has merged their fills),
    bufferization would fill one buffer and copy it for each of them, a
    read and a write where a fill only writes: each such op gets a fill of
    its own instead (and `pcc-matmul-to-runtime` then drops it). Ops that
    only read the filled tensor keep sharing it.
  }];
}

def PCCCopyRepeatedResults : Pass<"pcc-copy-repeated-results",
                                   "mlir::func::FuncOp"> {
  let summary = "Give each buffer a function returns a position of its own";
  let description = [{
    A function may return one value at several positions
    (`return %r, %r`). After bufferization these are one buffer, which
    `buffer-results-to-out-params` would make the caller's buffer for the
    first position and then still copy into the second, after erasing the
    allocation it copies from. This pass, run just before it, copies the
    buffer for each repeated position into a new allocation, so that each
    out-parameter is filled on its own.

    ```mlir
    return %alloc, %alloc : memref<2x4xf32>, memref<2x4xf32>
    // becomes
    %copy = memref.alloc() : memref<2x4xf32>
    memref.copy %alloc, %copy : memref<2x4xf32> to memref<2x4xf32>
    return %alloc, %copy : memref<2x4xf32>, memref<2x4xf32>
    ```
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

#endif // PCC_TRANSFORMS_PASSES_TD
