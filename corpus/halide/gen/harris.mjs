// Generates corpus/halide/harris.sched: our own SCHED rendering of the lowering of
// halide/Halide v14.0.0 apps/harris/harris_generator.cpp (CPU schedule). See the file header.
// Usage: node corpus/halide/gen/harris.mjs
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const o = (v, d) => (d === 0 ? v : d > 0 ? `${v} + ${d}` : `${v} - ${-d}`);
const row = (y, d, fold) => `${d === 0 ? y : `(${o(y, d)})`} % ${fold}`;

// The six taps of Iy and Ix, in the order of the Halide source: [dx, dy, numerator].
const IY = [[-1, -1, -1], [-1, 1, 1], [0, -1, -2], [0, 1, 2], [1, -1, -1], [1, 1, 1]];
const IX = [[-1, -1, -1], [1, -1, 1], [-1, 0, -2], [1, 0, 2], [-1, 1, -1], [1, 1, 1]];
// The constant (n.0f / 12) of the C++ source: a float computed by the C++ compiler, i.e. the f32
// division n / 12 (correctly rounded). `folded` writes the decimal literal Halide prints instead.
const coef = (n, folded) => {
  if (!folded) return `(${n < 0 ? '-' : ''}${Math.abs(n)}.0 / 12.0)`;
  return { '-1': '-0.083333336', 1: '0.083333336', '-2': '-0.16666667', 2: '0.16666667' }[String(n)];
};

function spec() {
  const L = [];
  L.push('spec harris {');
  L.push('  param W, H;');
  L.push('  assume W >= 0 && H >= 0;');
  L.push('  input In(x, y, c): f32;');
  L.push('  tensor Gray(x, y): f32;');
  L.push('  Gray(x, y) = 0.299 * In(x, y, 0) + 0.587 * In(x, y, 1) + 0.114 * In(x, y, 2);');
  for (const [name, taps] of [['Iy', IY], ['Ix', IX]]) {
    L.push(`  tensor ${name}(x, y): f32;`);
    const t = taps.map(([dx, dy, n]) => `Gray(${o('x', dx)}, ${o('y', dy)}) * ${coef(n, false)}`);
    L.push(`  ${name}(x, y) = ${t.slice(0, 2).join(' + ')}`);
    L.push(`      + ${t.slice(2, 4).join(' + ')}`);
    L.push(`      + ${t.slice(4).join(' + ')};`);
  }
  L.push('  tensor Ixx(x, y): f32;');
  L.push('  Ixx(x, y) = Ix(x, y) * Ix(x, y);');
  L.push('  tensor Iyy(x, y): f32;');
  L.push('  Iyy(x, y) = Iy(x, y) * Iy(x, y);');
  L.push('  tensor Ixy(x, y): f32;');
  L.push('  Ixy(x, y) = Ix(x, y) * Iy(x, y);');
  for (const [name, f] of [['Sxx', 'Ixx'], ['Syy', 'Iyy'], ['Sxy', 'Ixy']]) {
    const t = [];
    for (const dx of [-1, 0, 1]) for (const dy of [-1, 0, 1]) t.push(`${f}(${o('x', dx)}, ${o('y', dy)})`);
    L.push(`  tensor ${name}(x, y): f32;`);
    L.push(`  ${name}(x, y) = ${t.slice(0, 3).join(' + ')}`);
    L.push(`      + ${t.slice(3, 6).join(' + ')}`);
    L.push(`      + ${t.slice(6).join(' + ')};`);
  }
  L.push('  tensor Det(x, y): f32;');
  L.push('  Det(x, y) = Sxx(x, y) * Syy(x, y) - Sxy(x, y) * Sxy(x, y);');
  L.push('  tensor Trace(x, y): f32;');
  L.push('  Trace(x, y) = Sxx(x, y) + Syy(x, y);');
  L.push('  // The W x H output, at [2, W + 2) x [2, H + 2): the algorithm reads the input at +-2.');
  L.push('  output Out(x, y): f32 = Det(x, y) - 0.04 * Trace(x, y) * Trace(x, y)');
  L.push('    where 2 <= x && x < W + 2 && 2 <= y && y < H + 2;');
  L.push('}');
  return L.join('\n');
}

// opts: folded (decimal constants), foldI (fold factor of ix/iy), swapOrder (Ix/Iy before gray),
//       unshifted (output vectors not shifted inwards), swapAnnot (Sxx/Syy annotations swapped),
//       floorStrips (number of strips rounded down)
function impl(name, opts = {}) {
  const fI = opts.foldI ?? 4;
  const fG = 4;
  const L = [];
  L.push(`impl ${name} of harris {`);
  L.push('  assume W >= 8 && H >= 32;');
  L.push('  input  inp: f32[W + 4, H + 4, 3] = In;');
  L.push('  output out[x, y]: f32[W, H] = Out(x + 2, y + 2);');
  L.push(`  par yo < ${opts.floorStrips ? 'H / 32' : '(H + 31) / 32'} do`);
  L.push('    let y0 = min(32 * yo, H - 32) + 2 in');
  L.push(`    allocate gray: f32[W + 4, ${fG}] in`);
  L.push(`    allocate iy: f32[W + 2, ${fI}] in`);
  L.push(`    allocate ix: f32[W + 2, ${fI}] in`);
  L.push('      for yr < 36 do');
  L.push('        let y = y0 + yr - 4 in {');
  const gray = [
    '// gray: the new row y + 2, x in [0, W + 4)',
    'for xo < (W + 11) / 8 do',
    '  let xs = min(8 * xo, W - 4) in',
    '    par v < 8 do',
    `      gray[xs + v, ${row('y', 2, fG)}] {Gray(xs + v, y + 2)} :=`,
    '        0.299 * inp[xs + v, y + 2, 0] + 0.587 * inp[xs + v, y + 2, 1] + 0.114 * inp[xs + v, y + 2, 2]',
  ];
  const grad = ['// Iy, then Ix (Ix.compute_with(Iy, x)): the new row y + 1, x in [1, W + 3)', 'if yr >= 2 then', '  for xo < (W + 9) / 8 do', '    let xs = min(8 * xo, W - 6) + 1 in {'];
  for (const [nm, arr, taps, sep] of [['Iy', 'iy', IY, ';'], ['Ix', 'ix', IX, '']]) {
    grad.push('      par v < 8 do');
    grad.push(`        ${arr}[xs + v - 1, ${row('y', 1, fI)}] {${nm}(xs + v, y + 1)} :=`);
    const t = taps.map(([dx, dy, n]) => `gray[${o('xs + v', dx)}, ${row('y', 1 + dy, fG)}] * ${coef(n, opts.folded)}`);
    grad.push(`            ${t.slice(0, 2).join(' + ')}`);
    grad.push(`          + ${t.slice(2, 4).join(' + ')}`);
    grad.push(`          + ${t.slice(4).join(' + ')}${sep}`);
  }
  grad.push('    }');
  const sum = (a, b) => {
    const t = [];
    for (const dx of [-1, 0, 1]) for (const dy of [-1, 0, 1]) {
      const r = row('y', dy, fI);
      t.push(`${a}[${o('xs + v', dx - 1)}, ${r}] * ${b}[${o('xs + v', dx - 1)}, ${r}]`);
    }
    return [t.slice(0, 3).join(' + '), t.slice(3, 6).join(' + '), t.slice(6).join(' + ')];
  };
  const outp = [
    '// output row y; Sxx, Syy, Sxy (Halide lets) held in a 3-element local per lane',
    'if yr >= 4 then',
    '  for xo < (W + 7) / 8 do',
    opts.unshifted ? '    let xs = 8 * xo + 2 in' : '    let xs = min(8 * xo, W - 8) + 2 in',
    '      par v < 8 do',
    '        allocate t: f32[3] in {',
  ];
  [['Sxx', 'ix', 'ix'], ['Syy', 'iy', 'iy'], ['Sxy', 'ix', 'iy']].forEach(([nm, a, b], k) => {
    const s = sum(a, b);
    const an = opts.swapAnnot && k < 2 ? ['Syy', 'Sxx'][k] : nm;
    outp.push(`          t[${k}] {${an}(xs + v, y)} :=`);
    outp.push(`              ${s[0]}`);
    outp.push(`            + ${s[1]}`);
    outp.push(`            + ${s[2]};`);
  });
  outp.push('          out[xs + v - 2, y - 2] {Out(xs + v, y)} :=');
  outp.push('            (t[0] * t[1] - t[2] * t[2]) - 0.04 * (t[0] + t[1]) * (t[0] + t[1])');
  outp.push('        }');
  const blocks = opts.swapOrder ? [grad, gray, outp] : [gray, grad, outp];
  blocks.forEach((b, k) => b.forEach((l, n) => L.push(`          ${l}${n === b.length - 1 && k < 2 ? ';' : ''}`)));
  L.push('        }');
  L.push('}');
  return L.join('\n');
}

const header = `// EXPECT harris_halide: valid
// EXPECT harris_folded_constants: valid
// EXPECT harris_fold2: invalid output-mismatch
// EXPECT harris_gradients_first: invalid uninitialized-read
// EXPECT harris_unshifted_x: invalid out-of-bounds
// EXPECT harris_swapped_annotations: invalid annotation-mismatch
// EXPECT harris_floor_strips: invalid output-mismatch
//
// harris (thesis Table 6.1): Harris corner detector on a 3-channel float image.
// GENERATED by corpus/halide/gen/harris.mjs (edit the generator, not this file).
// Follows halide/Halide tag v14.0.0, apps/harris/harris_generator.cpp, CPU schedule with an
// 8-lane float target (AVX2):
//   output.split(y, y, yi, 32).parallel(y).vectorize(x, 8);
//   gray, Ix, Iy: .store_at(output, y).compute_at(output, yi).vectorize(x, 8);
//   Ix.compute_with(Iy, x);
// Ixx, Iyy, Ixy, Sxx, Syy, Sxy, det and trace are inlined into output.
// Lowering as Halide v14 does it: ShiftInwards strips of 32 rows (the parallel loop's overlapping
// last strip is a benign race on out) and ShiftInwards vectors of 8 lanes; gray, Ix and Iy slide
// along yi with the v14 loop rewinding (the yi loop starts 4 rows early: gray computes row y + 2 at
// every iteration, Ix and Iy row y + 1 from the third, the output row y from the fifth) and are
// folded by 4 along y (3-row footprints); Ix is computed after Iy inside the same x loop
// (compute_with). The output buffer has min (2, 2) in the Halide pipeline (the algorithm reads
// the input at +-2), so out[x, y] holds Out(x + 2, y + 2); gray's buffer starts at x = 0 and Ix/Iy's
// at x = 1. The common subexpressions Sxx, Syy, Sxy of the output are Halide lets; they are written
// here as a 3-element local array per lane, each cell annotated with its spec tensor.
// Floats: the thesis ran harris in Halide's strict-float mode (no fast-math rewriting), so the
// implementation computes exactly the spec's expressions in the same order. The constants
// (-1.0f / 12) etc. of the C++ source are floats computed by the C++ compiler; the spec writes
// them as the f32 division (-1.0 / 12.0), which rounds to the same binary32 value.
// harris_folded_constants writes them as the decimal literals Halide prints (-0.083333336,
// 0.16666667, ...): equal as binary32 values (valid under the IEEE semantics of the language page),
// but not as reals: a validator encoding f32 as reals would fail it (thesis §6.3, §9.4).
// Simplifications: W and H are parameters; the schedule needs W >= 8, H >= 32 (Halide checks the
// split factors at run time).
// Mutants: harris_fold2 folds Ix and Iy by 2 (< 3-row footprint); harris_gradients_first computes
// the new rows of Iy/Ix before the new row of gray in each iteration (wrong producer order);
// harris_unshifted_x rounds the output's last vector up instead of shifting it inwards;
// harris_swapped_annotations annotates the lets Sxx and Syy with each other's tensor (the output,
// symmetric in them, is still right: only the instrumentation is wrong); harris_floor_strips
// rounds the number of 32-row strips down (H / 32), leaving the last rows unwritten when
// H % 32 != 0.
`;

const text = [header, spec(), '', impl('harris_halide'), '', impl('harris_folded_constants', { folded: true }), '',
  impl('harris_fold2', { foldI: 2 }), '', impl('harris_gradients_first', { swapOrder: true }), '',
  impl('harris_unshifted_x', { unshifted: true }), '', impl('harris_swapped_annotations', { swapAnnot: true }), '',
  impl('harris_floor_strips', { floorStrips: true }), ''].join('\n');
writeFileSync(join(here, '..', 'harris.sched'), text);
