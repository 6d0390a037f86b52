# Halide's simplifier assumes Int(32) never overflows: max(a*2, b*2) may become max(a, b)*2, and the
# wrapping reading of either is made up. Expected: invalid (undefined-behaviour).
import halide as hl

TRUTH = {"inputs": {"a": [3, -4], "b": [5, 6]}, "output": [2]}


def reference(a, b):
    return [max(x * 2, y * 2) for x, y in zip(a, b)]


def pipeline():
    a = hl.ImageParam(hl.Int(32), 1, "a")
    b = hl.ImageParam(hl.Int(32), 1, "b")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = hl.max(a[x] * 2, b[x] * 2)
    return {"output": f, "funcs": [f], "args": [a, b], "example": {"output": [8], "a": [8], "b": [8]}}
