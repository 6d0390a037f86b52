# Halide's cast to bool keeps the low bit (LLVM trunc): (bool)2 is false. SCHED's bool(e) is e != 0;
# translated as such, spec and translation agreed and realize did not. Expected: valid, the JIT
# bit for bit.
import halide as hl

TRUTH = {"inputs": {"a": [2, 3, 0, 255]}, "output": [4]}


def reference(a):
    return [10 if v & 1 else 20 for v in a]


def pipeline():
    a = hl.ImageParam(hl.UInt(8), 1, "a")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = hl.select(hl.cast(hl.Bool(), a[x]), hl.u8(10), hl.u8(20))
    return {"output": f, "funcs": [f], "args": [a], "example": {"output": [8], "a": [8]}}
