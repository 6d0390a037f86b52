# dsc (thesis Table 6.1): depthwise separable convolution, Halide v14
# apps/depthwise_separable_conv/depthwise_separable_conv_generator.cpp, CPU schedule for x86-64 AVX2
# (vec 8, 16 registers: tile_d = 16, tile_w = 3, tile_h = 2), channel multiplier 3 as in the thesis
# (a buffer constraint; the app's specialisation for multiplier 1 is then never taken).
import halide as hl

VEC, TILE_D, TILE_W, TILE_H = 8, 16, 3, 2


def pipeline():
    inp = hl.ImageParam(hl.Float(32), 4, "input")
    dwf = hl.ImageParam(hl.Float(32), 4, "depthwise_filter")
    pwf = hl.ImageParam(hl.Float(32), 2, "pointwise_filter")
    bias = hl.ImageParam(hl.Float(32), 1, "bias")
    x, y, d, b = hl.Var("x"), hl.Var("y"), hl.Var("d"), hl.Var("b")
    input_bounded = hl.Func("input_bounded")
    in_bounds = (x >= 0) & (x < inp.dim(1).extent()) & (y >= 0) & (y < inp.dim(2).extent())
    cx = hl.clamp(x, 0, inp.dim(1).max())
    cy = hl.clamp(y, 0, inp.dim(2).max())
    input_bounded[d, x, y, b] = hl.select(in_bounds, inp[d, cx, cy, b], hl.f32(0))
    # The channel multiplier is depthwise_filter.dim(0).extent() in the app; fixed to 3 here (and
    # by a buffer constraint below), since a division by a buffer extent is not affine.
    cm = 3
    dw = hl.Func("depthwise_convolved")
    pad_w = dwf.dim(2).extent() / 2
    pad_h = dwf.dim(3).extent() / 2
    dom = hl.RDom([(0, dwf.dim(0).extent()), (0, dwf.dim(2).extent()), (0, dwf.dim(3).extent())], "dom")
    rd, rx, ry = dom.x, dom.y, dom.z
    dw[d, x, y, b] = hl.f32(0)  # what C++'s `+=` on an undefined Func defines first
    dw[d, x, y, b] = dw[d, x, y, b] + dwf[rd, d, rx, ry] * input_bounded[d / cm, x + rx - pad_w, y + ry - pad_h, b]
    pw = hl.Func("pointwise_convolved")
    rc = hl.RDom([(0, pwf.dim(1).extent())], "rc")
    pw[d, x, y, b] = bias[d]
    pw[d, x, y, b] = pw[d, x, y, b] + pwf[d, rc.x] * dw[rc.x, x, y, b]
    output = hl.Func("output")
    output[d, x, y, b] = hl.max(pw[d, x, y, b], hl.f32(0))
    di, xi, yi = hl.Var("di"), hl.Var("xi"), hl.Var("yi")
    ro, ri = hl.RVar("ro"), hl.RVar("ri")
    output.tile([d, x, y], [di, xi, yi], [TILE_D, TILE_W, TILE_H]).vectorize(di).unroll(xi).unroll(yi).fuse(y, b, b).parallel(b)
    pw.compute_at(output, d).vectorize(d).unroll(x).unroll(y).update().reorder(d, x, y, rc.x, b) \
        .vectorize(d).unroll(x).unroll(y).split(rc.x, ro, ri, TILE_D)
    dw.store_in(hl.MemoryType.Stack).bound_extent(d, TILE_D).compute_at(pw, ro).vectorize(d).reorder(x, y, d) \
        .unroll(x).unroll(y).update().vectorize(d).reorder(x, y, d, rd, rx, ry, b).unroll(x).unroll(y)
    input_bounded.store_in(hl.MemoryType.Stack).compute_at(pw, ro).tile(d, x, di, xi, VEC, 4, hl.TailStrategy.RoundUp) \
        .vectorize(di).unroll(xi)
    dwf.dim(1).set_stride(cm)
    ic = pwf.dim(1).extent()
    output.specialize((cm == 1) & (ic == (ic / 32) * 32) & (dwf.dim(2).extent() == 3) & (dwf.dim(3).extent() == 3))
    dwf.dim(0).set_bounds(0, 3)  # channel multiplier 3
    return {"output": output, "funcs": [input_bounded, dw, pw, output], "args": [inp, dwf, pwf, bias]}
