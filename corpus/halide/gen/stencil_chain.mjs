// Generates corpus/halide/sc1.sched and sc32.sched (our own SCHED rendering of the lowering of
// halide/Halide v14.0.0 apps/stencil_chain, CPU schedule; see the header of the generated files).
// Usage: node corpus/halide/gen/stencil_chain.mjs   (writes both files next to this directory)
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const TW = 32; // tile width  (Halide: w / 4 with w = 1536 + expansion)
const TH = 16; // tile height (Halide: h / 4 with h = 2560 + expansion)
const VEC = 16; // natural_vector_size<uint16_t>() on AVX2
const GROUP = 11; // group_size in the generator

const tname = (k) => (k === 0 ? 'F' : `S${k - 1}`); // spec tensor of stages[k]

// The 25-point stencil of stage k >= 1 applied to a reader `rd(dx, dy)` (offsets in x and y),
// in Halide's order: i (x offset) outer, j (y offset) inner, coefficient (i + 3) * (j + 3).
function stencil(rd) {
  const terms = [];
  for (let i = -2; i <= 2; i++) for (let j = -2; j <= 2; j++) terms.push(`${(i + 3) * (j + 3)} * ${rd(i, j)}`);
  const lines = [];
  for (let k = 0; k < terms.length; k += 5) lines.push(terms.slice(k, k + 5).join(' + '));
  return lines;
}
const off = (v, d) => (d === 0 ? v : d > 0 ? `${v} + ${d}` : `${v} - ${-d}`);

function spec(S, name) {
  const out = [];
  out.push(`spec ${name} {`);
  out.push('  param W, H;');
  out.push('  assume W >= 1 && H >= 1;');
  out.push('  input In(x, y): u16;');
  out.push('  // f = BoundaryConditions::repeat_edge(input)');
  out.push('  tensor F(x, y): u16;');
  out.push('  F(x, y) = In(min(max(x, 0), W - 1), min(max(y, 0), H - 1));');
  for (let k = 1; k <= S; k++) {
    out.push(`  tensor ${tname(k)}(x, y): u16;`);
    const ls = stencil((i, j) => `${tname(k - 1)}(${off('x', i)}, ${off('y', j)})`);
    out.push(`  ${tname(k)}(x, y) =`);
    ls.forEach((l, n) => out.push(`    ${n === 0 ? '  ' : '+ '}${l}${n === ls.length - 1 ? ';' : ''}`));
  }
  out.push('  // The W x H output image.');
  out.push(`  output Out(x, y): u16 = ${tname(S)}(x, y) where 0 <= x && x < W && 0 <= y && y < H;`);
  out.push('}');
  return out.join('\n');
}

// Groups of the CPU schedule: [j, lo]: stages[j] is compute_root (or the output when j = S),
// stages[lo..j-1] are store_at(out, t).compute_at(out, yi).vectorize(x, 16).
function groups(S) {
  const gs = [];
  for (let j = S; j > 0; j -= GROUP) gs.push([j, Math.max(0, j - GROUP + 1)]);
  return gs.reverse(); // execution order: farthest from the output first
}

// opts: { fold, sharedWindow, unshifted, shortRoot: j index whose region is computed 2 pixels short,
//         badAnnot: j index whose root stage is annotated with the next stage }
function impl(S, name, specName, opts = {}) {
  const fold = opts.fold ?? 8;
  const L = [];
  const ind = (n) => '  '.repeat(n);
  L.push(`impl ${name} of ${specName} {`);
  L.push(`  assume W >= ${TW} && H >= ${TH};`);
  L.push('  input  inp: u16[W, H] = In;');
  L.push('  output out: u16[W, H] = Out;');
  const gs = groups(S);
  let depth = 1;
  const roots = gs.filter(([j]) => j !== S).map(([j]) => j);
  const ex = (j) => 2 * (S - j); // expansion of the region of stages[j] on each side
  // allocate the root buffers in order, each scoped to the rest of the pipeline
  const body = [];
  gs.forEach(([j, lo], gi) => {
    const isOut = j === S;
    const e = ex(j);
    const M = j - lo; // number of sliding stages
    const d0 = depth;
    if (!isOut) {
      body.push(`${ind(depth)}allocate s${j}: u16[W + ${2 * e}, H + ${2 * e}] in {`);
      depth++;
    }
    body.push(`${ind(depth)}// group of stages[${j}] = ${isOut ? 'output (stage ' + tname(j) + ' inlined)' : tname(j) + ', compute_root'}: tiles ${TW}x${TH}, fused parallel tile loop`);
    const ext = (v) => (e === 0 ? v : `${v} + ${2 * e}`);
    const short = opts.shortRoot === j ? 2 : 0; // mutant: region computed 2 pixels short on each side
    const eR = e - short;
    const extR = (v) => (eR === 0 ? v : `${v} + ${2 * eR}`);
    const shiftX = opts.unshifted && isOut ? `${TW} * xo` : `min(${TW} * xo, ${extR('W')} - ${TW})`;
    const shiftY = opts.unshifted && isOut ? `${TH} * yo` : `min(${TH} * yo, ${extR('H')} - ${TH})`;
    // sliding buffers: stage i at distance m = j - i (store_at the tile loop: one per tile, or,
    // in the sharedWindow mutant, hoisted above the parallel tile loops)
    const allocs = [];
    for (let i = lo; i < j; i++) {
      const m = j - i;
      allocs.push(`allocate b${i}: u16[${TW + 4 * m}, ${fold}] in`);
    }
    if (opts.sharedWindow) for (const a of allocs) body.push(`${ind(depth)}${a}`);
    body.push(`${ind(depth)}par yo < (${extR('H')} + ${TH - 1}) / ${TH} do`);
    body.push(`${ind(depth + 1)}par xo < (${extR('W')} + ${TW - 1}) / ${TW} do`);
    depth += 2;
    body.push(`${ind(depth)}let x0 = ${shiftX}${eR ? ` - ${eR}` : ''} in`);
    body.push(`${ind(depth)}let y0 = ${shiftY}${eR ? ` - ${eR}` : ''} in`);
    if (!opts.sharedWindow) for (const a of allocs) body.push(`${ind(depth)}${a}`);
    body.push(`${ind(depth)}for yr < ${TH + 4 * M} do`);
    depth++;
    body.push(`${ind(depth)}let y = y0 + yr - ${4 * M} in {`);
    depth++;
    // reader of stages[k] at absolute (xx, yy) expressions, from the point of view of this group
    const reader = (k, dx, yy, dy) => {
      const r = dy === 0 ? yy : `(${off(yy, dy)})`;
      if (k >= lo && k < j) {
        const m = j - k;
        return `b${k}[${off('xs + v - x0', dx + 2 * m)}, ${r} % ${fold}]`;
      }
      // root buffer of a previous group (k is its j)
      const e2 = ex(k);
      return `s${k}[${off('xs + v', dx + e2)}, ${off(yy, dy + e2)}]`;
    };
    const cmds = [];
    for (let i = lo; i < j; i++) {
      const m = j - i;
      const w = TW + 4 * m;
      const c = [];
      const guard = 4 * M - 4 * m;
      c.push(`// ${tname(i)}: the new row y + ${2 * m}, x in [x0 - ${2 * m}, x0 + ${TW + 2 * m})`);
      c.push(`${guard > 0 ? `if yr >= ${guard} then ` : ''}let r = y + ${2 * m} in`);
      c.push(`  for q < ${Math.ceil(w / VEC)} do`);
      c.push(`    let xs = min(${VEC} * q, ${w - VEC}) + x0 - ${2 * m} in`);
      c.push(`    par v < ${VEC} do`);
      const lhs = `b${i}[xs + v - x0 + ${2 * m}, r % ${fold}] {${tname(i)}(xs + v, r)} :=`;
      if (i === 0) {
        c.push(`      ${lhs} inp[min(max(xs + v, 0), W - 1), min(max(r, 0), H - 1)]`);
      } else {
        c.push(`      ${lhs}`);
        const ls = stencil((dx, dy) => reader(i - 1, dx, 'r', dy));
        ls.forEach((l, n) => c.push(`        ${n === 0 ? '  ' : '+ '}${l}`));
      }
      cmds.push(c);
    }
    // the group's own stage
    {
      const c = [];
      c.push(`// ${isOut ? 'output' : tname(j)}: row y, vectorised by ${VEC}`);
      c.push(`if yr >= ${4 * M} then`);
      c.push(`  for q < ${TW / VEC} do`);
      c.push(`    let xs = ${VEC} * q + x0 in`);
      c.push(`    par v < ${VEC} do`);
      const annot = isOut ? 'Out(xs + v, y)' : `${tname(opts.badAnnot === j ? j + 1 : j)}(xs + v, y)`;
      const tgt = isOut ? 'out[xs + v, y]' : `s${j}[xs + v + ${e}, y + ${e}]`;
      c.push(`      ${tgt} {${annot}} :=`);
      const ls = stencil((dx, dy) => reader(j - 1, dx, 'y', dy));
      ls.forEach((l, n) => c.push(`        ${n === 0 ? '  ' : '+ '}${l}`));
      cmds.push(c);
    }
    cmds.forEach((c, n) => {
      c.forEach((l, k) => body.push(`${ind(depth)}${l}${k === c.length - 1 && n < cmds.length - 1 ? ';' : ''}`));
    });
    depth--;
    body.push(`${ind(depth)}}${gi < gs.length - 1 ? ';' : ''}`);
    depth = d0 + (isOut ? 0 : 1);
  });
  L.push(...body);
  for (let k = 0; k < roots.length; k++) L.push(`${'  '.repeat(roots.length - k)}}`);
  L.push('}');
  return L.join('\n');
}

function header(S, expects, extra) {
  return `${expects.map(([n, v]) => `// EXPECT ${n}: ${v}`).join('\n')}
//
// sc${S} (thesis Table 6.1): the stencil chain with ${S} stage${S > 1 ? 's' : ''} of 5x5 stencils on uint16.
// GENERATED by corpus/halide/gen/stencil_chain.mjs (edit the generator, not this file).
// Follows halide/Halide tag v14.0.0, apps/stencil_chain/stencil_chain_generator.cpp, with the
// GeneratorParam stencils = ${S} and the CPU schedule: the stages are cut into groups of
// group_size = 11 (counted from the output); the last stage of a group is compute_root (the output
// for the last group) and tiled, with the tile loops fused and parallel and the inner x loop
// vectorised by 16; the other stages of the group are store_at(out, t).compute_at(out, yi) and
// vectorised by 16. The last stencil stage is inlined into the output.
// Lowering as Halide v14 does it: ShiftInwards tiles (min(TW * xo, extent - TW)), so the
// overlapping last tiles are benign write-write races between parallel tiles; sliding windows
// along yi with the v14 loop rewinding (the yi loop starts 4 * M rows early for M slid stages;
// the stage at distance m from the group's output computes exactly the new row y + 2 m, once
// y + 2 m >= y0 - 2 m); storage folding of every slid stage by 8 (next power of two of its
// 5-row footprint), index \`row % 8\`; the buffers of slid stages are allocated per tile (store_at
// the fused parallel tile loop) and indexed relative to the tile's realised region
// (x - (x0 - 2 m)); compute_root buffers are realised on the output region grown by 2 pixels per
// remaining stencil on each side and indexed x + e, y + e.
// Simplifications: tile sizes ${TW}x${TH} for every group instead of Halide's (1536 + expansion) / 4
// by (2560 + expansion) / 4 (which are tuned to a 1536x2560 image); the fused tile loop is written as
// two nested par loops (as the thesis prototype does); Halide's leading \`cast<uint16_t>(0) +\` of
// each stencil is dropped (the simplifier removes it); the coefficient 1 is kept.
${extra}`;
}

/** A stencil chain of S stages (spec and the faithful impl only), for scaling benchmarks. */
export function chain(S) {
  return [header(S, [[`sc${S}_halide`, 'valid']], ''), spec(S, `sc${S}`), '', impl(S, `sc${S}_halide`, `sc${S}`), ''].join('\n');
}

// Writing the corpus files only when run as a script (bench/ imports `chain`).
const asScript = process.argv[1] === fileURLToPath(import.meta.url);

const sc1 = [
  header(1, [
    ['sc1_halide', 'valid'],
    ['sc1_fold4', 'invalid output-mismatch'],
    ['sc1_shared_window', 'invalid race'],
    ['sc1_unshifted_tiles', 'invalid out-of-bounds'],
  ], `//
// Mutants: sc1_fold4 folds the slid stage by 4 (< its 5-row footprint: row y + 2 overwrites row
// y - 2 which the same iteration still reads); sc1_shared_window hoists the storage of the slid
// stage above the parallel tile loops (store_at root instead of store_at the tile): parallel tiles
// write different values of f into the same rolling buffer; sc1_unshifted_tiles rounds the output
// tiles up (x0 = 32 * xo) instead of shifting the last tile inwards.
`),
  spec(1, 'sc1'),
  '',
  impl(1, 'sc1_halide', 'sc1'),
  '',
  impl(1, 'sc1_fold4', 'sc1', { fold: 4 }),
  '',
  impl(1, 'sc1_shared_window', 'sc1', { sharedWindow: true }),
  '',
  impl(1, 'sc1_unshifted_tiles', 'sc1', { unshifted: true }),
  '',
].join('\n');
if (asScript) writeFileSync(join(here, '..', 'sc1.sched'), sc1);

const sc32 = [
  header(32, [
    ['sc32_halide', 'valid'],
    ['sc32_short_root', 'invalid uninitialized-read'],
  ], `//
// Groups for 32 stages: stages[10] = S9 (compute_root, with F, S0..S8 slid inside its tiles),
// stages[21] = S20 (compute_root, with S10..S19 slid), and the output (= S31 inlined, with
// S21..S30 slid).
// Mutants: sc32_short_root computes the compute_root stage S20 on a region 2 pixels too small on
// each side (bounds inference off by one stencil): the output group reads cells of s21 that were
// never written.
`),
  spec(32, 'sc32'),
  '',
  impl(32, 'sc32_halide', 'sc32'),
  '',
  impl(32, 'sc32_short_root', 'sc32', { shortRoot: 21 }),
  '',
].join('\n');
if (asScript) writeFileSync(join(here, '..', 'sc32.sched'), sc32);
