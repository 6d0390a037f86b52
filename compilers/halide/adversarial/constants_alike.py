# Two float constants that print alike at 6 decimals (0.1234567f, 0.1234568f both print 0.123457f),
# and tiny ones that print as 0.000000f. Before, the spec took them from the rounded print (or
# silently as 0). Expected: valid (strict_float: IEEE as written), the JIT bit for bit.
import halide as hl

TRUTH = {"inputs": {"a": [1.0, -2.0, 0.0]}, "output": [3]}


def reference(a):
    import struct
    f32 = lambda v: struct.unpack("<f", struct.pack("<f", v))[0]  # noqa: E731
    return [f32(f32(f32(f32(v * f32(0.1234567)) + f32(0.1234568)) + f32(f32(v * f32(1e-9)))) + f32(1e-12)) for v in a]


def pipeline():
    a = hl.ImageParam(hl.Float(32), 1, "a")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = a[x] * hl.f32(0.1234567) + hl.f32(0.1234568) + a[x] * hl.f32(1e-9) + hl.f32(1e-12)
    return {"output": f, "funcs": [f], "args": [a], "example": {"output": [8], "a": [8]}, "target": "x86-64-linux-sse41-avx-avx2-fma-f16c-strict_float"}
