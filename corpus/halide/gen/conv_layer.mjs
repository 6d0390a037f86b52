// Generates corpus/halide/conv_layer.sched: our own SCHED rendering of the lowering of
// halide/Halide v14.0.0 apps/conv_layer/conv_layer_generator.cpp. See the file header.
// Usage: node corpus/halide/gen/conv_layer.mjs
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

const spec = `spec conv_layer {
  param N, CI, CO, W, H;                     // the app fixes N = 5, CI = 128, CO = 128, W = 100, H = 80
  assume CI >= 1;
  input In(ci, x, y, n): f32;                // input, [CI, W + 2, H + 2, N]
  input Filter(c, fy, fz, ci): f32;          // filter, [CO, 3, 3, CI]
  input Bias(c): f32;
  // conv(c, x, y, n) = bias(c);
  // conv(c, x, y, n) += filter(c, r.y, r.z, r.x) * input(r.x, x + r.y, y + r.z, n),
  //   RDom r(0, CI, 0, 3, 0, 3): r.x innermost. The stage tensor carries the reduction index in
  //   loop order, outermost first: Conv(c, x, y, n, rz, ry, rx); (0, 0, -1) is the pure value.
  tensor Conv(c, x, y, n, rz, ry, rx): f32;
  Conv(c, x, y, n, 0, 0, -1) = Bias(c);
  Conv(c, x, y, n, 0, 0, 0) = Conv(c, x, y, n, 0, 0, -1) + Filter(c, 0, 0, 0) * In(0, x, y, n);
  Conv(c, x, y, n, rz, 0, 0) = Conv(c, x, y, n, rz - 1, 2, CI - 1) + Filter(c, 0, rz, 0) * In(0, x, y + rz, n)
    where 1 <= rz && rz < 3;
  Conv(c, x, y, n, rz, ry, 0) = Conv(c, x, y, n, rz, ry - 1, CI - 1) + Filter(c, ry, rz, 0) * In(0, x + ry, y + rz, n)
    where 0 <= rz && rz < 3 && 1 <= ry && ry < 3;
  Conv(c, x, y, n, rz, ry, rx) = Conv(c, x, y, n, rz, ry, rx - 1) + Filter(c, ry, rz, rx) * In(rx, x + ry, y + rz, n)
    where 0 <= rz && rz < 3 && 0 <= ry && ry < 3 && 1 <= rx && rx < CI;
  // The CO x W x H x N output.
  output Relu(c, x, y, n): f32 = max(0.0, Conv(c, x, y, n, 2, 2, CI - 1))
    where 0 <= c && c < CO && 0 <= x && x < W && 0 <= y && y < H && 0 <= n && n < N;
}`;

const decls = (p) => {
  p(1, 'input  inp: f32[CI, W + 2, H + 2, N] = In;');
  p(1, 'input  filter: f32[CO, 3, 3, CI] = Filter;');
  p(1, 'input  bias: f32[CO] = Bias;');
  p(1, 'output relu: f32[CO, W, H, N] = Relu;');
};

// CPU schedule (x86 AVX2: vec = 8, tile_w = 3, tile_h = 4).
// mut: unshiftedC, parRz, halfFilter, floorX
function cpu(name, mut = {}) {
  const L = [];
  const p = (d, s) => L.push('  '.repeat(d) + s);
  const C = '8 * cc + cv';
  p(0, `impl ${name} of conv_layer {`);
  p(1, 'assume CI >= 1 && CO >= 24 && W >= 4 && H >= 1 && N >= 1;');
  decls(p);
  p(1, '// relu.split(c, co, ci, 24).split(x, xo, xi, 4).reorder(ci, xi, xo, y, n, co)');
  p(1, '//     .vectorize(ci, 8).unroll(ci).unroll(xi).parallel(y).parallel(n).parallel(co)');
  p(1, 'par co < (CO + 23) / 24 do');
  p(2, 'par n < N do');
  p(3, 'par y < H do');
  p(4, `for xo < ${mut.floorX ? 'W / 4' : '(W + 3) / 4'} do`);
  p(5, mut.unshiftedC ? 'let c0 = 24 * co in' : 'let c0 = min(24 * co, CO - 24) in');
  p(5, 'let x0 = min(4 * xo, W - 4) in');
  p(5, '// conv.compute_at(relu, xo): a 24 x 4 local (c, x)');
  p(5, 'allocate conv: f32[24, 4] in {');
  p(6, '// pure definition: vectorize(c, 8).unroll(c).unroll(x).unroll(y)');
  p(6, 'for xx < 4 do');
  p(7, 'for cc < 3 do');
  p(8, 'par cv < 8 do');
  p(9, `conv[${C}, xx] {Conv(c0 + ${C}, x0 + xx, y, n, 0, 0, -1)} := bias[c0 + ${C}];`);
  p(6, '// update: reorder(c, x, y, r.x, r.y, r.z, n).vectorize(c, 8).unroll(c).unroll(x).unroll(y)');
  p(6, '//   .unroll(r.x, 2) (GuardWithIf, the default for an RVar)');
  p(6, `${mut.parRz ? 'par' : 'for'} rz < 3 do`);
  p(7, 'for ry < 3 do');
  p(8, 'for rxo < (CI + 1) / 2 do');
  p(9, '// filter.in().compute_at(conv, r.x).vectorize(_0, 8).unroll(_0).unroll(_3): 24 x 2 local');
  p(9, 'allocate filt: f32[24, 2] in {');
  p(10, `for q < ${mut.halfFilter ? '1' : 'min(2, CI - 2 * rxo)'} do`);
  p(11, 'for cc < 3 do');
  p(12, 'par cv < 8 do');
  p(13, `filt[${C}, q] {Filter(c0 + ${C}, ry, rz, 2 * rxo + q)} := filter[c0 + ${C}, ry, rz, 2 * rxo + q];`);
  p(10, 'for rxi < 2 do');
  p(11, 'let rx = 2 * rxo + rxi in');
  p(11, 'if rx < CI then');
  p(12, 'for xx < 4 do');
  p(13, '// input.in().compute_at(conv, x).unroll(_0): one element');
  p(13, 'allocate inb: f32[] in {');
  p(14, 'inb[] {In(rx, x0 + xx + ry, y + rz, n)} := inp[rx, x0 + xx + ry, y + rz, n];');
  p(14, 'for cc < 3 do');
  p(15, 'par cv < 8 do');
  p(16, `conv[${C}, xx] {Conv(c0 + ${C}, x0 + xx, y, n, rz, ry, rx)} :=`);
  p(17, `conv[${C}, xx] + filt[${C}, rxi] * inb[]`);
  p(13, '}');
  p(9, '};');
  p(6, '// relu: the 4 x 24 block of this xo');
  p(6, 'for xi < 4 do');
  p(7, 'for cc < 3 do');
  p(8, 'par cv < 8 do');
  p(9, `relu[c0 + ${C}, x0 + xi, y, n] {Relu(c0 + ${C}, x0 + xi, y, n)} := max(0.0, conv[${C}, xi])`);
  p(5, '}');
  p(0, '}');
  return L.join('\n');
}

// CUDA schedule: the update is split(r.x, rxo, rxi, 16).split(rxi, rxi, rxii, 2)
// .reorder(c, rxii, x, y, r.y, r.z, rxi, rxo): the reduction visits (rxo, rxi, rz, ry, rxii), a
// different order from the algorithm's (rz, ry, rx). The partial sums are not values of the spec,
// so it is checked against the reduction form of the spec (conv_layer_red) with the chapter-7
// annotations: each accumulation names the position (rz, ry, rx) it contributes.
function gpu(name) {
  const L = [];
  const p = (d, s) => L.push('  '.repeat(d) + s);
  p(0, `impl ${name} of conv_layer_red {`);
  p(1, 'assume CI >= 16 && CI % 16 == 0 && CO >= 32 && W >= 5 && H >= 5 && N >= 1;');
  decls(p);
  p(1, '// relu.compute_root().split(x, xo, xi, 5).split(y, yo, yi, 5).split(c, co, ci, 32)');
  p(1, '//     .reorder(xi, yi, ci, xo, yo, co, n).gpu_lanes(ci).unroll(xi).unroll(yi)');
  p(1, '//     .fuse(co, n, t).gpu_blocks(xo, yo, t)');
  p(1, 'par n < N do');
  p(2, 'par co < (CO + 31) / 32 do');
  p(3, 'par yo < (H + 4) / 5 do');
  p(4, 'par xo < (W + 4) / 5 do');
  p(5, 'let c0 = min(32 * co, CO - 32) in');
  p(5, 'let x0 = min(5 * xo, W - 5) in');
  p(5, 'let y0 = min(5 * yo, H - 5) in');
  p(5, '// conv.compute_at(relu, xo).store_in(MemoryType::Register).gpu_lanes(c).unroll(x).unroll(y)');
  p(5, 'allocate conv: f32[32, 5, 5] in {');
  p(6, 'par ci < 32 do');
  p(7, 'for yi < 5 do');
  p(8, 'for xi < 5 do');
  p(9, 'conv[ci, xi, yi] {Bias(c0 + ci)} := bias[c0 + ci];');
  p(6, '// update (reordered reduction; CI % 16 == 0, so no GuardWithIf tail): each accumulation');
  p(6, '// names the reduction ConvR and the position (rz, ry, rx) it contributes');
  p(6, 'for rxo < CI / 16 do');
  p(7, 'for rxi < 8 do');
  p(8, 'for rz < 3 do');
  p(9, 'for ry < 3 do');
  p(10, 'for yi < 5 do');
  p(11, 'for xi < 5 do');
  p(12, 'for rxii < 2 do');
  p(13, 'let rx = 16 * rxo + 2 * rxi + rxii in');
  p(13, 'par ci < 32 do');
  p(14, 'conv[ci, xi, yi] {ConvR(c0 + ci, x0 + xi, y0 + yi, n)@(rz, ry, rx)} += filter[c0 + ci, ry, rz, rx] * inp[rx, x0 + xi + ry, y0 + yi + rz, n];');
  p(6, 'par ci < 32 do');
  p(7, 'for yi < 5 do');
  p(8, 'for xi < 5 do');
  p(9, 'relu[c0 + ci, x0 + xi, y0 + yi, n] {Relu(c0 + ci, x0 + xi, y0 + yi, n)} := max(0.0, conv[ci, xi, yi])');
  p(5, '}');
  p(0, '}');
  return L.join('\n');
}

const header = `// EXPECT conv_layer_halide: valid
// EXPECT conv_layer_unshifted_c: invalid out-of-bounds
// EXPECT conv_layer_parallel_rz: invalid race
// EXPECT conv_layer_half_filter_stage: invalid uninitialized-read
// EXPECT conv_layer_gpu_reordered: invalid output-mismatch
// EXPECT conv_layer_floor_x: invalid output-mismatch
//
// conv_layer (thesis Table 6.1, "conv"): a 3x3 convolution layer with bias and ReLU.
// GENERATED by corpus/halide/gen/conv_layer.mjs (edit the generator, not this file).
// Follows halide/Halide tag v14.0.0, apps/conv_layer/conv_layer_generator.cpp. Algorithm:
//   conv(c, x, y, n) = bias(c);
//   conv(c, x, y, n) += filter(c, r.y, r.z, r.x) * input(r.x, x + r.y, y + r.z, n), RDom r(0, CI, 0, 3, 0, 3);
//   relu(c, x, y, n) = max(0, conv(c, x, y, n)).
// conv_layer_halide follows the CPU schedule for x86 with AVX2 (vec = 8, tile_w = 3, tile_h = 4):
//   relu.split(c, co, ci, 24).split(x, xo, xi, 4).reorder(ci, xi, xo, y, n, co).vectorize(ci, 8)
//       .unroll(ci).unroll(xi).parallel(y).parallel(n).parallel(co);
//   conv.compute_at(relu, xo).vectorize(c, 8).unroll(c).unroll(x).unroll(y)
//       .update().reorder(c, x, y, r.x, r.y, r.z, n).vectorize(c, 8).unroll(c).unroll(x).unroll(y).unroll(r.x, 2);
//   filter.in().compute_at(conv, r.x).vectorize(_0, 8).unroll(_0).unroll(_3);
//   input.in().compute_at(conv, x).unroll(_0);
// Lowering: ShiftInwards splits of c (by 24) and x (by 4), so the parallel co loop has benign
// write-write races on relu when CO % 24 != 0 (the app's CO = 128 = 5 * 24 + 8); the split of r.x
// by 2 is GuardWithIf (an RVar), with the wrapper filter.in() realised on min(2, CI - 2 rxo)
// columns (Halide's promise_clamped bounds); the RVars keep their order (r.z, r.y, r.x), so every
// accumulation is annotated with its Conv stage. The wrappers are annotated with the input tensor
// they copy (a wrapper Func is the identity). conv's y and n extents are 1 and omitted.
// conv_layer_gpu_reordered follows the CUDA schedule of the same file: the reduction over r.x is
// split by 16 and 2 and the r.y, r.z loops are moved inside: the RVars are visited in a different
// order, a reassociation of the sum that no chapter-5 annotation can name. It is checked against
// conv_layer_red, the same algorithm with conv as a reduction, with the chapter-7 annotations:
// every structural obligation is proved, and on IEEE f32 the reordered sum rounds differently
// from the algorithm's order, which a run shows (\`invalid\`; valid up to reassociation under
// --float real). Simplifications of that impl: the input.in() staging of the CUDA schedule is
// omitted, and CI % 16 == 0 is assumed (the app's CI = 128).
// Simplifications: the sizes are parameters (the app compiles for N = 5, CI = 128, CO = 128,
// W = 100, H = 80 and strides that make the buffers dense); unrolled loops are loops; vector
// loops are \`par\` lanes; MemoryType annotations are dropped.
// Mutants: conv_layer_unshifted_c rounds the channel tiles up (c0 = 24 co); conv_layer_parallel_rz
// parallelises the outermost RVar loop (a recurrence); conv_layer_half_filter_stage stages only
// the first of the two r.x columns of filter.in() (bounds inference off by one);
// conv_layer_floor_x rounds the number of x tiles down (W / 4): the last columns are never written
// when W % 4 != 0.
`;

const specRed = `// The same algorithm with conv as a reduction (chapter 7): the fold over (r.z, r.y, r.x) in the
// algorithm's order, starting from bias(c).
spec conv_layer_red {
  param N, CI, CO, W, H;
  assume CI >= 1;
  input In(ci, x, y, n): f32;
  input Filter(c, fy, fz, ci): f32;
  input Bias(c): f32;
  tensor ConvR(c, x, y, n): f32;
  ConvR(c, x, y, n) = Bias(c) + sum{0 <= rz < 3, 0 <= ry < 3, 0 <= rx < CI}(Filter(c, ry, rz, rx) * In(rx, x + ry, y + rz, n));
  output Relu(c, x, y, n): f32 = max(0.0, ConvR(c, x, y, n))
    where 0 <= c && c < CO && 0 <= x && x < W && 0 <= y && y < H && 0 <= n && n < N;
}`;

const text = [header, spec, '', specRed, '', cpu('conv_layer_halide'), '', cpu('conv_layer_unshifted_c', { unshiftedC: true }), '',
  cpu('conv_layer_parallel_rz', { parRz: true }), '', cpu('conv_layer_half_filter_stage', { halfFilter: true }), '',
  gpu('conv_layer_gpu_reordered'), '', cpu('conv_layer_floor_x', { floorX: true }), ''].join('\n');
writeFileSync(join(here, '..', 'conv_layer.sched'), text);
