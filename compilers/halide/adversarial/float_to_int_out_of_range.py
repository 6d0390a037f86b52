# A float -> Int(32) cast that leaves the range: undefined in Halide (fptosi; its scalar code gives
# INT_MIN, its vector code saturates). SCHED's own cast wraps; before the checked cast, spec and
# translation both wrapped and the verdict was `valid` where Halide's realize gives INT_MIN.
# Expected: invalid (undefined-behaviour).
import halide as hl

TRUTH = {"inputs": {"a": [0.5, 1e-3, -0.25]}, "output": [3]}


def reference(a):
    """The algorithm's values where it has one (|a * 1e10| < 2^31); None where Halide's is undefined."""
    out = []
    for v in a:
        p = v * 1e10
        out.append(int(p) if -2 ** 31 <= int(p) < 2 ** 31 else None)
    return out


def pipeline():
    a = hl.ImageParam(hl.Float(32), 1, "a")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = hl.cast(hl.Int(32), a[x] * hl.f32(1e10))
    return {"output": f, "funcs": [f], "args": [a], "example": {"output": [8], "a": [8]}, "target": "x86-64-linux-sse41-avx-avx2-fma-f16c-strict_float"}
