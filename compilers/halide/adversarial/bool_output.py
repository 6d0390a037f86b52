# A Bool output and a Bool input: booleans cross the JIT protocol as 0/1. Expected: valid.
import halide as hl

TRUTH = {"inputs": {"a": [3, 4, -5], "b": [True, False, True]}, "output": [3]}


def reference(a, b):
    return [(x > 3) != y for x, y in zip(a, b)]


def pipeline():
    a = hl.ImageParam(hl.Int(16), 1, "a")
    b = hl.ImageParam(hl.Bool(), 1, "b")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = (a[x] > 3) != b[x]
    return {"output": f, "funcs": [f], "args": [a, b], "example": {"output": [8], "a": [8], "b": [8]}}
