# A GPU schedule (gpu_tile) for a CUDA target: the blocks and threads are parallel loops that may not
# communicate (par). Without a CUDA runtime the JIT oracle cannot run it, which is said, not taken
# for a difference. Expected: valid.
import halide as hl

TRUTH = None


def pipeline():
    a = hl.ImageParam(hl.UInt(32), 1, "a")
    x, xo, xi = hl.Var("x"), hl.Var("xo"), hl.Var("xi")
    f = hl.Func("f")
    f[x] = a[x] + 1
    f.gpu_tile(x, xo, xi, 4)
    return {"output": f, "funcs": [f], "args": [a], "target": "host-cuda", "example": {"output": [8], "a": [8]}}
