# -0.0, the smallest subnormal and the largest negative subnormal as constants (a print with 6
# decimals makes all three 0). Expected: valid, the JIT bit for bit (strict_float).
import struct

import halide as hl

TRUTH = {"inputs": {"a": [1.0, -0.0, 0.0]}, "output": [3]}


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def reference(a):
    return [f32(f32(f32(v * -0.0) + f32(1e-45)) + f32(-1.1754942e-38)) for v in a]


def pipeline():
    a = hl.ImageParam(hl.Float(32), 1, "a")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = a[x] * hl.f32(-0.0) + hl.f32(1e-45) + hl.f32(-1.1754942e-38)
    return {"output": f, "funcs": [f], "args": [a], "example": {"output": [8], "a": [8]}, "target": "x86-64-linux-sse41-avx-avx2-fma-f16c-strict_float"}
