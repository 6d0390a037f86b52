# A producer computed only where a select chooses it (issue 33, case 12 of `sched fuzz --compiler
# halide --seed 33`): P is compute_at Q's x, and bounds inference with the select's condition
# computes P(x + 1) only where 0 <= x + 1 < 4. The select still reads P's cell on every x and
# discards it where it was never computed: an undef load of the allocation, defined in Halide.
# Expected: valid (the read is a `load`, whose ⊥ the select discards), the JIT bit for bit.
import halide as hl

TRUTH = {"inputs": {"a": [5, -7, 300, 20000, -2, 8, 1, 2]}, "output": [6]}


def reference(a):
    # Int(16) arithmetic wraps (no overflow to check): 20000 * 2 + 1 is -25535.
    return [((a[x + 1] * 2 + 1 + 2 ** 15) % 2 ** 16 - 2 ** 15) if 0 <= x + 1 < 4 else 0 for x in range(6)]


def pipeline():
    a = hl.ImageParam(hl.Int(16), 1, "a")
    x = hl.Var("x")
    p = hl.Func("P")
    q = hl.Func("Q")
    p[x] = a[x] * hl.i16(2) + hl.i16(1)
    q[x] = hl.select((x + 1 >= 0) & (x + 1 < 4), p[x + 1], hl.i16(0))
    p.compute_at(q, x)
    return {"output": q, "funcs": [p, q], "args": [a], "example": {"output": [6], "a": [8]}}
