#!/usr/bin/python3
"""The rows of docs/halide.md's semantics table, run by Halide 14 itself (test/halide-semantics.test.ts).

Each row is a one-Func pipeline `r<k>(x) = e(a<k>(x), b<k>(x))` over inputs of edge values. For
each, this prints what the translator needs (the driver's description and traced lowering, as
`sched halide` gets them) and what Halide's `realize` computes on those inputs, values written as
the JIT protocol writes them (driver.py: decode/encode). One process for every row: the driver's
module does the lowering, with float constants printed exactly.

    /usr/bin/python3 test/halide-semantics.py > rows.json

Flavors: `defined` rows are Halide-defined meanings (the translation must give realize's values bit
for bit); `undefined` rows are results Halide leaves undefined (the translation's run must stop with
undefined-behaviour there; realize's values are printed as what one build of Halide happens to do).
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "compilers", "halide"))
import driver  # noqa: E402  (sets HL_DEBUG_CODEGEN before importing halide)

hl = driver.hl
driver.TARGET = hl.Target("x86-64-linux-sse41-avx-avx2-fma-f16c-strict_float")

I32_MIN, I32_MAX = -(2 ** 31), 2 ** 31 - 1
NAN, INF = float("nan"), float("inf")

T = {"i8": hl.Int(8), "i16": hl.Int(16), "i32": hl.Int(32), "i64": hl.Int(64), "u8": hl.UInt(8), "u16": hl.UInt(16),
     "u32": hl.UInt(32), "u64": hl.UInt(64), "f32": hl.Float(32), "f64": hl.Float(64)}

# (id, flavor, type of a, values of a, type of b or None, values of b, e(a, b, x))
ROWS = [
    ("int32-add", "defined", "i32", [1, -5, I32_MAX - 3, I32_MIN + 7], "i32", [2, -6, 3, -7], lambda a, b, x: a + b),
    ("int32-add-overflow", "undefined", "i32", [I32_MAX], "i32", [1], lambda a, b, x: a + b),
    ("int32-sub-overflow", "undefined", "i32", [I32_MIN], "i32", [1], lambda a, b, x: a - b),
    ("int32-mul-overflow", "undefined", "i32", [65536], "i32", [65536], lambda a, b, x: a * b),
    ("int64-mul", "defined", "i64", [3037000499, -(2 ** 62), 2 ** 62 + 1], "i64", [3037000499, 1, -1], lambda a, b, x: a * b),
    ("int64-add-overflow", "undefined", "i64", [2 ** 63 - 1], "i64", [1], lambda a, b, x: a + b),
    ("uint8-add-wrap", "defined", "u8", [200, 255, 0], "u8", [100, 1, 0], lambda a, b, x: a + b),
    ("int16-mul-wrap", "defined", "i16", [300, -300, 181], "i16", [300, 300, 181], lambda a, b, x: a * b),
    ("int8-sub-wrap", "defined", "i8", [-128, 127], "i8", [1, -1], lambda a, b, x: a - b),
    ("uint32-sub-wrap", "defined", "u32", [0, 5], "u32", [1, 7], lambda a, b, x: a - b),
    ("uint64-add-wrap", "defined", "u64", [2 ** 64 - 1, 2 ** 63], "u64", [1, 2 ** 63], lambda a, b, x: a + b),
    ("int32-div-euclid", "defined", "i32", [7, -7, 7, -7, 5, I32_MIN, I32_MIN], "i32", [2, 2, -2, -2, 0, -1, 0], lambda a, b, x: a / b),
    ("int32-mod-euclid", "defined", "i32", [7, -7, 7, -7, 5, I32_MIN], "i32", [2, 2, -2, -2, 0, -1], lambda a, b, x: a % b),
    ("uint8-div-mod-zero", "defined", "u8", [7, 200, 9], "u8", [0, 0, 4], lambda a, b, x: a / b + a % b),
    ("float-mod", "defined", "f32", [-7.5, 7.5, 5.0, -0.0], "f32", [2.0, -2.0, 0.5, 3.0], lambda a, b, x: a % b),
    ("float-div", "defined", "f32", [1.0, -1.0, 0.0, 1e-45], "f32", [0.0, 0.0, 0.0, 2.0], lambda a, b, x: a / b),
    ("cast-int-narrow", "defined", "i32", [300, 200, -1, 65537], None, [], lambda a, b, x: hl.cast(hl.UInt(8), a) + hl.cast(hl.UInt(8), hl.cast(hl.Int(8), a))),
    ("cast-int-widen", "defined", "i8", [-1, -128, 127], None, [], lambda a, b, x: hl.cast(hl.Int(64), a) * hl.i64(1000000000000) + hl.cast(hl.Int(64), hl.cast(hl.UInt(32), a))),
    ("cast-float-int", "defined", "f32", [-2.7, 2.7, -0.5, 2147483520.0, -2147483648.0], None, [], lambda a, b, x: hl.cast(hl.Int(32), a)),
    ("cast-float-int-out-of-range", "undefined", "f32", [3e9], None, [], lambda a, b, x: hl.cast(hl.Int(32), a)),
    ("cast-float-int-nan", "undefined", "f32", [NAN], None, [], lambda a, b, x: hl.cast(hl.Int(32), a)),
    ("cast-float-int-inf", "undefined", "f64", [-INF], None, [], lambda a, b, x: hl.cast(hl.Int(16), a)),
    ("cast-float-uint", "defined", "f32", [-0.5, 255.9, 0.0], None, [], lambda a, b, x: hl.cast(hl.UInt(8), a)),
    ("cast-float-uint-out-of-range", "undefined", "f32", [256.0], None, [], lambda a, b, x: hl.cast(hl.UInt(8), a)),
    ("cast-int-float", "defined", "i32", [16777217, -16777217, I32_MAX], None, [], lambda a, b, x: hl.cast(hl.Float(32), a)),
    ("cast-int64-float", "defined", "i64", [2 ** 63 - 1, 2 ** 53 + 1, -(2 ** 63)], None, [], lambda a, b, x: hl.cast(hl.Float(64), a) + hl.cast(hl.Float(64), hl.cast(hl.Float(32), a))),
    ("cast-f64-f32", "defined", "f64", [1e40, 0.1, 1e-46, -0.0, NAN], None, [], lambda a, b, x: hl.cast(hl.Float(32), a)),
    ("cast-bool-int", "defined", "i32", [2, 3, -1, 0], None, [], lambda a, b, x: hl.select(hl.cast(hl.Bool(), a), 10, 20)),
    ("cast-bool-float", "defined", "f32", [2.0, 1.0, 0.5, 3.7], None, [], lambda a, b, x: hl.select(hl.cast(hl.Bool(), a), 10, 20)),
    ("saturating-cast-uint8", "defined", "i32", [-5, 300, 100], None, [], lambda a, b, x: hl.saturating_cast(hl.UInt(8), a)),
    ("saturating-cast-int32-float", "defined", "f32", [3e9, -3e9, 12.5, NAN, INF], None, [], lambda a, b, x: hl.saturating_cast(hl.Int(32), a)),
    ("abs-int-min", "defined", "i32", [I32_MIN, -3, 7], None, [], lambda a, b, x: hl.abs(a)),
    ("absd-int", "defined", "i32", [I32_MIN, 5], "i32", [I32_MAX, 9], lambda a, b, x: hl.absd(a, b)),
    ("min-max-nan-zero", "defined", "f32", [NAN, 1.0, -0.0, 0.0], "f32", [1.0, NAN, 0.0, -0.0], lambda a, b, x: hl.min(a, b) * hl.f32(3.0) + hl.max(a, b)),
    ("select-discards-undefined", "defined", "f32", [3e9, 12.5, NAN], None, [], lambda a, b, x: hl.select((a < hl.f32(1e6)) & (a > hl.f32(-1e6)), hl.cast(hl.Int(32), a), -1)),
    ("float-constants", "defined", "f32", [-0.0] * 8, None, [],  # -0.0 + c is c (c = -0.0 and NaN included)
     lambda a, b, x: a + hl.mux(x, [hl.f32(-0.0), hl.f32(INF), hl.f32(-INF), hl.f32(NAN), hl.f32(1e-45), hl.f32(0.1234567), hl.f32(0.1234568), hl.f32(1e-9)])),
    ("double-constants", "defined", "f64", [-0.0] * 4, None, [],
     lambda a, b, x: a + hl.mux(x, [hl.f64(5e-324), hl.f64(1e-300), hl.f64(0.1), hl.f64(0.30000000000000004)])),
    ("integer-constants", "defined", "i64", [0, 0, 0], None, [],
     lambda a, b, x: a + hl.mux(x, [hl.i64(-(2 ** 63)), hl.i64(2 ** 63 - 1), hl.i64(2 ** 62 + 12345)])),
    ("uint64-constants", "defined", "u64", [0, 1], None, [], lambda a, b, x: a + hl.select(x == 0, hl.u64(2 ** 64 - 1), hl.u64(2 ** 63 + 7))),
    ("is-nan-trunc", "defined", "f32", [NAN, -2.5, 2.5, -0.25], None, [], lambda a, b, x: hl.select(hl.is_nan(a), hl.f32(100.0), hl.trunc(a))),
    ("reinterpret-int", "defined", "i32", [-1, I32_MIN, 5], None, [], lambda a, b, x: hl.reinterpret(hl.UInt(32), a)),
    ("int8-neg-wrap", "defined", "i8", [-128, 5, 0, 127], None, [], lambda a, b, x: -a),
    ("int32-neg-overflow", "undefined", "i32", [I32_MIN], None, [], lambda a, b, x: -a),
    ("sqrt-floor-ceil", "defined", "f32", [2.0, -0.0, -2.5, 2.5, NAN, INF, -1.0], None, [], lambda a, b, x: hl.mux(x % 3, [hl.sqrt(a), hl.floor(a), hl.ceil(a)])),
    ("sqrt-floor-ceil-f64", "defined", "f64", [2.0, -0.0, -2.5, 2.5, NAN, -INF, -1.0], None, [], lambda a, b, x: hl.mux(x % 3, [hl.sqrt(a), hl.floor(a), hl.ceil(a)])),
    ("exp-log-pow", "defined", "f32", [0.0, 0.0, -INF, 2.0, 4.0, 1.0], "f32", [1.0, 2.0, 1.0, 3.0, 0.5, 2.0], lambda a, b, x: hl.mux(x % 3, [hl.exp(a), hl.log(b), hl.pow(a, b)])),
    ("bool-logic", "defined", "i32", [1, 1, -1, -1, 0], "i32", [1, -1, 1, -1, 0],
     lambda a, b, x: hl.select(((a > 0) & (b > 0)) | ~(a < b), 1, 0) + hl.select((a > 0) ^ (b > 0), 10, 0)),
    ("hints", "defined", "i32", [3, -4, 0], None, [], lambda a, b, x: hl.select(hl.likely(a > 0), a, hl.likely_if_innermost(a * 2)) + hl.cast(hl.Int(32), hl.strict_float(hl.f32(0.5) * hl.cast(hl.Float(32), a)))),
    ("float-neg-zero", "defined", "f32", [0.0, -0.0, 1.5, INF], None, [], lambda a, b, x: -a),
    ("mux-out-of-range", "defined", "i32", [-1, 0, 1, 2, 7], "i32", [5, 5, 5, 5, 5], lambda a, b, x: hl.mux(a, [b, b * 2, b * 3])),
]


def realize(f, params, n):
    if n == 0:
        return []
    res = f.realize([n], driver.TARGET)
    return [driver.encode(f.output_types()[0], res[i]) for i in range(n)]


def build(k, row):
    name, flavor, ta, va, tb, vb, e = row
    x = hl.Var("x")
    a = hl.ImageParam(T[ta], 1, f"a{k}")
    args = [a]
    b = None
    if tb is not None:
        b = hl.ImageParam(T[tb], 1, f"b{k}")
        args.append(b)
    f = hl.Func(f"r{k}")
    f[x] = e(a[x], b[x] if b is not None else None, x)
    return f, args, a, b


def main():
    out = []
    for k, row in enumerate(ROWS):
        name, flavor, ta, va, tb, vb, _ = row
        n = len(va)
        f, args, a, b = build(k, row)
        info = driver.describe([f], args, f)
        f.trace_stores()
        low, _ = driver.lower(f, args, f.name())
        # Realized by a second, untraced copy of the pipeline (Halide renames its Funcs: r0$1).
        f2, args2, a2, b2 = build(k, row)
        for p, t, vs in [(a2, ta, va), (b2, tb, vb)]:
            if p is None:
                continue
            buf = hl.Buffer(T[t], [n])
            for i, v in enumerate(vs):
                buf[i] = v
            p.set(buf)
        try:
            values = realize(f2, {}, n)
            err = None
        except RuntimeError as ex:
            values, err = None, str(ex)[-500:]
        wire = lambda t, vs: [driver.encode(T[t], v) for v in vs]  # noqa: E731
        info.update({"traced": low, "plain": low, "ms": {"traced": 0, "plain": 0}, "exactFloats": driver.EXACT, "strictFloat": True, "assume": [], "example": None})
        out.append({"id": name, "flavor": flavor, "n": n, "driver": info, "inputs": {a.name(): {"type": ta, "values": wire(ta, va)}, **({b.name(): {"type": tb, "values": wire(tb, vb)}} if b is not None else {})}, "realize": values, "error": err})
    print(json.dumps({"rows": out}))


if __name__ == "__main__":
    main()
