# A prefetch directive: a hint, injected after the IR the translator reads. Expected: valid.
import halide as hl

TRUTH = {"inputs": {"a": [[1, 2], [3, 4]]}, "output": [2, 2]}


def reference(a):
    return [[v + 1 for v in row] for row in a]


def pipeline():
    a = hl.ImageParam(hl.UInt(32), 2, "a")
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("f")
    f[x, y] = a[x, y] + 1
    f.prefetch(a, y, 2)
    return {"output": f, "funcs": [f], "args": [a], "example": {"output": [8, 8], "a": [8, 8]}}
