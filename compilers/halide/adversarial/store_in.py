# store_in(Stack): a memory type (`realize … in Stack`), no meaning for the values. Expected: valid.
import halide as hl

TRUTH = {"inputs": {"a": [1, -2, 32767]}, "output": [3]}


def reference(a):
    def i16(v):
        return (v + 2 ** 15) % 2 ** 16 - 2 ** 15
    return [i16(i16(v + 1) * 2) for v in a]


def pipeline():
    a = hl.ImageParam(hl.Int(16), 1, "a")
    x = hl.Var("x")
    g = hl.Func("g")
    g[x] = a[x] + hl.i16(1)
    f = hl.Func("f")
    f[x] = g[x] * hl.i16(2)
    g.compute_root().store_in(hl.MemoryType.Stack)
    return {"output": f, "funcs": [f, g], "args": [a], "example": {"output": [8], "a": [8]}}
