"""Inputs for bfloat16-conversions.test and the bfloat16 bits each must give,
rounded once to nearest even from the exact value (Python fractions, not
NumPy, which has no bfloat16).

  bfloat16_oracle.py write DIR   writes DIR/{f32,f64,i32,i64}.npy
  bfloat16_oracle.py check DIR   compares DIR/result<k>.npy (int16 bits)
"""

import struct
import sys
from fractions import Fraction

import numpy as np


def bf16_bits(q):
    """The bfloat16 pattern nearest to the rational q (ties to even)."""
    sign = 0x8000 if q < 0 else 0
    a = abs(q)
    if a == 0:
        return sign
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    unit = Fraction(2) ** (max(e, -126) - 7)
    n = a / unit
    r = n.numerator // n.denominator
    rest = n - r
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and r % 2):
        r += 1
    value = r * unit
    if value >= Fraction(2) ** 128:
        return sign | 0x7F80
    if value < Fraction(2) ** -126:
        return sign | r
    e2 = value.numerator.bit_length() - value.denominator.bit_length()
    while Fraction(2) ** e2 > value:
        e2 -= 1
    while Fraction(2) ** (e2 + 1) <= value:
        e2 += 1
    mantissa = value / Fraction(2) ** (e2 - 7) - 128
    return sign | ((e2 + 127) << 7) | int(mantissa)


def inputs():
    rng = np.random.default_rng(7)
    f32 = np.concatenate([
        np.array([0x00010000, 0x007FFFFF, 0x00008000, 0x00018000, 0x00000001,
                  0x80010000, 0x007F8000, 0x3F818000, 0x3F808000, 0x7F7FFFFF],
                 np.uint32),
        rng.integers(0, 0x00800000, 32, dtype=np.uint32),
        rng.integers(0, 0x7F800000, 32, dtype=np.uint32)]).view(np.float32)
    # bfloat16 midpoints one binary64 ulp either side, where rounding
    # through binary32 lands on the midpoint.
    mids = [1 + 2.0 ** -8, 3 * 2.0 ** -134, 1.5 + 2.0 ** -8, 2.0 ** 127 * 1.00390625]
    f64 = np.array([np.nextafter(m, np.inf) for m in mids] +
                   [np.nextafter(m, 0) for m in mids] +
                   [1e-45, 3.5e38, -2.0 ** -133 * 1.5] +
                   list(rng.standard_normal(16) * 10.0 ** rng.integers(-40, 38, 16)),
                   np.float64)
    i32 = np.concatenate([
        np.array([1077936129, -1077936129, 2 ** 31 - 1, -2 ** 31, 16777217,
                  33554435, 0, -1], np.int64),
        rng.integers(-2 ** 31, 2 ** 31, 24)]).astype(np.int32)
    i64 = np.concatenate([
        np.array([2 ** 60 + 2 ** 52 + 1, -(2 ** 60 + 2 ** 52 + 1), 2 ** 63 - 1,
                  -2 ** 63, 2 ** 53 + 1, (2 ** 53 + 1) * 2 ** 8 + 1, 0, -1],
                 np.int64),
        rng.integers(-2 ** 63, 2 ** 63 - 1, 24, dtype=np.int64)])
    return f32, f64, i32, i64


def expected(f32, f64, i32, i64):
    exact = lambda xs: [Fraction(float(x)) for x in xs]
    unsigned = lambda xs, bits: [Fraction(int(x) % 2 ** bits) for x in xs]
    return [
        [bf16_bits(q) for q in exact(f32)],           # truncf f32
        [doubled(bf16_bits(q)) for q in exact(f32)],  # addf in bf16
        [bf16_bits(q) for q in exact(f64)],           # truncf f64
        [bf16_bits(Fraction(int(x))) for x in i32],    # sitofp i32
        [bf16_bits(q) for q in unsigned(i32, 32)],     # uitofp i32
        [bf16_bits(Fraction(int(x))) for x in i64],    # sitofp i64
        [bf16_bits(q) for q in unsigned(i64, 64)],     # uitofp i64
    ]


def doubled(bits):
    """The bfloat16 pattern of x + x for the pattern x (infinities stay)."""
    if bits & 0x7FFF == 0x7F80:
        return bits
    value = struct.unpack("<f", struct.pack("<I", bits << 16))[0]
    return bf16_bits(2 * Fraction(value))


def main():
    mode, directory = sys.argv[1], sys.argv[2]
    f32, f64, i32, i64 = inputs()
    if mode == "write":
        for name, value in (("f32", f32), ("f64", f64), ("i32", i32),
                            ("i64", i64)):
            np.save(f"{directory}/{name}.npy", value)
        return 0
    names = ["truncf f32", "addf bf16", "truncf f64", "sitofp i32",
             "uitofp i32", "sitofp i64", "uitofp i64"]
    failures = 0
    for k, (name, want) in enumerate(zip(names, expected(f32, f64, i32, i64))):
        got = np.load(f"{directory}/result{k}.npy").view(np.uint16)
        for i, (g, w) in enumerate(zip(got.tolist(), want)):
            if g != w:
                failures += 1
                print(f"{name} #{i}: got 0x{g:04x}, want 0x{w:04x}")
    print("bfloat16 conversions:", "ok" if not failures else "FAILED")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
