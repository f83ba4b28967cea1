"""Writes the bad inputs of bad-input.test into the current directory."""

import numpy as np

with open("ok.mlir", "w") as f:
    f.write("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
            "  return %a : tensor<4xf32>\n}\n")
with open("truncated.mlir", "w") as f:
    f.write("func.func @main( -> {")
with open("non-utf8.mlir", "wb") as f:
    f.write(b"\xff\xfe func.func @main() {\n  return\n}\n")
open("empty.mlir", "w").close()
with open("unknown-dialect.mlir", "w") as f:
    f.write('func.func @main() {\n  "foo.bar"() : () -> ()\n  return\n}\n')
with open("unknown-op.mlir", "w") as f:
    f.write("func.func @main() {\n  arith.frobnicate\n  return\n}\n")

np.save("good.npy", np.ones(4, np.float32))
good = open("good.npy", "rb").read()
open("truncated.npy", "wb").write(good[:-3])
open("magic.npy", "wb").write(b"XNUMPY" + good[6:])
open("version.npy", "wb").write(good[:6] + bytes([9, 0]) + good[8:])
np.save("fortran.npy", np.asfortranarray(np.ones((2, 2), np.float32)))
np.save("big-endian.npy", np.ones(4, ">f4"))
np.save("object.npy", np.array([1, "a", None], dtype=object),
        allow_pickle=True)
np.save("shape.npy", np.ones(5, np.float32))
np.save("dtype.npy", np.ones(4, np.float64))
# A descr and a key holding terminal control bytes (same header length).
open("control-descr.npy", "wb").write(good.replace(b"'<f4'", b"'\x1b[2J'"))
extra = b"'bell\x07\n': 0, }"
open("control-key.npy", "wb").write(
    good.replace(b"}" + b" " * (len(extra) - 1), extra, 1))

# Nesting: brackets of a literal, regions, types; and the deepest nesting
# that is allowed, which compiles and runs.
def nested_ifs(depth):
    return ("func.func @main() -> tensor<2xi32> {\n"
            '  %r = spmd.pmap "i" size 2 () -> (tensor<2xi32>) {\n'
            "    %t = arith.constant true\n"
            "    %c = arith.constant 1 : i32\n"
            + "    scf.if %t {\n" * depth + "    }\n" * depth +
            '    %s = spmd.psum %c over "i" : i32\n'
            "    spmd.yield %s : i32\n  }\n  return %r : tensor<2xi32>\n}\n")
with open("deep-brackets.mlir", "w") as f:
    f.write("func.func @main() -> tensor<1xf32> {\n  %c = arith.constant dense<"
            + "[" * 20000 + "1.0" + "]" * 20000 + "> : tensor<1xf32>\n"
            "  return %c : tensor<1xf32>\n}\n")
with open("deep-regions.mlir", "w") as f:
    f.write(nested_ifs(5000))
with open("deep-types.mlir", "w") as f:
    f.write("func.func @main(%a: " + "tuple<" * 200000 + "i32" + ">" * 200000
            + ") {\n  return\n}\n")
with open("deepest-regions.mlir", "w") as f:
    f.write(nested_ifs(998))

# As many devices as vm.max_map_count: their stacks need twice as many
# mappings as Linux allows.
with open("/proc/sys/vm/max_map_count") as f:
    devices = int(f.read())
with open("too-many-devices.mlir", "w") as f:
    f.write(f"func.func @main() -> tensor<{devices}xi32> {{\n"
            f'  %r = spmd.pmap "i" size {devices} () -> '
            f"(tensor<{devices}xi32>) {{\n"
            "    %c = arith.constant 1 : i32\n"
            "    spmd.yield %c : i32\n  }\n"
            f"  return %r : tensor<{devices}xi32>\n}}\n")
