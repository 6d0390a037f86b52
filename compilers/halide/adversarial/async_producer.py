# An async producer: Halide forks it and guards its buffer by semaphores (`acquire (…) {`), which
# crashed the translator. Expected: unsupported: acquire (exit 3).
import halide as hl

TRUTH = {"inputs": {"a": [1, 2, 3]}, "output": [3]}


def reference(a):
    return [(v + 1) * 2 for v in a]


def pipeline():
    a = hl.ImageParam(hl.Int(32), 1, "a")
    x = hl.Var("x")
    g = hl.Func("g")
    g[x] = a[x] + 1
    f = hl.Func("f")
    f[x] = g[x] * 2
    g.compute_root().async_()
    return {"output": f, "funcs": [f, g], "args": [a], "example": {"output": [8], "a": [8]}}
