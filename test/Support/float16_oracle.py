#!/usr/bin/python3
"""Checks pcc's f16/bf16 <-> f32 conversions (include/pcc/Support/Float16.h)
against NumPy, through the `float16-convert` driver.

- Widening: every one of the 65536 f16 patterns, compared bit for bit with
  NumPy's astype(float32) (NaN payloads included; NumPy keeps them), and every
  one of the 65536 bf16 patterns, compared with the value decoded with
  np.ldexp (NaNs: sign and payload in the top 16 bits).
- Narrowing: for every finite 16-bit value of both formats, the value itself,
  the midpoints to its neighbours, and one binary32 ulp on either side of
  each, with both signs; every binary32 pattern within 1024 ulps of the
  rounding boundaries (overflow, the subnormal range, zero); infinities,
  binary32 subnormals and NaNs; and four million random binary32 patterns
  (fixed seed), half of them with exponents from -31 to 18, around the
  range of f16. f32 -> f16 is compared with NumPy's astype(float16) bit for
  bit, except that a signaling NaN only has to become a quiet NaN of the
  same sign (NumPy keeps it signaling; see Float16.h). NumPy has no
  bfloat16, so f32 -> bf16 is compared with a reference computed in float64
  with NumPy: the nearest value of the table of all finite bfloat16 values,
  ties to the even pattern -- the same reference matches NumPy's f16
  rounding on every input here, which the script checks first. NaNs must
  stay NaNs of the same sign, quiet. The runtime's __truncsfbf2 is checked
  the same way, and its __truncdfbf2 on binary64 values: the midpoints
  between bfloat16 values and one binary64 ulp either side (where rounding
  through binary32 first would land on the midpoint), the boundaries, and
  a million random patterns.

Exits 1 with the first mismatches in hex. Needs NumPy: run it with
/usr/bin/python3 (Debian's NumPy 1.24).
"""

import argparse
import os
import subprocess
import sys

try:
    import numpy as np
except ImportError:
    sys.exit("float16_oracle.py: this script needs NumPy; run it with "
             "/usr/bin/python3")

U16, U32 = np.uint16, np.uint32
SEED = 20240611


def run(driver, workdir, mode, values, out_dtype):
    """The driver's conversion of `values` (uint16 or uint32) in `mode`."""
    src = os.path.join(workdir, mode + ".in")
    dst = os.path.join(workdir, mode + ".out")
    values.astype(values.dtype.newbyteorder("<")).tofile(src)
    subprocess.run([driver, mode, src, dst], check=True)
    result = np.fromfile(dst, dtype=np.dtype(out_dtype).newbyteorder("<"))
    if result.shape != values.shape:
        sys.exit(f"float16_oracle.py: {mode}: {result.size} results for "
                 f"{values.size} inputs")
    return result.astype(out_dtype)


def fail_report(name, bad, inputs, got, want, win, wout):
    print(f"FAIL {name}: {bad.size} of {inputs.size} inputs differ")
    for i in bad[:20]:
        print(f"  input 0x{int(inputs[i]):0{win}x}: got 0x{int(got[i]):0{wout}x}"
              f", want 0x{int(want[i]):0{wout}x}")
    return 1


# Tables of the finite non-negative values of each 16-bit format, by
# pattern, in float64, with one more entry: the value the next pattern
# (infinity) would have if the exponent range went on (2^16, 2^128).
def f16_table():
    t = np.arange(0x7c00, dtype=U16).view(np.float16).astype(np.float64)
    return np.append(t, 65536.0)


def bf16_decode(k):
    """The values of non-negative finite bfloat16 patterns k, decoded with
    np.ldexp from the format's definition (not by shifting bits)."""
    k = k.astype(np.int64)
    e, m = k >> 7, k & 127
    return np.where(e == 0, np.ldexp(m.astype(np.float64), -133),
                    np.ldexp((128 + m).astype(np.float64), e - 134))


def bf16_table():
    t = bf16_decode(np.arange(0x7f80))
    return np.append(t, 2.0 ** 128)


def round_ref(bits, table):
    """Round-to-nearest-even of the binary32 (or, as uint64, binary64)
    patterns `bits` (no NaNs) into the format whose finite non-negative
    values are table[:-1]; the pattern of infinity is len(table) - 1."""
    wide = np.float64 if bits.dtype == np.uint64 else np.float32
    x = bits.view(wide).astype(np.float64)
    a = np.abs(x)
    inf = len(table) - 1
    k = np.searchsorted(table, a, side="right") - 1  # largest value <= a
    k = np.minimum(k, inf)
    kk = np.minimum(k + 1, inf)
    with np.errstate(invalid="ignore"):
        down = a - table[k]
        up = table[kk] - a
        go_up = (k < inf) & ((up < down) | ((up == down) & (k % 2 == 1)))
    k = np.where(go_up, k + 1, k)
    sign = np.where(np.signbit(x), 0x8000, 0)
    return (k | sign).astype(U16)


def neighbourhood_inputs(table):
    """For each finite value of a format: the value, the midpoint to the
    next one and one binary32 ulp on either side of both, with both signs."""
    v = table[:-1]
    mid = (table[:-1] + table[1:]) / 2  # exact in float64 and in binary32
    out = []
    for x in (v, mid):
        f = x.astype(np.float32)
        assert np.array_equal(f.astype(np.float64), x), "inexact binary32"
        out += [f, np.nextafter(f, np.float32(np.inf)),
                np.nextafter(f, np.float32(0))]
    f = np.concatenate(out)
    return np.concatenate([f, -f]).view(U32)


def around(centres, radius=1024):
    centres = np.array(centres, dtype=np.int64)
    d = np.arange(-radius, radius + 1, dtype=np.int64)
    b = (centres[:, None] + d[None, :]).ravel()
    b = b[(b >= 0) & (b <= 0x7f800000)]
    return np.concatenate([b, b | 0x80000000]).astype(U32)


def f32_inputs(f16t, bf16t):
    rng = np.random.default_rng(SEED)
    uniform = rng.integers(0, 2**32, size=2_000_000, dtype=np.uint64)
    # Exponents 96..145: every f16 value and rounding case, and some beyond.
    exp = rng.integers(96, 146, size=2_000_000, dtype=np.uint64)
    mant = rng.integers(0, 2**23, size=2_000_000, dtype=np.uint64)
    sign = rng.integers(0, 2, size=2_000_000, dtype=np.uint64) << 31
    in_range = sign | (exp << 23) | mant
    boundaries = around([
        0x477fe000, 0x477ff000, 0x47800000,  # 65504, 65520, 65536
        0x387fc000, 0x38800000,  # largest subnormal f16, smallest normal
        0x33000000, 0x33800000, 0x33c00000, 0x34000000,  # 2^-25 .. 2^-23
        0x00000000, 0x00800000,  # zero, smallest normal binary32
        0x007f8000, 0x00008000, 0x00010000,  # bf16 subnormal boundaries
        0x7f7f0000, 0x7f7f8000, 0x7f7fffff,  # bf16 and binary32 overflow
        0x3f800000, 0x3f808000, 0x3f818000,  # 1, bf16 ties around it
    ])
    nan_payloads = np.array([
        0x00000001, 0x00001fff, 0x00002000, 0x0000ffff, 0x00010000,
        0x00200000, 0x003fffff, 0x00400000, 0x00400001, 0x007fffff,
        0x00600000, 0x00402000, 0x00000100], dtype=np.uint64)
    nans = np.concatenate([
        0x7f800000 | nan_payloads,
        0x7f800000 | rng.integers(1, 2**23, size=20000, dtype=np.uint64)])
    nans = np.concatenate([nans, nans | 0x80000000])
    subnormals = np.concatenate([
        np.arange(0, 4096, dtype=np.uint64),
        rng.integers(0, 2**23, size=20000, dtype=np.uint64)])
    specials = np.array([0x7f800000, 0xff800000, 0x7f7fffff, 0xff7fffff],
                        dtype=np.uint64)
    parts = [uniform, in_range, nans, subnormals, subnormals | 0x80000000,
             specials, boundaries.astype(np.uint64),
             neighbourhood_inputs(f16t).astype(np.uint64),
             neighbourhood_inputs(bf16t).astype(np.uint64)]
    return np.unique(np.concatenate(parts)).astype(U32)


def f64_inputs(bf16t):
    """binary64 patterns around every bfloat16 value and midpoint, the
    boundaries, and random ones (no NaNs)."""
    rng = np.random.default_rng(SEED + 64)
    mid = (bf16t[:-1] + bf16t[1:]) / 2
    out = []
    for x in (bf16t[:-1], mid):
        out += [x, np.nextafter(x, np.inf), np.nextafter(x, 0)]
    special = np.array([np.inf, 0.0, 5e-324, 2.0 ** -1022, 2.0 ** -149,
                        2.0 ** -150, 2.0 ** -134, 3.4028234663852886e38,
                        3.5e38, 1e300], dtype=np.float64)
    f = np.concatenate(out + [special])
    bits = np.concatenate([f, -f]).view(np.uint64)
    random = rng.integers(0, 2 ** 64, size=1 << 20, dtype=np.uint64)
    random = random[(random & 0x7ff0000000000000) != 0x7ff0000000000000]
    return np.concatenate([bits, random])


def is_nan32(b):
    return (b & 0x7fffffff) > 0x7f800000


def check_narrowing_nans(name, inputs, got, quiet_bit, exp_mask):
    """NaN inputs must give quiet NaNs of the same sign."""
    nan = is_nan32(inputs)
    ok = (((got & exp_mask) == exp_mask) & ((got & quiet_bit) != 0)
          & ((got >> 15) == (inputs >> 31)))
    bad = np.flatnonzero(nan & ~ok)
    if bad.size:
        print(f"FAIL {name}: {bad.size} NaN inputs do not give a quiet NaN "
              "of the same sign")
        for i in bad[:20]:
            print(f"  input 0x{int(inputs[i]):08x}: got 0x{int(got[i]):04x}")
        return 1
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--driver", required=True,
                        help="the float16-convert executable")
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    failures = 0
    every16 = np.arange(0x10000, dtype=np.uint32).astype(U16)

    # f16 -> f32: NumPy, bit for bit (it keeps NaN payloads).
    got = run(args.driver, args.workdir, "f16-f32", every16, U32)
    want = every16.view(np.float16).astype(np.float32).view(U32)
    bad = np.flatnonzero(got != want)
    if bad.size:
        failures += fail_report("f16 -> f32", bad, every16, got, want, 4, 8)

    # bf16 -> f32: the decoded value; NaNs keep sign and payload.
    got = run(args.driver, args.workdir, "bf16-f32", every16, U32)
    mag = every16 & 0x7fff
    finite = mag < 0x7f80
    val = bf16_decode(np.where(finite, mag, 0))
    val = np.where(mag == 0x7f80, np.inf, val)
    val = np.where(every16 & 0x8000, -val, val).astype(np.float32).view(U32)
    want = np.where(mag > 0x7f80, every16.astype(U32) << 16, val)
    bad = np.flatnonzero(got != want)
    if bad.size:
        failures += fail_report("bf16 -> f32", bad, every16, got, want, 4, 8)

    f16t, bf16t = f16_table(), bf16_table()
    inputs = f32_inputs(f16t, bf16t)
    nan = is_nan32(inputs)
    numbers = inputs[~nan]

    # The float64 reference agrees with NumPy's own f16 rounding.
    with np.errstate(over="ignore"):
        numpy_f16 = inputs.view(np.float32).astype(np.float16).view(U16)
    bad = np.flatnonzero(round_ref(numbers, f16t) != numpy_f16[~nan])
    if bad.size:
        failures += fail_report("reference vs NumPy (f32 -> f16)", bad,
                                numbers, round_ref(numbers, f16t),
                                numpy_f16[~nan], 8, 4)

    # f32 -> f16: NumPy, bit for bit, but for signaling NaNs.
    got = run(args.driver, args.workdir, "f32-f16", inputs, U16)
    quiet_in = nan & ((inputs & 0x00400000) != 0)
    compare = ~nan | quiet_in
    bad = np.flatnonzero(compare & (got != numpy_f16))
    if bad.size:
        failures += fail_report("f32 -> f16", bad, inputs, got, numpy_f16,
                                8, 4)
    failures += check_narrowing_nans("f32 -> f16", inputs, got, 0x0200,
                                     0x7c00)

    # f32 -> bf16 (and the runtime's __truncsfbf2): the reference.
    want = np.zeros(inputs.shape, dtype=U16)
    want[~nan] = round_ref(numbers, bf16t)
    for mode in ("f32-bf16", "f32-bf16-truncsfbf2"):
        got = run(args.driver, args.workdir, mode, inputs, U16)
        bad = np.flatnonzero(~nan & (got != want))
        if bad.size:
            failures += fail_report(mode, bad, inputs, got, want, 8, 4)
        failures += check_narrowing_nans(mode, inputs, got, 0x0040, 0x7f80)

    # f64 -> bf16 (__truncdfbf2): rounded once; NaNs stay NaNs of the same
    # sign, quiet.
    wide = f64_inputs(bf16t)
    got = run(args.driver, args.workdir, "f64-bf16-truncdfbf2", wide, U16)
    want = round_ref(wide, bf16t)
    bad = np.flatnonzero(got != want)
    if bad.size:
        failures += fail_report("f64 -> bf16", bad, wide, got, want, 16, 4)
    nans = np.array([0x7ff8000000000000, 0xfff0000000000001,
                     0x7ff4000000000000], dtype=np.uint64)
    got = run(args.driver, args.workdir, "f64-bf16-truncdfbf2", nans, U16)
    want_nans = np.array([0x7fc0, 0xffc0, 0x7fe0], dtype=U16)
    if not np.array_equal(got, want_nans):
        failures += fail_report("f64 NaN -> bf16", np.arange(3), nans, got,
                                want_nans, 16, 4)

    if failures:
        return 1
    print(f"ok: 65536 f16 and 65536 bf16 patterns widened, {inputs.size} "
          f"binary32 patterns ({int(nan.sum())} NaNs) narrowed to both, "
          f"{wide.size} binary64 patterns to bfloat16")
    return 0


if __name__ == "__main__":
    sys.exit(main())
