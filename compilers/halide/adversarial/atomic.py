# A histogram update made atomic: Halide wraps the store in `atomic (mutex) {`, which crashed the
# translator. Expected: unsupported: atomic (exit 3).
import halide as hl

TRUTH = {"inputs": {"a": [1, 5, 2, 1, 3, 1, 0, 2]}, "output": [4]}


def reference(a):
    h = [0] * 4
    for v in a:
        h[v % 4] += 1
    return h


def pipeline():
    a = hl.ImageParam(hl.Int(32), 1, "a")
    x = hl.Var("x")
    r = hl.RDom([(0, 8)], "r")
    h = hl.Func("h")
    h[x] = 0
    h[a[r.x] % 4] = h[a[r.x] % 4] + 1
    h.update().atomic().parallel(r.x)
    return {"output": h, "funcs": [h], "args": [a], "example": {"output": [4], "a": [8]}}
