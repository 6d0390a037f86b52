# A float -> UInt(8) cast in a vectorized loop: out of range it is undefined (fptoui), and Halide's
# vector code saturates where its scalar code wraps. Expected: invalid (undefined-behaviour).
import halide as hl

TRUTH = {"inputs": {"a": [0.5, 0.25, 2.0, -1.0, 0.0, 0.1, 0.2, 0.3]}, "output": [8]}


def reference(a):
    """The algorithm's values where the cast is defined (0 <= trunc(a * 300) < 256), None elsewhere."""
    import struct
    out = []
    for v in a:
        p = struct.unpack("<f", struct.pack("<f", v * struct.unpack("<f", struct.pack("<f", 300.0))[0]))[0]
        out.append(int(p) if -1 < p < 256 else None)
    return out


def pipeline():
    a = hl.ImageParam(hl.Float(32), 1, "a")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = hl.cast(hl.UInt(8), a[x] * hl.f32(300))
    f.vectorize(x, 8)
    return {"output": f, "funcs": [f], "args": [a], "example": {"output": [16], "a": [16]}, "target": "x86-64-linux-sse41-avx-avx2-fma-f16c-strict_float"}
