// Generates corpus/halide/unsharp.sched: our own SCHED rendering of the lowering of
// halide/Halide v14.0.0 apps/unsharp/unsharp_generator.cpp (CPU schedule). See the file header.
// Usage: node corpus/halide/gen/unsharp.mjs
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const o = (v, d) => (d === 0 ? v : d > 0 ? `${v} + ${d}` : `${v} - ${-d}`);
// kernel(k), inlined: the spec's Kernel(x) with x := k (Halide inlines kernel; strict float, so the
// float expression is not folded).
const kern = (k) => `(exp(-f32(${k}) * f32(${k}) / 4.5) / (sqrt(2.0 * 3.1415927) * 1.5))`;
// The 7-tap blur of the source, reading f(d) at offset d.
const blur7 = (f, K) => [
  `${K(0)} * ${f(0)}`,
  `${K(1)} * (${f(-1)} + ${f(1)})`,
  `${K(2)} * (${f(-2)} + ${f(2)})`,
  `${K(3)} * (${f(-3)} + ${f(3)})`,
];

function spec() {
  const L = ['spec unsharp {', '  param W, H;', '  assume W >= 1 && H >= 1;', '  input In(x, y, c): f32;'];
  L.push('  // kernel(x) = exp(-x * x / (2 * sigma * sigma)) / (sqrtf(2 * kPi) * sigma), sigma = 1.5');
  L.push('  tensor Kernel(x): f32;');
  L.push('  Kernel(x) = exp(-f32(x) * f32(x) / 4.5) / (sqrt(2.0 * 3.1415927) * 1.5);');
  L.push('  // input_bounded = BoundaryConditions::repeat_edge(input)');
  L.push('  tensor InB(x, y, c): f32;');
  L.push('  InB(x, y, c) = In(min(max(x, 0), W - 1), min(max(y, 0), H - 1), min(max(c, 0), 2));');
  L.push('  tensor Gray(x, y): f32;');
  L.push('  Gray(x, y) = 0.299 * InB(x, y, 0) + 0.587 * InB(x, y, 1) + 0.114 * InB(x, y, 2);');
  const K = (k) => `Kernel(${k})`;
  L.push('  tensor BlurY(x, y): f32;');
  L.push(`  BlurY(x, y) = ${blur7((d) => `Gray(x, ${o('y', d)})`, K).join('\n      + ')};`);
  L.push('  tensor BlurX(x, y): f32;');
  L.push(`  BlurX(x, y) = ${blur7((d) => `BlurY(${o('x', d)}, y)`, K).join('\n      + ')};`);
  L.push('  tensor Sharpen(x, y): f32;');
  L.push('  Sharpen(x, y) = 2.0 * Gray(x, y) - BlurX(x, y);');
  L.push('  tensor Ratio(x, y): f32;');
  L.push('  Ratio(x, y) = Sharpen(x, y) / Gray(x, y);');
  L.push('  // The W x H output with its 3 colour channels.');
  L.push('  output Out(x, y, c): f32 = Ratio(x, y) * In(x, y, c)');
  L.push('    where 0 <= x && x < W && 0 <= y && y < H && 0 <= c && c < 3;');
  L.push('}');
  return L.join('\n');
}

// opts: fold (gray), unguarded (blur_y computed during the warm-up), badAnnot (ratio annotated as
// Sharpen), twoChannels (output channel loop bounded by 2)
function impl(name, opts = {}) {
  const fold = opts.fold ?? 8;
  const L = [];
  L.push(`impl ${name} of unsharp {`);
  L.push('  assume W >= 8 && H >= 32;');
  L.push('  input  inp: f32[W, H, 3] = In;');
  L.push('  output out: f32[W, H, 3] = Out;');
  L.push('  par yo < (H + 31) / 32 do');
  L.push('    let y0 = min(32 * yo, H - 32) in');
  L.push(`    allocate gray: f32[W + 6, ${fold}] in`);
  L.push('    allocate blur_y: f32[W + 6, 1] in');
  L.push('    allocate ratio: f32[W, 1] in');
  L.push('      for yr < 38 do');
  L.push('        let y = y0 + yr - 6 in {');
  const g = (dx, dy) => `gray[${o('xs + v', dx + 3)}, ${dy === 0 ? 'y' : `(${o('y', dy)})`} % ${fold}]`;
  const blocks = [];
  blocks.push([
    '// gray: the new row y + 3, x in [-3, W + 3)',
    'for xo < (W + 13) / 8 do',
    '  let xs = min(8 * xo, W - 2) - 3 in',
    '    par v < 8 do',
    `      gray[xs + v + 3, (y + 3) % ${fold}] {Gray(xs + v, y + 3)} :=`,
    '          0.299 * inp[min(max(xs + v, 0), W - 1), min(max(y + 3, 0), H - 1), 0]',
    '        + 0.587 * inp[min(max(xs + v, 0), W - 1), min(max(y + 3, 0), H - 1), 1]',
    '        + 0.114 * inp[min(max(xs + v, 0), W - 1), min(max(y + 3, 0), H - 1), 2]',
  ]);
  const by = blur7((d) => g(0, d), kern);
  blocks.push([
    '// blur_y: row y, x in [-3, W + 3) (not slid; storage folded by 1)',
    ...(opts.unguarded ? [] : ['if yr >= 6 then']),
    '  for xo < (W + 13) / 8 do',
    '    let xs = min(8 * xo, W - 2) - 3 in',
    '      par v < 8 do',
    `        blur_y[xs + v + 3, 0] {BlurY(xs + v, y)} :=`,
    `            ${by.join('\n            + ')}`,
  ]);
  const bx = blur7((d) => `blur_y[${o('xs + v', d + 3)}, 0]`, kern);
  blocks.push([
    '// ratio (with sharpen and blur_x inlined): row y, x in [0, W)',
    'if yr >= 6 then',
    '  for xo < (W + 7) / 8 do',
    '    let xs = min(8 * xo, W - 8) in',
    '      par v < 8 do',
    `        ratio[xs + v, 0] {${opts.badAnnot ? 'Sharpen' : 'Ratio'}(xs + v, y)} :=`,
    `          (2.0 * ${g(0, 0)} - (${bx.join('\n                 + ')}))`,
    `          / ${g(0, 0)}`,
  ]);
  blocks.push([
    '// output: row y, for each channel',
    'if yr >= 6 then',
    `  for c < ${opts.twoChannels ? 2 : 3} do`,
    '    for xo < (W + 7) / 8 do',
    '      let xs = min(8 * xo, W - 8) in',
    '        par v < 8 do',
    '          out[xs + v, y, c] {Out(xs + v, y, c)} := ratio[xs + v, 0] * inp[xs + v, y, c]',
  ]);
  blocks.forEach((b, k) => {
    const lines = b.flatMap((l) => l.split('\n'));
    lines.forEach((l, n) => L.push(`          ${l}${n === lines.length - 1 && k < blocks.length - 1 ? ';' : ''}`));
  });
  L.push('        }');
  L.push('}');
  return L.join('\n');
}

const header = `// EXPECT unsharp_halide: valid
// EXPECT unsharp_fold4: invalid output-mismatch
// EXPECT unsharp_unguarded_warmup: invalid uninitialized-read
// EXPECT unsharp_ratio_annotation: invalid annotation-mismatch
// EXPECT unsharp_two_channels: invalid output-mismatch
//
// unsharp (thesis Table 6.1): unsharp masking of a 3-channel float image.
// GENERATED by corpus/halide/gen/unsharp.mjs (edit the generator, not this file).
// Follows halide/Halide tag v14.0.0, apps/unsharp/unsharp_generator.cpp (sigma = 1.5), CPU
// schedule with an 8-lane float target (AVX2):
//   output.split(y, yo, yi, 32).vectorize(x, 8).parallel(yo).reorder(x, c, yi, yo);
//   gray, blur_y, ratio: .compute_at(output, yi).store_at(output, yo).vectorize(x, 8);
// kernel, input_bounded, blur_x and sharpen are inlined.
// Lowering as Halide v14 does it: ShiftInwards strips of 32 rows (the parallel loop's overlapping
// last strip is a benign race on out) and ShiftInwards 8-lane vectors over each Func's own x
// range; gray slides along yi with the v14 loop rewinding (the yi loop starts 6 rows early, gray
// computes its new row y + 3 at every iteration) and is folded by 8 (7-row footprint); blur_y and
// ratio do not slide (their footprint is one row) but are still stored at yo: storage folding by
// 1, row index 0; blur_y, ratio and the output are guarded by the original loop start (yr >= 6).
// gray and blur_y are realised on x in [-3, W + 3), so their buffers are indexed x + 3.
// Floats: the thesis ran unsharp in Halide's strict-float mode (no fast-math rewriting), so the
// implementation computes the spec's expressions in the same order. kernel(k) is inlined as the
// spec's Kernel(x) at x = k. In the source, 2 * sigma * sigma and sqrtf(2 * kPi) * sigma are C++
// float computations; the spec writes 4.5 (exact) and (sqrt(2.0 * 3.1415927) * 1.5), evaluated
// in f32 the same way in spec and implementation.
// Simplifications: W and H are parameters (W >= 8, H >= 32 for the splits).
// Mutants: unsharp_fold4 folds gray by 4 (< 7-row footprint); unsharp_unguarded_warmup computes
// blur_y during the warm-up iterations too (reads gray rows not computed yet); unsharp_ratio_annotation
// annotates ratio with Sharpen (right code, wrong prophetic annotation); unsharp_two_channels
// bounds the channel loop of the output by 2 instead of 3 (channel 2 is never written).
`;

const text = [header, spec(), '', impl('unsharp_halide'), '', impl('unsharp_fold4', { fold: 4 }), '',
  impl('unsharp_unguarded_warmup', { unguarded: true }), '', impl('unsharp_ratio_annotation', { badAnnot: true }), '',
  impl('unsharp_two_channels', { twoChannels: true }), ''].join('\n');
writeFileSync(join(here, '..', 'unsharp.sched'), text);
