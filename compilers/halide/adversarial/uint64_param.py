# A UInt(64) Param whose example value is 2^64 - 1: the example crossed to sched as a JSON number,
# a double, and became 2^64, outside the Param's type (the translation refused its own JIT
# parameters). Expected: valid, the JIT at p = 2^64 - 1 bit for bit.
import halide as hl

TRUTH = {"inputs": {"a": [0, 1, 2 ** 63]}, "output": [3], "params": {"p": 2 ** 64 - 1}}


def reference(a, p=2 ** 64 - 1):
    return [(v + p) % 2 ** 64 for v in a]


def pipeline():
    p = hl.Param(hl.UInt(64), "p")
    a = hl.ImageParam(hl.UInt(64), 1, "a")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = a[x] + p
    return {"output": f, "funcs": [f], "args": [a, p], "example": {"output": [8], "a": [8], "p": 2 ** 64 - 1}}
