# The same cast after a clamp that keeps it in range: defined, and the verdict is valid (the
# verifier proves the range). Expected: valid.
import halide as hl

TRUTH = {"inputs": {"a": [0.5, 1e9, -3e9, 0.0]}, "output": [4]}


def reference(a):
    return [int(max(-1000.0, min(1000.0, v)) * 1000) for v in a]


def pipeline():
    a = hl.ImageParam(hl.Float(32), 1, "a")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = hl.cast(hl.Int(32), hl.clamp(a[x], hl.f32(-1000), hl.f32(1000)) * hl.f32(1000))
    return {"output": f, "funcs": [f], "args": [a], "example": {"output": [8], "a": [8]}, "target": "x86-64-linux-sse41-avx-avx2-fma-f16c-strict_float"}
