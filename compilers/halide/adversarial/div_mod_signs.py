# Euclidean / and % by negative and zero divisors (Int(16): its arithmetic wraps, no overflow to
# check): Halide's x / 0 and x % 0 are 0. Expected: valid, the JIT bit for bit.
import halide as hl

TRUTH = {"inputs": {"a": [7, -7, 7, -7, 5], "b": [2, 2, -2, -2, 0]}, "output": [5]}


def reference(a, b):
    out = []
    for x, y in zip(a, b):
        if y == 0:
            q, r = 0, 0
        else:
            r = x % abs(y)
            q = (x - r) // y
        out.append(((q * 100 + r) + 2 ** 15) % 2 ** 16 - 2 ** 15)
    return out


def pipeline():
    a = hl.ImageParam(hl.Int(16), 1, "a")
    b = hl.ImageParam(hl.Int(16), 1, "b")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = a[x] / b[x] * hl.i16(100) + a[x] % b[x]
    return {"output": f, "funcs": [f], "args": [a, b], "example": {"output": [8], "a": [8], "b": [8]}}
