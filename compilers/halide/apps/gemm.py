# The GEMM generator of Halide v14's apps/linear_algebra/src/blas_l3_generators.cpp (float, x86-64
# AVX2: natural vector size 8, s = 16), as a function of the transpose flags. The Table 6.1 kernels
# sgemm, sgemm1024, sqsgemm, bigsqsgemm, bigsgemm, sgemmTA, sgemmTB are scripts calling it.
import halide as hl

VEC = 8


def gemm(transpose_A=False, transpose_B=False):
    a_ = hl.Param(hl.Float(32), "a", 1.0)
    A_ = hl.ImageParam(hl.Float(32), 2, "A")
    B_ = hl.ImageParam(hl.Float(32), 2, "B")
    b_ = hl.Param(hl.Float(32), "b", 1.0)
    C_ = hl.ImageParam(hl.Float(32), 2, "C")
    num_rows = A_.width()
    num_cols = B_.height()
    sum_size = A_.height()
    s = VEC * 2
    A_in, B_in = A_, B_
    transpose_AB = transpose_A and transpose_B
    tA = (not transpose_AB) and transpose_A
    tB = (not transpose_AB) and transpose_B
    if transpose_AB:
        A_in, B_in = B_, A_
    i, j, ii, ji, io, jo, t = (hl.Var(n) for n in ("i", "j", "ii", "ji", "io", "jo", "t"))
    ti = [hl.Var("ti%d" % k) for k in range(3)]
    tj = [hl.Var("tj%d" % k) for k in range(3)]
    result = hl.Func("result")
    A, B, Btmp, As, Atmp = hl.Func("A_f"), hl.Func("B_f"), hl.Func("Btmp"), hl.Func("As"), hl.Func("Atmp")
    # BoundaryConditions::constant_exterior(A_in, 0), written out (its inner Func cannot be listed
    # from Python): 0 outside the buffer, the clamped read inside.
    inside = (i >= 0) & (i < A_in.width()) & (j >= 0) & (j < A_in.height())
    Atmp[i, j] = hl.select(inside, A_in[hl.clamp(i, 0, A_in.width() - 1), hl.clamp(j, 0, A_in.height() - 1)], hl.f32(0))
    if tA:
        As[i, j, io] = Atmp[j, io * s + i]
    else:
        As[i, j, io] = Atmp[io * s + i, j]
    A[i, j] = As[i % s, j, i / s]
    Btmp[i, j] = B_in[i, j]
    if tB:
        B[i, j] = Btmp[j, i]
    else:
        B[i, j] = Btmp[i, j]
    k = hl.Var("k")
    prod = hl.Func("prod")
    prod[k, i, j] = A[i, k] * B[k, j]
    AB = hl.Func("AB")
    rv = hl.RDom([(0, sum_size)], "rv")
    AB[i, j] = hl.f32(0)  # what C++'s `AB(i, j) += …` on an undefined Func defines first
    AB[i, j] = AB[i, j] + prod[rv.x, i, j]
    ABt = hl.Func("ABt")
    if transpose_AB:
        ABt[i, j] = AB[j, i]
    else:
        ABt[i, j] = AB[i, j]
    result[i, j] = a_ * ABt[i, j] + b_ * C_[i, j]

    result.tile(i, j, ti[1], tj[1], i, j, 2 * s, 2 * s, hl.TailStrategy.GuardWithIf)
    if transpose_AB:
        result.tile(i, j, ii, ji, 4, s).tile(i, j, ti[0], tj[0], i, j, s // 4, 1)
    else:
        result.tile(i, j, ii, ji, s, 4).tile(i, j, ti[0], tj[0], i, j, 1, s // 4)
    result.specialize((num_rows >= 512) & (num_cols >= 512)).fuse(tj[1], ti[1], t).parallel(t)
    result.specialize((num_rows >= 128) & (num_cols >= 128)).tile(ti[1], tj[1], ti[2], tj[2], ti[1], tj[1], 2, 2).fuse(tj[2], ti[2], t).parallel(t)
    result.rename(tj[0], t)
    result.bound(i, 0, num_rows).bound(j, 0, num_cols)
    As.compute_root().split(j, jo, ji, s).reorder(i, ji, io, jo).unroll(i).vectorize(ji).specialize((A_.width() >= 256) & (A_.height() >= 256)).parallel(jo, 4)
    Atmp.compute_at(As, io).vectorize(i).unroll(j)
    if tB:
        B.compute_at(result, t).tile(i, j, ii, ji, 8, 8).vectorize(ii).unroll(ji)
        Btmp.reorder_storage(j, i).compute_at(B, i).vectorize(i).unroll(j)
    AB.compute_at(result, i).bound_extent(j, 4).unroll(j).bound_extent(i, s).vectorize(i).update().reorder(i, j, rv.x).unroll(j).unroll(rv.x, 2).vectorize(i)
    if transpose_AB:
        ABt.compute_at(result, i).bound_extent(i, 4).unroll(i).bound_extent(j, s).vectorize(j)
    A_.dim(0).set_min(0)
    A_.dim(1).set_min(0)
    B_.dim(0).set_bounds(0, sum_size)
    B_.dim(1).set_min(0)
    C_.dim(0).set_bounds(0, num_rows)
    C_.dim(1).set_bounds(0, num_cols)
    result.output_buffer().dim(0).set_bounds(0, num_rows)
    result.output_buffer().dim(1).set_bounds(0, num_cols)
    funcs = [Atmp, As, A, Btmp, B, prod, AB, ABt, result]
    return {"output": result, "funcs": funcs, "args": [a_, A_, B_, b_, C_],
            "example": {"output": [64, 32], "A": [64, 32], "B": [32, 32], "C": [64, 32], "a": 1.5, "b": 0.5},
            "A": A_, "B": B_}
