# A dot product over an RDom, rfactor'd as Halide users write it: the RVar split by 8, the inner
# part made a pure variable u of the intermediate Func, whose update is vectorized over u; the
# output then sums the 8 partial sums. The schedule is applied by pipeline()'s `schedule` hook, so
# that the spec is the reduction as written (docs/halide.md, "rfactor"). SCHED_DOT_TYPE=f32 makes
# it a float dot product (valid only up to reassociation).
import os

import halide as hl

TYPE = hl.Float(32) if os.environ.get("SCHED_DOT_TYPE") == "f32" else hl.Int(32)


def pipeline():
    a = hl.ImageParam(TYPE, 1, "a")
    b = hl.ImageParam(TYPE, 1, "b")
    n = a.width()
    r = hl.RDom([(0, n)], "r")
    dot = hl.Func("dot")
    dot[()] = hl.cast(TYPE, 0)
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
