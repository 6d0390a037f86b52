// Generates corpus/halide/nl_means.sched: our own SCHED rendering of the lowering of
// halide/Halide v14.0.0 apps/nl_means/nl_means_generator.cpp (CPU schedule). See the header.
// Usage: node corpus/halide/gen/nl_means.mjs
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

const spec = `spec nl_means {
  param W, H, P, S;                          // image size, patch_size, search_area (run-time Params)
  assume W >= 1 && H >= 1 && P >= 1 && S >= 1;
  input In(x, y, c): f32;
  input Sigma(): f32;
  // clamped = BoundaryConditions::repeat_edge(input)
  tensor Clamped(x, y, c): f32;
  Clamped(x, y, c) = In(min(max(x, 0), W - 1), min(max(y, 0), H - 1), min(max(c, 0), 2));
  tensor Dc(x, y, dx, dy, c): f32;
  Dc(x, y, dx, dy, c) = pow(Clamped(x, y, c) - Clamped(x + dx, y + dy, c), 2.0);
  // d(x, y, dx, dy) = sum(dc(x, y, dx, dy, channels)), RDom channels(0, 3)
  tensor D(x, y, dx, dy, k): f32;
  D(x, y, dx, dy, -1) = 0.0;
  D(x, y, dx, dy, k) = D(x, y, dx, dy, k - 1) + Dc(x, y, dx, dy, k) where 0 <= k && k < 3;
  // blur_d_y(x, y, dx, dy) = sum(d(x, y + r, dx, dy)), RDom r(-(P / 2), P): index k = r + P / 2
  tensor BlurDY(x, y, dx, dy, k): f32;
  BlurDY(x, y, dx, dy, -1) = 0.0;
  BlurDY(x, y, dx, dy, k) = BlurDY(x, y, dx, dy, k - 1) + D(x, y + k - P / 2, dx, dy, 2) where 0 <= k && k < P;
  // blur_d(x, y, dx, dy) = sum(blur_d_y(x + r, y, dx, dy))
  tensor BlurD(x, y, dx, dy, k): f32;
  BlurD(x, y, dx, dy, -1) = 0.0;
  BlurD(x, y, dx, dy, k) = BlurD(x, y, dx, dy, k - 1) + BlurDY(x + k - P / 2, y, dx, dy, P - 1) where 0 <= k && k < P;
  // w = fast_exp(blur_d * inv_sigma_sq), inv_sigma_sq = -1.0f / (sigma * sigma * patch_size * patch_size)
  tensor Wt(x, y, dx, dy): f32;
  Wt(x, y, dx, dy) = exp(BlurD(x, y, dx, dy, P - 1) * (-1.0 / (Sigma() * Sigma() * f32(P) * f32(P))));
  // clamped_with_alpha(x, y, c) = mux(c, {clamped(x, y, 0), clamped(x, y, 1), clamped(x, y, 2), 1.0f})
  tensor Cwa(x, y, c): f32;
  Cwa(x, y, c) = select(c == 0, Clamped(x, y, 0), select(c == 1, Clamped(x, y, 1), select(c == 2, Clamped(x, y, 2), 1.0)));
  // non_local_means_sum(x, y, c) += w(x, y, s.x, s.y) * clamped_with_alpha(x + s.x, y + s.y, c),
  //   RDom s(-(S / 2), S, -(S / 2), S), s.x innermost; index (ky, kx) = (s.y + S / 2, s.x + S / 2)
  tensor Nlms(x, y, c, ky, kx): f32;
  Nlms(x, y, c, 0, -1) = 0.0;
  Nlms(x, y, c, 0, 0) = Nlms(x, y, c, 0, -1) + Wt(x, y, -(S / 2), -(S / 2)) * Cwa(x - S / 2, y - S / 2, c);
  Nlms(x, y, c, ky, 0) = Nlms(x, y, c, ky - 1, S - 1) + Wt(x, y, -(S / 2), ky - S / 2) * Cwa(x - S / 2, y + ky - S / 2, c)
    where 1 <= ky && ky < S;
  Nlms(x, y, c, ky, kx) = Nlms(x, y, c, ky, kx - 1) + Wt(x, y, kx - S / 2, ky - S / 2) * Cwa(x + kx - S / 2, y + ky - S / 2, c)
    where 0 <= ky && ky < S && 1 <= kx && kx < S;
  // non_local_means(x, y, c) = clamp(sum(x, y, c) / sum(x, y, 3), 0.0f, 1.0f)   (clamp = max(min(., hi), lo))
  // The W x H output with its 3 colour channels.
  output Out(x, y, c): f32 = max(min(Nlms(x, y, c, S - 1, S - 1) / Nlms(x, y, 3, S - 1, S - 1), 1.0), 0.0)
    where 0 <= x && x < W && 0 <= y && y < H && 0 <= c && c < 3;
}`;

const cl = (e, hi) => `min(max(${e}, 0), ${hi})`;

// mut: shortPatch (blur_d_y sums P - 1 rows), unshifted (tiles rounded up), parSearch (the s.x
// loop of the update made parallel)
function impl(name, mut = {}) {
  const L = [];
  const p = (d, s) => L.push('  '.repeat(d) + s);
  p(0, `impl ${name} of nl_means {`);
  p(1, 'assume W >= 16 && H >= 8 && P >= 1 && S >= 1;');
  p(1, 'input  inp: f32[W, H, 3] = In;');
  p(1, 'input  sigma: f32[] = Sigma;');
  p(1, 'output out: f32[W, H, 3] = Out;');
  p(1, '// non_local_means.compute_root().reorder(c, x, y).tile(x, y, tx, ty, x, y, 16, 8)');
  p(1, '//     .parallel(ty).vectorize(x, 8)');
  p(1, 'par ty < (H + 7) / 8 do');
  p(2, 'for tx < (W + 15) / 16 do');
  p(3, mut.unshifted ? 'let y0 = 8 * ty in' : 'let y0 = min(8 * ty, H - 8) in');
  p(3, mut.unshifted ? 'let x0 = 16 * tx in' : 'let x0 = min(16 * tx, W - 16) in');
  p(3, '// d and blur_d_y: compute_at(non_local_means, tx), realised on x in [x0 - P / 2, x0 - P / 2 + 15 + P)');
  p(3, 'allocate dbuf: f32[15 + P, 7 + P, S, S] in');
  p(3, 'allocate bdy: f32[15 + P, 8, S, S] in {');
  p(4, '// d.vectorize(x, 8): rows y in [y0 - P / 2, y0 - P / 2 + 7 + P); the inline sum over the');
  p(4, '// channels is computed per lane');
  p(4, 'for ky < S do');
  p(5, 'for kx < S do');
  p(6, 'for yy < 7 + P do');
  p(7, 'for xo < (22 + P) / 8 do');
  p(8, 'let xs = min(8 * xo, 7 + P) in');
  p(8, 'par v < 8 do');
  p(9, 'let x = x0 - P / 2 + xs + v in');
  p(9, 'let y = y0 - P / 2 + yy in');
  p(9, 'allocate s: f32[] in {');
  p(10, 's[] {D(x, y, kx - S / 2, ky - S / 2, -1)} := 0.0;');
  p(10, 'for ch < 3 do');
  p(11, 's[] {D(x, y, kx - S / 2, ky - S / 2, ch)} := s[] + pow(');
  p(12, `inp[${cl('x', 'W - 1')}, ${cl('y', 'H - 1')}, ch]`);
  p(12, `- inp[${cl('x + kx - S / 2', 'W - 1')}, ${cl('y + ky - S / 2', 'H - 1')}, ch], 2.0);`);
  p(10, 'dbuf[xs + v, yy, kx, ky] {D(x, y, kx - S / 2, ky - S / 2, 2)} := s[]');
  p(9, '};');
  p(4, '// blur_d_y.reorder(y, x).vectorize(x, 8): rows y in [y0, y0 + 8)');
  p(4, 'for ky < S do');
  p(5, 'for kx < S do');
  p(6, 'for xo < (22 + P) / 8 do');
  p(7, 'let xs = min(8 * xo, 7 + P) in');
  p(7, 'par v < 8 do');
  p(8, 'for yy < 8 do');
  p(9, 'let x = x0 - P / 2 + xs + v in');
  p(9, 'let y = y0 + yy in');
  p(9, 'allocate s: f32[] in {');
  p(10, 's[] {BlurDY(x, y, kx - S / 2, ky - S / 2, -1)} := 0.0;');
  p(10, `for k < ${mut.shortPatch ? 'P - 1' : 'P'} do`);
  p(11, 's[] {BlurDY(x, y, kx - S / 2, ky - S / 2, k)} := s[] + dbuf[xs + v, yy + k, kx, ky];');
  p(10, 'bdy[xs + v, yy, kx, ky] {BlurDY(x, y, kx - S / 2, ky - S / 2, P - 1)} := s[]');
  p(9, '};');
  p(4, '// the tile of non_local_means: rows, then vectors of 8');
  p(4, 'for yy < 8 do');
  p(5, 'for xo < 2 do');
  p(6, 'let y = y0 + yy in');
  p(6, '// non_local_means_sum.compute_at(non_local_means, x).reorder(c, x, y).bound(c, 0, 4)');
  p(6, '//     .unroll(c).vectorize(x, 8)');
  p(6, 'allocate nlms: f32[8, 4] in {');
  p(7, 'par v < 8 do');
  p(8, 'for c < 4 do');
  p(9, 'nlms[v, c] {Nlms(x0 + 8 * xo + v, y, c, 0, -1)} := 0.0;');
  p(7, '// update(0).reorder(c, x, y, s.x, s.y).unroll(c).vectorize(x, 8)');
  p(7, 'for ky < S do');
  p(8, `${mut.parSearch ? 'par' : 'for'} kx < S do`);
  p(9, '// blur_d.compute_at(non_local_means_sum, x).vectorize(x, 8)');
  p(9, 'allocate bd: f32[8] in {');
  p(10, 'par v < 8 do');
  p(11, 'let x = x0 + 8 * xo + v in');
  p(11, 'allocate s: f32[] in {');
  p(12, 's[] {BlurD(x, y, kx - S / 2, ky - S / 2, -1)} := 0.0;');
  p(12, 'for k < P do');
  p(13, 's[] {BlurD(x, y, kx - S / 2, ky - S / 2, k)} := s[] + bdy[8 * xo + v + k, yy, kx, ky];');
  p(12, 'bd[v] {BlurD(x, y, kx - S / 2, ky - S / 2, P - 1)} := s[]');
  p(11, '};');
  p(10, 'par v < 8 do');
  p(11, 'let x = x0 + 8 * xo + v in');
  p(11, 'for c < 4 do');
  p(12, 'nlms[v, c] {Nlms(x, y, c, ky, kx)} := nlms[v, c]');
  p(13, '+ exp(bd[v] * (-1.0 / (sigma[] * sigma[] * f32(P) * f32(P))))');
  const cx = cl('x + kx - S / 2', 'W - 1');
  const cy = cl('y + ky - S / 2', 'H - 1');
  p(14, `* select(c == 0, inp[${cx}, ${cy}, 0],`);
  p(14, `  select(c == 1, inp[${cx}, ${cy}, 1],`);
  p(14, `  select(c == 2, inp[${cx}, ${cy}, 2], 1.0)))`);
  p(9, '};');
  p(7, '// non_local_means: clamp(sum / alpha sum, 0, 1) for the 3 colour channels');
  p(7, 'par v < 8 do');
  p(8, 'for c < 3 do');
  p(9, 'out[x0 + 8 * xo + v, y, c] {Out(x0 + 8 * xo + v, y, c)} := max(min(nlms[v, c] / nlms[v, 3], 1.0), 0.0)');
  p(6, '}');
  p(3, '}');
  p(0, '}');
  return L.join('\n');
}

const header = `// EXPECT nl_means_halide: valid
// EXPECT nl_means_short_patch: invalid output-mismatch
// EXPECT nl_means_unshifted_tiles: invalid out-of-bounds
// EXPECT nl_means_parallel_search: invalid race
//
// nl_means (thesis Table 6.1): non-local means denoising of a 3-channel float image.
// GENERATED by corpus/halide/gen/nl_means.mjs (edit the generator, not this file).
// Follows halide/Halide tag v14.0.0, apps/nl_means/nl_means_generator.cpp, CPU schedule with an
// 8-lane float target (AVX2):
//   non_local_means.compute_root().reorder(c, x, y).tile(x, y, tx, ty, x, y, 16, 8)
//       .parallel(ty).vectorize(x, 8);
//   blur_d_y.compute_at(non_local_means, tx).reorder(y, x).vectorize(x, 8);
//   d.compute_at(non_local_means, tx).vectorize(x, 8);
//   non_local_means_sum.compute_at(non_local_means, x).reorder(c, x, y).bound(c, 0, 4).unroll(c)
//       .vectorize(x, 8);
//   non_local_means_sum.update(0).reorder(c, x, y, s_dom.x, s_dom.y).unroll(c).vectorize(x, 8);
//   blur_d.compute_at(non_local_means_sum, x).vectorize(x, 8);
// patch_size (P) and search_area (S) are run-time Params: the RDoms and the buffers of d and
// blur_d_y have parametric extents (15 + P columns, 7 + P rows, S x S offsets); sigma is a float
// Param (a 0-dimensional input). The inline reductions sum(...) are anonymous Funcs (pure value 0
// and one update) computed per vector lane inside their consumer; their stages are the tensors D,
// BlurDY and BlurD (the reduction index counts from 0: r = k - P / 2). No RVar is reordered, so
// every accumulation names one stage value.
// Lowering: ShiftInwards tiles of 16 x 8 (the parallel ty loop has benign write-write races on out
// at the last row tile) and ShiftInwards vectors of 8 over the realised x range of d and blur_d_y.
// Expected valid; the thesis's prototype timed out on this kernel (too many isl disjuncts).
// Floats: the thesis ran nl_means in strict-float mode. Simplification: Halide's fast_exp (a
// polynomial approximation) is written as exp in both the spec and the implementation; inv_sigma_sq
// is recomputed where it is used instead of being hoisted as a let.
// Other simplifications: unrolled loops are loops; vector loops are \`par\` lanes; the clamps of
// the colour index that Halide simplifies away are dropped in the implementation.
// Mutants: nl_means_short_patch sums only P - 1 rows in blur_d_y; nl_means_unshifted_tiles rounds
// the tiles up (x0 = 16 tx, y0 = 8 ty) instead of shifting the last ones inwards;
// nl_means_parallel_search makes the s.x loop of the update parallel (a recurrence on the sums).
`;

const text = [header, spec, '', impl('nl_means_halide'), '', impl('nl_means_short_patch', { shortPatch: true }), '',
  impl('nl_means_unshifted_tiles', { unshifted: true }), '', impl('nl_means_parallel_search', { parSearch: true }), ''].join('\n');
writeFileSync(join(here, '..', 'nl_means.sched'), text);
