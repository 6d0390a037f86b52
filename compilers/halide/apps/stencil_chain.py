# sc1 / sc32 (thesis Table 6.1): Halide v14 apps/stencil_chain/stencil_chain_generator.cpp, CPU
# schedule; STENCILS stencils (sc1: 1, sc32: 32; set by the scripts sc1.py and sc32.py).
import halide as hl

STENCILS = 1


def pipeline(stencils=None):
    n = STENCILS if stencils is None else stencils
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("input_wrap")
    f[x, y] = inp[x, y]
    stages = [f]
    for s in range(n):
        g = hl.Func("stage_%d" % s)
        e = hl.u16(0)
        for i in range(-2, 3):
            for j in range(-2, 3):
                e = e + ((i + 3) * (j + 3)) * stages[-1][x + i, y + j]
        g[x, y] = e
        stages.append(g)
    output = hl.Func("output")
    output[x, y] = stages[-1][x, y]
    yi, yo, xo, xi, t = hl.Var("yi"), hl.Var("yo"), hl.Var("xo"), hl.Var("xi"), hl.Var("t")
    for s in stages[1:]:
        s.store_at(output, t).compute_at(output, yi).vectorize(s.args()[0], 16)
    output.compute_root().tile(x, y, xo, yo, xi, yi, 512, 512).fuse(xo, yo, t).parallel(t).vectorize(xi, 16)
    return {"output": output, "funcs": stages + [output], "args": [inp], "example": {"output": [512, 512], "input": [512 + 4 * n, 512 + 4 * n], "input.min": [-2 * n, -2 * n]}}
