# A sum over an input that may be empty: f() = 7 + sum(a(r)). With a of extent 0 the algorithm is 7,
# but an empty Halide::Buffer has no memory, which Halide reads as a bounds query: realize computes
# nothing and returns (the output keeps what it held). Before, the verdict allowed extent 0.
# Expected: valid, for a_extent_0 >= 1 (stated).
import halide as hl

TRUTH = {"inputs": {"a": []}, "output": [], "output_before": 12345}


def reference(a):
    return [7 + sum(a)]


def pipeline():
    a = hl.ImageParam(hl.UInt(32), 1, "a")
    r = hl.RDom([(0, a.width())], "r")
    f = hl.Func("f")
    f[()] = hl.u32(7)
    f[()] = f[()] + a[r.x]
    return {"output": f, "funcs": [f], "args": [a], "example": {"output": [], "a": [5]}}
