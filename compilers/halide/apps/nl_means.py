# nl_means (thesis Table 6.1): non-local means, Halide v14 apps/nl_means/nl_means_generator.cpp,
# CPU schedule. The app's inline reductions sum(...) are written as Funcs with an update (what sum()
# builds), since their anonymous Funcs cannot be listed from Python; repeat_edge is written out.
import halide as hl


def pipeline():
    inp = hl.ImageParam(hl.Float(32), 3, "input")
    patch_size = hl.Param(hl.Int(32), "patch_size")
    search_area = hl.Param(hl.Int(32), "search_area")
    sigma = hl.Param(hl.Float(32), "sigma")
    x, y, c, dx, dy = hl.Var("x"), hl.Var("y"), hl.Var("c"), hl.Var("dx"), hl.Var("dy")
    inv_sigma_sq = -1.0 / (sigma * sigma * patch_size * patch_size)
    clamped = hl.Func("clamped")
    clamped[x, y, c] = inp[hl.clamp(x, inp.dim(0).min(), inp.dim(0).max()), hl.clamp(y, inp.dim(1).min(), inp.dim(1).max()),
                           hl.clamp(c, inp.dim(2).min(), inp.dim(2).max())]
    dc = hl.Func("dc")
    dc[x, y, dx, dy, c] = hl.pow(clamped[x, y, c] - clamped[x + dx, y + dy, c], 2)
    channels = hl.RDom([(0, 3)], "channels")
    d = hl.Func("d")
    d[x, y, dx, dy] = hl.f32(0)
    d[x, y, dx, dy] = d[x, y, dx, dy] + dc[x, y, dx, dy, channels.x]
    patch_dom = hl.RDom([(-patch_size / 2, patch_size)], "patch_dom")
    blur_d_y = hl.Func("blur_d_y")
    blur_d_y[x, y, dx, dy] = hl.f32(0)
    blur_d_y[x, y, dx, dy] = blur_d_y[x, y, dx, dy] + d[x, y + patch_dom.x, dx, dy]
    blur_d = hl.Func("blur_d")
    blur_d[x, y, dx, dy] = hl.f32(0)
    blur_d[x, y, dx, dy] = blur_d[x, y, dx, dy] + blur_d_y[x + patch_dom.x, y, dx, dy]
    w = hl.Func("w")
    w[x, y, dx, dy] = hl.fast_exp(blur_d[x, y, dx, dy] * inv_sigma_sq)
    cwa = hl.Func("clamped_with_alpha")
    cwa[x, y, c] = hl.select(c == 0, clamped[x, y, 0], c == 1, clamped[x, y, 1], c == 2, clamped[x, y, 2], hl.f32(1))
    s_dom = hl.RDom([(-search_area / 2, search_area), (-search_area / 2, search_area)], "s_dom")
    nlm_sum = hl.Func("non_local_means_sum")
    nlm_sum[x, y, c] = hl.f32(0)
    nlm_sum[x, y, c] = nlm_sum[x, y, c] + w[x, y, s_dom.x, s_dom.y] * cwa[x + s_dom.x, y + s_dom.y, c]
    nlm = hl.Func("non_local_means")
    nlm[x, y, c] = hl.clamp(nlm_sum[x, y, c] / nlm_sum[x, y, 3], hl.f32(0), hl.f32(1))
    nlm.output_buffer().dim(2).set_bounds(0, 3)
    tx, ty, xi, yi = hl.Var("tx"), hl.Var("ty"), hl.Var("xi"), hl.Var("yi")
    nlm.compute_root().reorder(c, x, y).tile(x, y, tx, ty, x, y, 16, 8).parallel(ty).vectorize(x, 8)
    blur_d_y.compute_at(nlm, tx).reorder(y, x).vectorize(x, 8)
    d.compute_at(nlm, tx).vectorize(x, 8)
    nlm_sum.compute_at(nlm, x).reorder(c, x, y).bound(c, 0, 4).unroll(c).vectorize(x, 8)
    nlm_sum.update(0).reorder(c, x, y, s_dom.x, s_dom.y).unroll(c).vectorize(x, 8)
    blur_d.compute_at(nlm_sum, x).vectorize(x, 8)
    funcs = [clamped, dc, d, blur_d_y, blur_d, w, cwa, nlm_sum, nlm]
    return {"output": nlm, "funcs": funcs, "args": [inp, patch_size, search_area, sigma]}
