# ±inf and NaN constants (they print as words: inff, -inff, nanf), which crashed the translator.
# Expected: valid, the JIT bit for bit.
import halide as hl

TRUTH = {"inputs": {"a": [1.0, -1.0, 0.0]}, "output": [3]}


def reference(a):
    return [float("inf") if v > 0 else float("-inf") if v < 0 else float("nan") for v in a]


def pipeline():
    a = hl.ImageParam(hl.Float(32), 1, "a")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = hl.select(a[x] > 0, hl.f32(float("inf")), hl.select(a[x] < 0, hl.f32(float("-inf")), hl.f32(float("nan"))))
    return {"output": f, "funcs": [f], "args": [a], "example": {"output": [8], "a": [8]}, "target": "x86-64-linux-sse41-avx-avx2-fma-f16c-strict_float"}
