# sdot (thesis Table 6.1): Halide v14 apps/linear_algebra/src/blas_l1_generators.cpp, DotGenerator
# <float> with vectorize = true (8 lanes on AVX2). sum(...) is written as Funcs with an update (what
# sum() builds: its anonymous Func cannot be listed from Python).
import halide as hl

VEC = 8


def pipeline():
    x_ = hl.ImageParam(hl.Float(32), 1, "x")
    y_ = hl.ImageParam(hl.Float(32), 1, "y")
    size = x_.width()
    size_vecs = size / VEC
    size_tail = size - size_vecs * VEC
    i = hl.Var("i")
    dot = hl.Func("dot")
    k = hl.RDom([(0, size_vecs)], "k")
    dot[i] = hl.f32(0)
    dot[i] = dot[i] + x_[k.x * VEC + i] * y_[k.x * VEC + i]
    lanes = hl.RDom([(0, VEC)], "lanes")
    tail = hl.RDom([(size_vecs * VEC, size_tail)], "tail")
    sum1, sum2 = hl.Func("sum_lanes"), hl.Func("sum_tail")
    sum1[()] = hl.f32(0)
    sum1[()] = sum1[()] + dot[lanes.x]
    sum2[()] = hl.f32(0)
    sum2[()] = sum2[()] + x_[tail.x] * y_[tail.x]
    result = hl.Func("result")
    result[i] = hl.undef(hl.Float(32))
    result[0] = sum1[()]
    result[0] = result[0] + sum2[()]
    dot.compute_root().vectorize(i)
    dot.update(0).vectorize(i)
    x_.dim(0).set_min(0)
    y_.dim(0).set_bounds(0, size)
    # result(i) = undef except result(0): the one meaningful output cell is result(0).
    return {"output": result, "funcs": [dot, sum1, sum2, result], "args": [x_, y_], "assume": ["result.extent.0 == 1"],
            "example": {"output": [1], "x": [37], "y": [37]}}
