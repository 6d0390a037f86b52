# A dot product over an RDom, rfactor'd as Halide users write it: the RVar split by 8, the inner
# part made a pure variable u of the intermediate Func, whose update is vectorized over u; the
# output then folds the 8 partial sums. The schedule is applied by pipeline()'s `schedule` hook, so
# that the spec is the reduction as written (docs/halide.md, "rfactor"). dot_rfactor_f32.py is the
# same on floats. UInt(32): its arithmetic wraps (defined in Halide); an Int(32) sum's overflow is
# undefined, and the translator refuses an rfactor of one (docs/halide.md).
import halide as hl


def make(t):
    a = hl.ImageParam(t, 1, "a")
    b = hl.ImageParam(t, 1, "b")
    n = a.width()
    r = hl.RDom([(0, n)], "r")
    dot = hl.Func("dot")
    dot[()] = hl.cast(t, 0)
    dot[()] = dot[()] + a[r.x] * b[r.x]
    a.dim(0).set_min(0)
    b.dim(0).set_bounds(0, n)

    def schedule():
        ro, ri = hl.RVar("ro"), hl.RVar("ri")
        u = hl.Var("u")
        intm = dot.update().split(r.x, ro, ri, 8).rfactor(ri, u)
        intm.compute_root().vectorize(u, 8)
        intm.update().vectorize(u, 8)
        return [intm]

    return {"output": dot, "funcs": [dot], "args": [a, b], "schedule": schedule,
            "example": {"output": [], "a": [37], "b": [37]}}


def pipeline():
    return make(hl.UInt(32))
