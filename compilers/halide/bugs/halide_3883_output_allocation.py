# Halide issue #3883 (fixed by PR #3889, May 2019, in v14): an update that writes outside the
# window the output is realized on (corpus/bugs/halide_3883_output_allocation.sched):
#
#   f(x, y) = in(x, y);  g(x, y) = 1 + f(x, y);  RDom r(-10, 15, -10, 15);  g(r.x, r.y) *= 2;
#
# Before the fix, realize({W, H}) allocated g on the window [0, W) x [0, H) and the update wrote
# g(-10, -10); appending an identity Func h(x, y) = g(x, y) made it work. Since the fix, realize()
# allocates the union of the window and the update's footprint and returns a crop. A compiled
# pipeline (what `sched halide` lowers) does neither: it asserts that the output buffer covers
# the footprint. make("identity") (the default) is the workaround, where g is internal and Halide
# allocates it on the union; make("direct") has g as the output, whose buffer must then start at
# -10, which sched's convention (output mins are 0) excludes.
#
# Scaled to one dimension (g(x) = 1 + f(x); RDom r(-10, 15); g(r) *= 2): with the 2-D RDom
# the proof that the update's stores match the stage tensor times out (10 s per query).
import halide as hl


def make(case="identity"):
    # The issue uses floats; UInt(32) keeps the proof fast, and its arithmetic wraps (Int(32)'s
    # overflow is undefined in Halide: the proof would need 1 + inp(x) and its double in range).
    inp = hl.ImageParam(hl.UInt(32), 1, "inp")
    x = hl.Var("x")
    f, g = hl.Func("f"), hl.Func("g")
    f[x] = inp[x]
    g[x] = 1 + f[x]
    r = hl.RDom([(-10, 15)], "r")
    g[r.x] = g[r.x] * 2
    example = {"output": [8], "inp": [25], "inp.min": [-10]}
    if case == "direct":
        return {"output": g, "funcs": [f, g], "args": [inp], "example": example}
    h = hl.Func("h")
    h[x] = g[x]
    g.compute_root()
    return {"output": h, "funcs": [f, g, h], "args": [inp], "example": example}


def pipeline():
    return make("identity")
