# Halide issue #4385 ("What does it mean to have an RDom with a negative extent?"):
# corpus/bugs/halide_4385_negative_rdom.sched.
#
#   f(x) = in(x);  RDom r(0, n);  f(0) += 1 (for each r);      n a Param of any sign
#
# The issue asked whether a negative extent is an error, a no-op or a reverse traversal. Halide 14
# lowers the RDom to a loop `for (f.s1.r$x, 0, n)`, which runs no iteration when n <= 0: the no-op
# reading, SCHED's too. Here f is 0-dimensional (f() = in(0)): with the 1-D f the proof
# that the cells x != 0 keep their value through the n-stage chain times out. The example runs
# the JIT with n = -3.
import halide as hl


def pipeline():
    inp = hl.ImageParam(hl.UInt(32), 1, "inp")  # wraps: no overflow obligation beside the point
    n = hl.Param(hl.Int(32), "n")
    f = hl.Func("f")
    f[()] = inp[0]
    r = hl.RDom([(0, n)], "r")
    f[()] = f[()] + hl.select(r.x >= 0, hl.u32(1), hl.u32(0))  # += 1 per iteration; the update must mention r to iterate it
    return {"output": f, "funcs": [f], "args": [inp, n], "example": {"output": [], "inp": [1], "n": -3}}
