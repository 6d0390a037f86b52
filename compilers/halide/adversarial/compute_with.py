# compute_with: h's loop fused into g's (Halide 14's Python: LoopLevel(g, x, 0)). A schedule only;
# the translation follows the fused loop. Expected: valid.
import halide as hl

TRUTH = {"inputs": {"a": [1, 2, 3]}, "output": [3]}


def reference(a):
    return [(v + 1) + v * 3 for v in a]


def pipeline():
    a = hl.ImageParam(hl.UInt(32), 1, "a")
    x = hl.Var("x")
    g = hl.Func("g")
    g[x] = a[x] + 1
    h = hl.Func("h")
    h[x] = a[x] * 3
    f = hl.Func("f")
    f[x] = g[x] + h[x]
    g.compute_root()
    h.compute_root()
    h.compute_with(hl.LoopLevel(g, x, 0))
    return {"output": f, "funcs": [f, g, h], "args": [a], "example": {"output": [8], "a": [8]}}
