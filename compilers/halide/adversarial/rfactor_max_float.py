# rfactor of a float max: the intermediate starts at -inf (Halide's neutral element), a constant that
# crashed the translator. max is not commutative on NaN and ±0 (max(a, b) is a > b ? a : b), so
# the reordering is not exact. Expected: not valid under IEEE (unknown, reassociation), no crash.
import halide as hl

TRUTH = {"inputs": {"a": [1.0, 5.0, -2.0, 3.0, 4.0]}, "output": []}


def reference(a):
    return [max(a)]


def pipeline():
    a = hl.ImageParam(hl.Float(32), 1, "a")
    r = hl.RDom([(0, a.width())], "r")
    m = hl.Func("m")
    m[()] = hl.f32(float("-inf"))
    m[()] = hl.max(m[()], a[r.x])

    def schedule():
        ro, ri, u = hl.RVar("ro"), hl.RVar("ri"), hl.Var("u")
        intm = m.update().split(r.x, ro, ri, 4).rfactor(ri, u)
        intm.compute_root()
        return [intm]

    return {"output": m, "funcs": [m], "args": [a], "schedule": schedule, "example": {"output": [], "a": [13]}, "target": "x86-64-linux-sse41-avx-avx2-fma-f16c-strict_float"}
