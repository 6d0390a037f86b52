# Halide issue #6808: an RDom predicate that reads the Func the update writes, with the update
# parallel over the RDom (corpus/bugs/halide_6808_rdom_predicate_race.sched):
#
#   f(x) = inp(x);  RDom r(0, 10);  r.where(f(0) == 1);  f(r) = 2;  f.update().parallel(r);
#
# Iteration r = 0 writes f(0), which every iteration reads in its predicate: a race. Halide 14's
# race check (src/ParallelRVar.cpp, can_parallelize_rvar) looks at the loads of the update's value
# only, so it accepts the schedule; PR #6842 (July 2022, first released in v15.0.0) adds the
# predicate's loads. f's pure value reads an input (the issue uses 1) so that the predicate
# depends on data. make(case) also builds the three programs of PR #6842's
# test/correctness/reduction_predicate_racing.cpp, which do not race, the trigger left serial, and
# the trigger with f(x) = 2 * inp(x) ("never"): f(0) == 1 never holds, so Halide's code never
# stores in the update and does not race, though the select of its translation does.
import halide as hl


def make(case="trigger"):
    inp = hl.ImageParam(hl.UInt(32), 1, "inp")  # wraps: no overflow obligation beside the point
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = inp[x] * 2 if case == "never" else inp[x]
    size = 20 if case == "even_odd" else 11 if case == "from_1" else 10
    r = hl.RDom([(1 if case == "from_1" else 0, 10)], "r")
    if case in ("trigger", "serial", "from_1", "never"):
        r.where(f[0] == 1)  # (a) from_1: the RDom does not contain 0, so nobody writes f(0)
        f[r.x] = hl.u32(2)
    elif case == "own_cell":
        r.where(f[r.x] == 1)  # (b) each iteration reads and writes its own cell
        f[r.x] = hl.u32(2)
    elif case == "even_odd":
        r.where(f[2 * r.x] == 1)  # (c) reads the even cells, writes the odd ones
        f[2 * r.x + 1] = hl.u32(2)
    else:
        raise ValueError(case)
    if case != "serial":
        f.update().parallel(r.x)
    f.output_buffer().dim(0).set_bounds(0, size)  # realized over the cells the update writes
    return {"output": f, "funcs": [f], "args": [inp], "example": {"output": [size], "inp": [size]}}


def pipeline():
    return make("trigger")
