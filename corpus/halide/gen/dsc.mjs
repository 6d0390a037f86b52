// Generates corpus/halide/dsc.sched: our own SCHED rendering of the lowering of halide/Halide
// v14.0.0 apps/depthwise_separable_conv/depthwise_separable_conv_generator.cpp. See the header.
// Usage: node corpus/halide/gen/dsc.mjs
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

const spec = `spec dsc {
  param CI, CO, W, H, B;                     // in channels, out channels, width, height, batch
  assume CI >= 1 && W >= 1 && H >= 1;
  input In(d, x, y, b): f32;                 // input [in_channels, width, height, batch]
  input DwF(m, d, fx, fy): f32;              // depthwise_filter, indexed (rd, d, rx, ry)
  input PwF(o, k): f32;                      // pointwise_filter [out_channels, 3 * CI]
  input Bias(o): f32;
  // input_bounded: zero outside the image in x and y (clamped reads)
  tensor InB(d, x, y, b): f32;
  InB(d, x, y, b) = select(x >= 0 && x < W && y >= 0 && y < H,
                           In(d, min(max(x, 0), W - 1), min(max(y, 0), H - 1), b), 0.0);
  // depthwise_convolved(d, x, y, b) += depthwise_filter(rd, d, rx, ry)
  //                                    * input_bounded(d / 3, x + rx - 1, y + ry - 1, b),
  //   RDom (rd, rx, ry) over [0, 3) x [0, 3) x [0, 3), rd innermost. Channel multiplier 3 (the
  //   thesis's constant grouping factor), 3x3 filter (pad 1). Reduction index in loop order,
  //   outermost first: Dw(d, x, y, b, ry, rx, rd); (0, 0, -1) is the implicit pure value 0.
  tensor Dw(d, x, y, b, ry, rx, rd): f32;
  Dw(d, x, y, b, 0, 0, -1) = 0.0;
  Dw(d, x, y, b, 0, 0, 0) = Dw(d, x, y, b, 0, 0, -1) + DwF(0, d, 0, 0) * InB(d / 3, x - 1, y - 1, b);
  Dw(d, x, y, b, ry, 0, 0) = Dw(d, x, y, b, ry - 1, 2, 2) + DwF(0, d, 0, ry) * InB(d / 3, x - 1, y + ry - 1, b)
    where 1 <= ry && ry < 3;
  Dw(d, x, y, b, ry, rx, 0) = Dw(d, x, y, b, ry, rx - 1, 2) + DwF(0, d, rx, ry) * InB(d / 3, x + rx - 1, y + ry - 1, b)
    where 0 <= ry && ry < 3 && 1 <= rx && rx < 3;
  Dw(d, x, y, b, ry, rx, rd) = Dw(d, x, y, b, ry, rx, rd - 1) + DwF(rd, d, rx, ry) * InB(d / 3, x + rx - 1, y + ry - 1, b)
    where 0 <= ry && ry < 3 && 0 <= rx && rx < 3 && 1 <= rd && rd < 3;
  // pointwise_convolved(d, x, y, b) = bias(d);
  // pointwise_convolved(d, x, y, b) += pointwise_filter(d, rc) * depthwise_convolved(rc, x, y, b), RDom rc(0, 3 * CI)
  tensor Pw(o, x, y, b, rc): f32;
  Pw(o, x, y, b, -1) = Bias(o);
  Pw(o, x, y, b, rc) = Pw(o, x, y, b, rc - 1) + PwF(o, rc) * Dw(rc, x, y, b, 2, 2, 2) where 0 <= rc && rc < 3 * CI;
  // The CO x W x H x B output.
  output Out(o, x, y, b): f32 = max(Pw(o, x, y, b, 3 * CI - 1), 0.0)
    where 0 <= o && o < CO && 0 <= x && x < W && 0 <= y && y < H && 0 <= b && b < B;
}`;

// mut: exactInput (input buffer of exactly CI channels), shortDw (depthwise computed on 15
// channels per slice), parRo (the outer loop of the split pointwise reduction made parallel)
function impl(name, mut = {}) {
  const L = [];
  const p = (d, s) => L.push('  '.repeat(d) + s);
  const nd = mut.shortDw ? 15 : 16;
  p(0, `impl ${name} of dsc {`);
  p(1, 'assume CI >= 16 && CI % 16 == 0 && CO >= 16 && W >= 3 && H >= 2 && B >= 1;');
  p(1, mut.exactInput
    ? 'input  inp: f32[CI, W, H, B] = In;'
    : 'input  inp: f32[CI + 2, W, H, B] = In;        // covers the RoundUp region of input_bounded (see header)');
  p(1, 'input  dwf: f32[3, 3 * CI, 3, 3] = DwF;');
  p(1, 'input  pwf: f32[CO, 3 * CI] = PwF;');
  p(1, 'input  bias: f32[CO] = Bias;');
  p(1, 'output out: f32[CO, W, H, B] = Out;');
  p(1, '// output.tile({d, x, y}, {di, xi, yi}, {16, 3, 2}).vectorize(di).unroll(xi).unroll(yi)');
  p(1, '//       .fuse(y, b, b).parallel(b)');
  p(1, 'par b < B do');
  p(2, 'par yt < (H + 1) / 2 do');
  p(3, 'for xt < (W + 2) / 3 do');
  p(4, 'for dt < (CO + 15) / 16 do');
  p(5, 'let y0 = min(2 * yt, H - 2) in');
  p(5, 'let x0 = min(3 * xt, W - 3) in');
  p(5, 'let d0 = min(16 * dt, CO - 16) in');
  p(5, '// pointwise_convolved.compute_at(output, d): a 16 x 3 x 2 local');
  p(5, 'allocate pw: f32[16, 3, 2] in {');
  p(6, '// pure definition: vectorize(d).unroll(x).unroll(y)');
  p(6, 'for yy < 2 do');
  p(7, 'for xx < 3 do');
  p(8, 'par dd < 16 do');
  p(9, 'pw[dd, xx, yy] {Pw(d0 + dd, x0 + xx, y0 + yy, b, -1)} := bias[d0 + dd];');
  p(6, '// update: reorder(d, x, y, rc, b).vectorize(d).unroll(x).unroll(y).split(rc, ro, ri, 16)');
  p(6, `${mut.parRo ? 'par' : 'for'} ro < (3 * CI + 15) / 16 do`);
  p(7, '// first input_bounded channel needed by this slice of 16 intermediate channels');
  p(7, 'let e0 = (16 * ro) / 3 in');
  p(7, '// input_bounded.compute_at(pointwise_convolved, ro).tile(d, x, di, xi, 8, 4, RoundUp)');
  p(7, '//   .vectorize(di).unroll(xi): 8 channels x 8 columns (rounded up from 6 x 5) x 4 rows');
  p(7, 'allocate ib: f32[8, 8, 4] in');
  p(7, '// depthwise_convolved.bound_extent(d, 16).compute_at(pointwise_convolved, ro)');
  p(7, 'allocate dw: f32[16, 3, 2] in {');
  p(8, 'for yy < 4 do');
  p(9, 'for xo2 < 2 do');
  p(10, 'for xi2 < 4 do');
  p(11, 'par di < 8 do');
  p(12, 'let xv = x0 - 1 + 4 * xo2 + xi2 in');
  p(12, 'let yv = y0 - 1 + yy in');
  p(12, 'ib[di, 4 * xo2 + xi2, yy] {InB(e0 + di, xv, yv, b)} :=');
  p(13, 'select(xv >= 0 && xv < W && yv >= 0 && yv < H,');
  p(13, '       inp[e0 + di, min(max(xv, 0), W - 1), min(max(yv, 0), H - 1), b], 0.0);');
  p(8, '// depthwise pure definition: vectorize(d).reorder(x, y, d).unroll(x).unroll(y)');
  p(8, `par dd < ${nd} do`);
  p(9, 'for yy < 2 do');
  p(10, 'for xx < 3 do');
  p(11, `dw[dd, xx, yy] {Dw(16 * ro + dd, x0 + xx, y0 + yy, b, 0, 0, ${mut.dwInitAnnot ? '0' : '-1'})} := 0.0;`);
  p(8, '// depthwise update: vectorize(d).reorder(x, y, d, rd, rx, ry, b).unroll(x).unroll(y)');
  p(8, 'for ry < 3 do');
  p(9, 'for rx < 3 do');
  p(10, 'for rd < 3 do');
  p(11, `par dd < ${nd} do`);
  p(12, 'for yy < 2 do');
  p(13, 'for xx < 3 do');
  p(14, 'dw[dd, xx, yy] {Dw(16 * ro + dd, x0 + xx, y0 + yy, b, ry, rx, rd)} :=');
  p(15, 'dw[dd, xx, yy] + dwf[rd, 16 * ro + dd, rx, ry] * ib[(16 * ro + dd) / 3 - e0, xx + rx, yy + ry];');
  p(8, '// pointwise update on this slice (GuardWithIf for the split RVar)');
  p(8, 'for ri < 16 do');
  p(9, 'let rc = 16 * ro + ri in');
  p(9, 'if rc < 3 * CI then');
  p(10, 'for yy < 2 do');
  p(11, 'for xx < 3 do');
  p(12, 'par dd < 16 do');
  p(13, 'pw[dd, xx, yy] {Pw(d0 + dd, x0 + xx, y0 + yy, b, rc)} := pw[dd, xx, yy] + pwf[d0 + dd, rc] * dw[ri, xx, yy]');
  p(7, '};');
  p(6, '// output (the ReLU) on the 16 x 3 x 2 tile');
  p(6, 'for yi < 2 do');
  p(7, 'for xi < 3 do');
  p(8, 'par di < 16 do');
  p(9, 'out[d0 + di, x0 + xi, y0 + yi, b] {Out(d0 + di, x0 + xi, y0 + yi, b)} := max(pw[di, xi, yi], 0.0)');
  p(5, '}');
  p(0, '}');
  return L.join('\n');
}

const header = `// EXPECT dsc_halide: valid
// EXPECT dsc_exact_input_buffer: invalid out-of-bounds
// EXPECT dsc_short_depthwise_slice: invalid uninitialized-read
// EXPECT dsc_parallel_channel_slices: invalid race
// EXPECT dsc_depthwise_init_annotation: invalid annotation-mismatch
//
// dsc (thesis Table 6.1): depthwise separable convolution (depthwise 3x3, pointwise, ReLU).
// GENERATED by corpus/halide/gen/dsc.mjs (edit the generator, not this file).
// Follows halide/Halide tag v14.0.0,
// apps/depthwise_separable_conv/depthwise_separable_conv_generator.cpp, CPU schedule for x86 with
// AVX2 (vec = 8, 16 registers: tile_d = 2 * 8 = 16, tile_w = 3, tile_h = 2):
//   output.tile({d, x, y}, {di, xi, yi}, {16, 3, 2}).vectorize(di).unroll(xi).unroll(yi)
//         .fuse(y, b, b).parallel(b);
//   pointwise_convolved.compute_at(output, d).vectorize(d).unroll(x).unroll(y)
//         .update().reorder(d, x, y, rc, b).vectorize(d).unroll(x).unroll(y).split(rc, ro, ri, 16);
//   depthwise_convolved.store_in(Stack).bound_extent(d, 16).compute_at(pointwise_convolved, ro)
//         .vectorize(d).reorder(x, y, d).unroll(x).unroll(y)
//         .update().vectorize(d).reorder(x, y, d, rd, rx, ry, b).unroll(x).unroll(y);
//   input_bounded.store_in(Stack).compute_at(pointwise_convolved, ro)
//         .tile(d, x, di, xi, 8, 4, TailStrategy::RoundUp).vectorize(di).unroll(xi);
// As in the thesis, the channel multiplier (depthwise_filter.dim(0).extent()) is the constant 3,
// which makes d / channel_multiplier affine, and the filter is 3x3 (pad 1); the intermediate
// channel count pointwise_filter.dim(1).extent() is 3 * CI. With a multiplier of 3 the
// specialisation of the source (channel_multiplier == 1 && ...) is statically false, so only the
// generic code is generated.
// Lowering: ShiftInwards tiles of the output (the fused parallel loop over (b, y tiles) has benign
// write-write races on out at the last row tile); the rc split is GuardWithIf (an RVar); the
// RVars keep their order (ry, rx, rd and rc), so every accumulation is annotated with its stage.
// input_bounded is realised per slice ro on the 6 x 5 x 4 region the 16 intermediate channels
// need, rounded up by the RoundUp tile to 8 channels x 8 columns: the RoundUp rows past the needed
// region read input channels up to CI + 1. Halide's bounds inference makes that the required
// region of the input, so the caller must pass a buffer of CI + 2 channels: we declare it so
// (dsc_exact_input_buffer is the same code with an input of exactly CI channels).
// Assumptions: CI % 16 == 0 (so the bound_extent(d, 16) slices stay inside the 3 * CI
// intermediate channels and the depthwise filter), CO >= 16, W >= 3, H >= 2 (the tile sizes).
// Simplifications: store_in(Stack) dropped; unrolled loops are loops; vector loops are \`par\`
// lanes; the realised y and b extents of the locals (1) are omitted.
// Mutants: dsc_exact_input_buffer (above); dsc_short_depthwise_slice computes the depthwise stage on
// 15 channels per slice (bound_extent off by one); dsc_parallel_channel_slices makes the ro loop of
// the pointwise reduction parallel (a recurrence); dsc_depthwise_init_annotation annotates the
// initialisation of the depthwise stage as Dw(…, 0, 0, 0) instead of Dw(…, 0, 0, -1) (right code,
// wrong annotation).
`;

const text = [header, spec, '', impl('dsc_halide'), '', impl('dsc_exact_input_buffer', { exactInput: true }), '',
  impl('dsc_short_depthwise_slice', { shortDw: true }), '', impl('dsc_parallel_channel_slices', { parRo: true }), '',
  impl('dsc_depthwise_init_annotation', { dwInitAnnot: true }), ''].join('\n');
writeFileSync(join(here, '..', 'dsc.sched'), text);
