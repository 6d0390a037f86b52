# Halide issue #4423 ("RoundUp behavior on integer funcs can cause arithmetic exceptions"), fixed
# by PR #4439 (define_div_by_zero, in v14): integer x / 0 is 0 (corpus/bugs/halide_4423_*.sched).
#
#   output_i(x) = 100 / (27 - x);  split(x, xo, xi, 8, RoundUp);  realize(25)
#
# The rounded-up loop covers [0, 32), x = 27 included, which trapped before the fix. A compiled
# pipeline asserts that the output buffer covers the rounded-up region (25 cells violate it), so
# the JIT example realizes 32 cells: x = 27 is then in the window, and 100 / 0 = 0 in both Halide
# and SCHED.
import halide as hl


def pipeline():
    x, xo, xi = hl.Var("x"), hl.Var("xo"), hl.Var("xi")
    out = hl.Func("output_i")
    out[x] = 100 / (27 - x)
    out.split(x, xo, xi, 8, hl.TailStrategy.RoundUp)
    # A fixed window: over a symbolic extent, proving i32(xo) * 8 + i32(xi) = i32(8 xo + xi) under
    # the division times out (60 s per query).
    out.output_buffer().dim(0).set_bounds(0, 32)
    return {"output": out, "funcs": [out], "args": [], "example": {"output": [32]}}
