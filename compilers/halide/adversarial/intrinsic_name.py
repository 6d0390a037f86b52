# A Func named like an intrinsic: a 2-D Func `max` prints `max(x, y)` in Halide's IR, which the
# translator read as the intrinsic max of the coordinates, in the spec and the implementation
# alike. Expected: unsupported: name (exit 3).
import halide as hl

TRUTH = {"inputs": {"a": [1, 2, 3]}, "output": [3, 2]}


def reference(a):
    return [[a[x] * 10 + y + 1 for x in range(3)] for y in range(2)]


def pipeline():
    a = hl.ImageParam(hl.Int(16), 1, "a")
    x, y = hl.Var("x"), hl.Var("y")
    g = hl.Func("max")
    g[x, y] = a[x] * hl.i16(10) + hl.cast(hl.Int(16), y)
    f = hl.Func("f")
    f[x, y] = g[x, y] + hl.i16(1)
    g.compute_root()
    return {"output": f, "funcs": [f, g], "args": [a], "example": {"output": [4, 4], "a": [4]}}
