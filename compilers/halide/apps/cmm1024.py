# cmm1024 (thesis Table 6.1): Halide v14 apps/cuda_mat_mul/mat_mul_generator.cpp with size 1024,
# its CUDA schedule, lowered for a CUDA target (lowering only: no GPU is needed). GPU blocks and
# threads are translated as parallel loops.
import halide as hl

SIZE = 1024


def pipeline():
    A = hl.ImageParam(hl.Float(32), 2, "A")
    B = hl.ImageParam(hl.Float(32), 2, "B")
    x, y = hl.Var("x"), hl.Var("y")
    prod, out = hl.Func("prod"), hl.Func("out")
    r = hl.RDom([(0, SIZE)], "r")
    prod[x, y] = hl.f32(0)  # what C++'s `prod(x, y) += …` on an undefined Func defines first
    prod[x, y] = prod[x, y] + A[x, r.x] * B[r.x, y]
    out[x, y] = prod[x, y]
    xi, yi, xii, yii = hl.Var("xi"), hl.Var("yi"), hl.Var("xii"), hl.Var("yii")
    out.bound(x, 0, SIZE).bound(y, 0, SIZE).tile(x, y, xi, yi, 64, 16).tile(xi, yi, xii, yii, 4, 8) \
        .gpu_blocks(x, y).gpu_threads(xi, yi).unroll(xii).unroll(yii)
    prod.compute_at(out, xi).vectorize(x).unroll(y).update().reorder(x, y, r.x).vectorize(x).unroll(y).unroll(r.x, 8)
    A_in, B_in = getattr(A, "in")(), getattr(B, "in")()  # ImageParam.in()
    A_in.compute_at(prod, r.x).vectorize(hl._0).unroll(hl._1)
    B_in.compute_at(prod, r.x).vectorize(hl._0).unroll(hl._1)
    for p in (A, B):
        p.dim(0).set_bounds(0, SIZE)
        p.dim(1).set_stride(SIZE)
    out.output_buffer().dim(0).set_bounds(0, SIZE)
    out.output_buffer().dim(1).set_stride(SIZE)
    return {"output": out, "funcs": [prod, out, A_in, B_in], "args": [A, B], "target": "x86-64-linux-cuda"}
