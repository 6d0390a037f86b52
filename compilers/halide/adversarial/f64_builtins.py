# Float64 sqrt and floor: Halide's simplifier prints "Simplifier: unhandled PureExtern: sqrt_f64"
# without a newline, so the header of the pass the translator reads followed it on one line and
# the pipeline was refused ("Halide printed no IR"). Expected: valid, the JIT bit for bit.
import math

import halide as hl

TRUTH = {"inputs": {"a": [2.0, 0.25, -1.0, float("inf"), -0.0, 7.5]}, "output": [6]}


def reference(a):
    def sq(v):
        return math.sqrt(v) if v >= 0 else float("nan")
    def fl(v):
        return float(math.floor(v)) if math.isfinite(v) and v != 0 else v  # floor(-0.0) is -0.0
    return [sq(v) + fl(v) * 0.5 for v in a]


def pipeline():
    a = hl.ImageParam(hl.Float(64), 1, "a")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = hl.sqrt(a[x]) + hl.floor(a[x]) * hl.f64(0.5)
    return {"output": f, "funcs": [f], "args": [a], "example": {"output": [8], "a": [8]}, "target": "x86-64-linux-sse41-avx-avx2-fma-f16c-strict_float"}
