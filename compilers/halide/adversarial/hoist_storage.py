# hoist_storage is not in Halide 14's Python bindings: the script's own error, reported as an input
# error naming it. Expected: exit 3, "hoist_storage".
import halide as hl

TRUTH = None


def pipeline():
    a = hl.ImageParam(hl.Int(32), 1, "a")
    x = hl.Var("x")
    g = hl.Func("g")
    g[x] = a[x] + 1
    f = hl.Func("f")
    f[x] = g[x] * 2
    g.compute_at(f, x).hoist_storage(f, hl.Var.outermost())
    return {"output": f, "funcs": [f, g], "args": [a]}
