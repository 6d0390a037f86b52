# An extern stage (define_extern): its code is not Halide's. Expected: unsupported: extern Func.
import halide as hl

TRUTH = None


def pipeline():
    a = hl.ImageParam(hl.Int(32), 1, "a")
    x = hl.Var("x")
    g = hl.Func("g")
    g.define_extern("my_extern", [a], hl.Int(32), 1)
    f = hl.Func("f")
    f[x] = g[x] * 2
    g.compute_root()
    return {"output": f, "funcs": [f, g], "args": [a], "example": {"output": [8], "a": [8]}}
