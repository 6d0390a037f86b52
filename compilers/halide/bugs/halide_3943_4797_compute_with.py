# Halide issue #3943 (PR #3947) and PR #4797 (April 2020, in v14): `compute_with` of an update
# with another Func's pure stage (corpus/bugs/halide_3943_4797_compute_with.sched):
#
#   f(x, y) = 0;  f(x, y) += 1;   g(x, y) = 1;  g(x, y) += 2;
#   f.compute_root(); g.compute_root(); f.update(0).compute_with(g, y);
#
# Before the fix, f's update was fused into g's pure loop and f's pure loop came after it, so f's
# update read f before its pure definition wrote it. The issue realizes f and g as two outputs;
# sched's convention has one output Func, so out(x, y) = f(x, y) + 10 g(x, y) reads both.
import halide as hl


def pipeline():
    x, y = hl.Var("x"), hl.Var("y")
    f, g, out = hl.Func("f"), hl.Func("g"), hl.Func("out")
    f[x, y] = 0
    f[x, y] = f[x, y] + 1
    g[x, y] = 1
    g[x, y] = g[x, y] + 2
    out[x, y] = f[x, y] + 10 * g[x, y]
    f.compute_root()
    g.compute_root()
    f.update(0).compute_with(hl.LoopLevel(g, y, 0))  # g.s0; Python has no compute_with(Func, Var)
    return {"output": out, "funcs": [f, g, out], "args": [], "example": {"output": [7, 5]}}
