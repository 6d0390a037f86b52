# UInt(64) values beyond 2^53 (near-equal ones): the JIT oracle passed them through JSON doubles and
# compared integer outputs with a float tolerance, so two different large integers could "agree"
# and equal ones "differ". Expected: valid; the JIT exact on seeded inputs uniform over UInt(64).
import halide as hl

TRUTH = {"inputs": {"a": [2 ** 63 + 1, 2 ** 64 - 1, 2 ** 53 + 1], "b": [2 ** 63, 2 ** 64 - 1, 2 ** 53]}, "output": [3]}


def reference(a, b):
    return [((x * 3 + 1) % 2 ** 64) + (1 if x == y + 1 else 0) for x, y in zip(a, b)]


def pipeline():
    a = hl.ImageParam(hl.UInt(64), 1, "a")
    b = hl.ImageParam(hl.UInt(64), 1, "b")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = a[x] * hl.u64(3) + hl.u64(1) + hl.select(a[x] == b[x] + hl.u64(1), hl.u64(1), hl.u64(0))
    return {"output": f, "funcs": [f], "args": [a, b], "example": {"output": [8], "a": [8], "b": [8]}}
