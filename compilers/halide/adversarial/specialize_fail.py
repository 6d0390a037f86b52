# specialize_fail: Halide lowers it to `if (3 < p) {…} else {assert(false, specialize_fail(…))}`: for
# p <= 3 the pipeline fails and computes nothing. The assert in the branch was not assumed, so the
# translation, which writes nothing there, was `invalid` (output-mismatch) on a correct pipeline.
# Expected: valid, for p >= 4 (stated).
import halide as hl

TRUTH = {"inputs": {"a": [1, -2, 300, 7]}, "output": [4], "params": {"p": 5}}


def reference(a, p):
    return [((v * p + 2 ** 15) % 2 ** 16) - 2 ** 15 for v in a]


def pipeline():
    a = hl.ImageParam(hl.Int(16), 1, "a")
    p = hl.Param(hl.Int(32), "p")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = a[x] * hl.cast(hl.Int(16), p)
    f.specialize(p > 3).vectorize(x, 4)
    f.specialize_fail("p too small")
    return {"output": f, "funcs": [f], "args": [a, p], "example": {"output": [8], "a": [8], "p": 5}}
