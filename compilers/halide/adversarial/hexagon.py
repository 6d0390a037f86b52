# A Hexagon schedule (`for<Hexagon>` around the loops it offloads): translated; without the Hexagon
# runtime the JIT oracle cannot run it, which is said, not taken for a difference. Expected: valid.
import halide as hl

TRUTH = None


def pipeline():
    a = hl.ImageParam(hl.UInt(8), 1, "a")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = a[x] + hl.u8(1)
    f.hexagon()
    return {"output": f, "funcs": [f], "args": [a], "target": "host-hvx", "example": {"output": [8], "a": [8]}}
