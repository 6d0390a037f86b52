# conv_layer (thesis Table 6.1): Halide v14 apps/conv_layer/conv_layer_generator.cpp, x86 AVX2
# schedule (vec = 8, tile 3 x 4), with the app's fixed sizes N = 5, CI = CO = 128, W = 100, H = 80.
import halide as hl

N, CI, CO, W, H = 5, 128, 128, 100, 80
VEC, TILE_W, TILE_H = 8, 3, 4


def pipeline():
    inp = hl.ImageParam(hl.Float(32), 4, "input")
    filt = hl.ImageParam(hl.Float(32), 4, "filter")
    bias = hl.ImageParam(hl.Float(32), 1, "bias")
    x, y, c, n = hl.Var("x"), hl.Var("y"), hl.Var("c"), hl.Var("n")
    conv = hl.Func("conv")
    r = hl.RDom([(0, CI), (0, 3), (0, 3)], "r")
    conv[c, x, y, n] = bias[c]
    conv[c, x, y, n] = conv[c, x, y, n] + filt[c, r.y, r.z, r.x] * inp[r.x, x + r.y, y + r.z, n]
    relu = hl.Func("relu")
    relu[c, x, y, n] = hl.max(0, conv[c, x, y, n])
    relu.bound(x, 0, W).bound(y, 0, H).bound(c, 0, CO).bound(n, 0, N)
    ob = relu.output_buffer()
    ob.dim(0).set_bounds(0, CO).set_stride(1)
    ob.dim(1).set_bounds(0, W).set_stride(CO)
    ob.dim(2).set_bounds(0, H).set_stride(CO * W)
    ob.dim(3).set_bounds(0, N).set_stride(CO * H * W)
    inp.dim(0).set_bounds(0, CI).set_stride(1)
    inp.dim(1).set_bounds(0, W + 2).set_stride(CI)
    inp.dim(2).set_bounds(0, H + 2).set_stride(CI * (W + 2))
    inp.dim(3).set_bounds(0, N).set_stride(CI * (W + 2) * (H + 2))
    filt.dim(0).set_bounds(0, CO).set_stride(1)
    filt.dim(1).set_bounds(0, 3).set_stride(CO)
    filt.dim(2).set_bounds(0, 3).set_stride(CO * 3)
    filt.dim(3).set_bounds(0, CI).set_stride(CO * 3 * 3)
    bias.dim(0).set_bounds(0, CO).set_stride(1)
    co, ci, xo, xi = hl.Var("co"), hl.Var("ci"), hl.Var("xo"), hl.Var("xi")
    relu.split(c, co, ci, VEC * TILE_W).split(x, xo, xi, TILE_H).reorder(ci, xi, xo, y, n, co) \
        .vectorize(ci, VEC).unroll(ci).unroll(xi).parallel(y).parallel(n).parallel(co)
    conv.compute_at(relu, xo).vectorize(c, VEC).unroll(c).unroll(x).unroll(y) \
        .update().reorder(c, x, y, r.x, r.y, r.z, n).vectorize(c, VEC).unroll(c).unroll(x).unroll(y).unroll(r.x, 2)
    filt_in = getattr(filt, "in")()
    filt_in.compute_at(conv, r.x).vectorize(hl._0, VEC).unroll(hl._0).unroll(hl._3)
    inp_in = getattr(inp, "in")()
    inp_in.compute_at(conv, x).unroll(hl._0)
    return {"output": relu, "funcs": [conv, relu, filt_in, inp_in], "args": [inp, filt, bias]}
