// Generates the sgemm family of corpus/halide: sgemm, sgemm1024, sqsgemm, bigsqsgemm, bigsgemm,
// sgemmTA, sgemmTB (.sched). Our own SCHED rendering of the lowering of halide/Halide v14.0.0
// apps/linear_algebra/src/blas_l3_generators.cpp, GEMMGenerator<float> (CPU schedule). See the
// header of the generated files.
// Usage: node corpus/halide/gen/sgemm.mjs
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

// ------------------------------------------------------------------------------------------
// Specifications

// variant: 'N' (no transposition), 'TA' (transpose_A), 'TB' (transpose_B). The spec is the
// GEMM of the BLAS contract written with the Funcs of the Halide algorithm (Atmp, As, A, Btmp,
// B, prod, AB, ABt): M x N result, sum over K, with the *true* extents of the buffers.
function spec(name, variant) {
  const L = [];
  L.push(`spec ${name} {`);
  L.push('  param M, N, K;');
  L.push('  assume M >= 0 && N >= 0 && K >= 0;');
  if (variant === 'TA') {
    L.push('  input At(k, i): f32;      // A_ as stored (K x M, column-major); op(A) = At^T');
  } else {
    L.push('  input Ain(i, k): f32;     // A_ (M x K, column-major)');
  }
  if (variant === 'TB') {
    L.push('  input Bt(j, k): f32;      // B_ as stored (N x K); op(B) = Bt^T');
  } else {
    L.push('  input Bin(k, j): f32;     // B_ (K x N)');
  }
  L.push('  input Cin(i, j): f32;');
  L.push('  input Alpha(): f32;');
  L.push('  input Beta(): f32;');
  L.push('  // Atmp = BoundaryConditions::constant_exterior(A_, 0)');
  L.push('  tensor Atmp(i, j): f32;');
  if (variant === 'TA') {
    L.push('  Atmp(i, j) = select(i < 0 || i >= K || j < 0 || j >= M, 0.0, At(min(max(i, 0), K - 1), min(max(j, 0), M - 1)));');
    L.push('  // As(i, j, io) = Atmp(j, io * s + i), s = 16');
    L.push('  tensor As(i, j, io): f32;');
    L.push('  As(i, j, io) = Atmp(j, io * 16 + i);');
  } else {
    L.push('  Atmp(i, j) = select(i < 0 || i >= M || j < 0 || j >= K, 0.0, Ain(min(max(i, 0), M - 1), min(max(j, 0), K - 1)));');
    L.push('  // As(i, j, io) = Atmp(io * s + i, j), s = 16');
    L.push('  tensor As(i, j, io): f32;');
    L.push('  As(i, j, io) = Atmp(io * 16 + i, j);');
  }
  L.push('  tensor A(i, j): f32;');
  L.push('  A(i, j) = As(i % 16, j, i / 16);');
  L.push('  tensor Btmp(i, j): f32;');
  L.push(`  Btmp(i, j) = ${variant === 'TB' ? 'Bt' : 'Bin'}(i, j);`);
  L.push('  tensor B(i, j): f32;');
  L.push(`  B(i, j) = ${variant === 'TB' ? 'Btmp(j, i)' : 'Btmp(i, j)'};`);
  L.push('  tensor Prod(k, i, j): f32;');
  L.push('  Prod(k, i, j) = A(i, k) * B(k, j);');
  L.push('  // AB(i, j) += prod(rv, i, j), RDom rv(0, K): stage tensor with the reduction index');
  L.push('  tensor AB(i, j, k): f32;');
  L.push('  AB(i, j, -1) = 0.0;');
  L.push('  AB(i, j, k) = AB(i, j, k - 1) + Prod(k, i, j) where 0 <= k && k < K;');
  L.push('  tensor ABt(i, j): f32;');
  L.push('  ABt(i, j) = AB(i, j, K - 1);');
  L.push('  // The M x N result of the BLAS call.');
  L.push('  output Result(i, j): f32 = Alpha() * ABt(i, j) + Beta() * Cin(i, j)');
  L.push('    where 0 <= i && i < M && 0 <= j && j < N;');
  L.push('}');
  return L.join('\n');
}

// ------------------------------------------------------------------------------------------
// Implementation

// mut: {
//   noGuard: drop the GuardWithIf `if` of the 32x32 result tiles,
//   parReduction: the rv loop of AB's update made parallel,
//   unshiftedSupertile: in the second specialisation, ti1 = 2 * ti2 + ti1i (no ShiftInwards min),
//   shortAs: As computed on one 16-column block too few,
//   abInitAnnot: AB's pure definition annotated as AB(i, j, 0),
//   sharedAB: AB's buffer hoisted above the parallel tile loops,
//   noBoundary: Atmp reads A_ without the constant_exterior select/clamp }
function impl(name, specName, variant, assumes, mut = {}) {
  const T = variant;
  // Halide's num_rows = A_.width(), num_cols = B_.height(), sum_size = A_.height(), in terms of
  // the true dimensions M, N, K of the BLAS call (they differ when a matrix is transposed).
  const ROWS = T === 'TA' ? 'K' : 'M';
  const SUM = T === 'TA' ? 'M' : 'K';
  const COLS = T === 'TB' ? 'K' : 'N';
  const [RA, CA] = T === 'TA' ? ['K', 'M'] : ['M', 'K']; // the true extents of A_
  const L = [];
  const p = (d, s) => L.push('  '.repeat(d) + s);
  p(0, `impl ${name} of ${specName} {`);
  for (const a of assumes) p(1, `assume ${a};`);
  p(1, T === 'TA' ? 'input  a: f32[K, M] = At;' : 'input  a: f32[M, K] = Ain;');
  p(1, T === 'TB' ? 'input  b: f32[N, K] = Bt;' : 'input  b: f32[K, N] = Bin;');
  p(1, 'input  c: f32[M, N] = Cin;');
  p(1, 'input  alpha: f32[] = Alpha;');
  p(1, 'input  beta: f32[] = Beta;');
  p(1, 'output result: f32[M, N] = Result;');
  const NIO = `2 * ((${ROWS} + 31) / 32)`;
  const NJ = mut.shortAs ? `(${SUM} + 15) / 16 - 1` : `(${SUM} + 15) / 16`;
  const NT_I = `(${ROWS} + 31) / 32`;
  const NT_J = `(${COLS} + 31) / 32`;
  p(1, `// As.compute_root(): the panels of A, ${NIO} panels of 16 rows, zero-padded by Atmp`);
  p(1, `allocate as: f32[16, ${SUM}, ${NIO}] in {`);
  const asBody = (d) => {
    p(d, `let jb = min(16 * jo, ${SUM} - 16) in`);
    p(d, `for io < ${NIO} do`);
    p(d + 1, 'allocate atmp: f32[16, 16] in {');
    const oob = (i, j) => `${i} < 0 || ${i} >= ${RA} || ${j} < 0 || ${j} >= ${CA}`;
    const clampRead = (i, j) => (mut.noBoundary ? `a[${i}, ${j}]` : `a[min(max(${i}, 0), ${RA} - 1), min(max(${j}, 0), ${CA} - 1)]`);
    const atmpRhs = (i, j) => (mut.noBoundary ? clampRead(i, j) : `select(${oob(i, j)}, 0.0, ${clampRead(i, j)})`);
    if (T === 'TA') {
      p(d + 2, '// Atmp.compute_at(As, io).vectorize(i).unroll(j): Atmp(jb + q, 16 io + r)');
      p(d + 2, 'for r < 16 do');
      p(d + 3, 'par q < 16 do');
      p(d + 4, `atmp[q, r] {Atmp(jb + q, 16 * io + r)} := ${atmpRhs('jb + q', '16 * io + r')};`);
      p(d + 2, '// As: vectorize(ji), unroll(i)');
      p(d + 2, 'par ji < 16 do');
      p(d + 3, 'for ii < 16 do');
      p(d + 4, 'as[ii, jb + ji, io] {As(ii, jb + ji, io)} := atmp[ji, ii]');
    } else {
      p(d + 2, '// Atmp.compute_at(As, io).vectorize(i).unroll(j): Atmp(16 io + q, jb + r)');
      p(d + 2, 'for r < 16 do');
      p(d + 3, 'par q < 16 do');
      p(d + 4, `atmp[q, r] {Atmp(16 * io + q, jb + r)} := ${atmpRhs('16 * io + q', 'jb + r')};`);
      p(d + 2, '// As: vectorize(ji), unroll(i)');
      p(d + 2, 'par ji < 16 do');
      p(d + 3, 'for ii < 16 do');
      p(d + 4, 'as[ii, jb + ji, io] {As(ii, jb + ji, io)} := atmp[ii, ji]');
    }
    p(d + 1, '}');
  };
  p(2, `// specialize(A_.width() >= 256 && A_.height() >= 256): parallel(jo, 4)`);
  p(2, `if ${RA} >= 256 && ${CA} >= 256 then`);
  p(3, `par joo < (${NJ} + 3) / 4 do`);
  p(4, 'for joi < 4 do');
  p(5, `let jo = min(4 * joo, ${NJ} - 4) + joi in`);
  asBody(5);
  p(2, 'else');
  p(3, `for jo < ${NJ} do`);
  asBody(4);
  L[L.length - 1] += ';';

  // B staging (transpose_B only): B.compute_at(result_, t) on columns [jmin, jmin + WB)
  const bStage = (d, jmin, WB, inner) => {
    p(d, `// B.compute_at(result_, t): B(k, j) for all k and j in [${jmin}, ${jmin} + ${WB})`);
    p(d, `allocate bst: f32[${SUM}, ${WB}] in {`);
    p(d + 1, `for jo8 < ${WB / 8} do`);
    p(d + 2, `for ko < (${SUM} + 7) / 8 do`);
    p(d + 3, `let kb = min(8 * ko, ${SUM} - 8) in`);
    p(d + 3, 'allocate btmp: f32[8, 8] in {');
    p(d + 4, '// Btmp.reorder_storage(j, i).compute_at(B, i).vectorize(i).unroll(j)');
    p(d + 4, 'for q < 8 do');
    p(d + 5, 'par r < 8 do');
    p(d + 6, `btmp[q, r] {Btmp(${jmin} + 8 * jo8 + r, kb + q)} := b[${jmin} + 8 * jo8 + r, kb + q];`);
    p(d + 4, '// B.tile(i, j, ii, ji, 8, 8).vectorize(ii).unroll(ji)');
    p(d + 4, 'for ji < 8 do');
    p(d + 5, 'par ii < 8 do');
    p(d + 6, `bst[kb + ii, 8 * jo8 + ji] {B(kb + ii, ${jmin} + 8 * jo8 + ji)} := btmp[ii, ji]`);
    p(d + 3, '};');
    inner(d + 1);
    p(d, '}');
  };
  // bRead(jexpr): the value of B(rv, j) as the AB update reads it
  const tile = (d, bRead, tbGeneric) => {
    p(d, 'for tj0 < 2 do');
    const inner = (d2) => {
      p(d2, 'for ti0 < 2 do');
      p(d2 + 1, 'for j3 < 4 do');
      p(d2 + 2, mut.sharedAB ? '{' : 'allocate ab: f32[16, 4] in {');
      const e = d2 + 3;
      p(e, "// AB.compute_at(result_, i).bound_extent(j, 4).unroll(j).bound_extent(i, 16).vectorize(i)");
      p(e, 'for jj < 4 do');
      p(e + 1, 'par iv < 16 do');
      p(e + 2, `ab[iv, jj] {AB(32 * ti1 + 16 * ti0 + iv, 32 * tj1 + 16 * tj0 + 4 * j3 + jj, ${mut.abInitAnnot ? '0' : '-1'})} := 0.0;`);
      p(e, '// update: reorder(i, j, rv).unroll(j).unroll(rv, 2) (GuardWithIf for the RVar).vectorize(i)');
      p(e, `${mut.parReduction ? 'par' : 'for'} rvo < (${SUM} + 1) / 2 do`);
      p(e + 1, 'for rvi < 2 do');
      p(e + 2, 'let rv = 2 * rvo + rvi in');
      p(e + 2, `if rv < ${SUM} then`);
      p(e + 3, 'for jj < 4 do');
      p(e + 4, 'let j = 32 * tj1 + 16 * tj0 + 4 * j3 + jj in');
      p(e + 4, 'par iv < 16 do');
      p(e + 5, 'let i = 32 * ti1 + 16 * ti0 + iv in');
      p(e + 5, `ab[iv, jj] {AB(i, j, rv)} := ab[iv, jj] + as[iv, rv, 2 * ti1 + ti0] * ${bRead('j')};`);
      p(e, `// result_: GuardWithIf on the 32x32 tiles`);
      p(e, 'for ji < 4 do');
      p(e + 1, 'for ii < 16 do');
      p(e + 2, 'let i = 32 * ti1 + 16 * ti0 + ii in');
      p(e + 2, 'let j = 32 * tj1 + 16 * tj0 + 4 * j3 + ji in');
      if (mut.noGuard) {
        p(e + 2, 'result[i, j] {Result(i, j)} := alpha[] * ab[ii, ji] + beta[] * c[i, j]');
      } else {
        p(e + 2, `if i < ${ROWS} && j < ${COLS} then`);
        p(e + 3, 'result[i, j] {Result(i, j)} := alpha[] * ab[ii, ji] + beta[] * c[i, j]');
      }
      p(d2 + 2, '}');
    };
    if (tbGeneric) bStage(d + 1, '32 * tj1 + 16 * tj0', 16, inner);
    else inner(d + 1);
  };
  const bDirect = (j) => `b[rv, ${j}]`;
  const bStaged = (jmin) => (j) => `bst[rv, ${j} - (${jmin})]`;
  const TBv = T === 'TB';
  const body = (d) => {
    p(d, `// result_.specialize(num_rows >= 512 && num_cols >= 512).fuse(tj1, ti1, t).parallel(t)`);
    p(d, `if ${ROWS} >= 512 && ${COLS} >= 512 then`);
    p(d + 1, `par tj1 < ${NT_J} do`);
    p(d + 2, `par ti1 < ${NT_I} do`);
    if (TBv) bStage(d + 3, '32 * tj1', 32, (d3) => tile(d3, bStaged('32 * tj1'), false));
    else tile(d + 3, bDirect, false);
    p(d, `// specialize(num_rows >= 128 && num_cols >= 128).tile(ti1, tj1, ti2, tj2, ti1, tj1, 2, 2)`);
    p(d, `//   .fuse(tj2, ti2, t).parallel(t); ShiftInwards on the 2x2 super-tiles`);
    p(d, `else if ${ROWS} >= 128 && ${COLS} >= 128 then`);
    p(d + 1, `par tj2 < (${NT_J} + 1) / 2 do`);
    p(d + 2, `par ti2 < (${NT_I} + 1) / 2 do`);
    const d3 = d + 3;
    const inner2 = (dd) => {
      p(dd, 'for tj1i < 2 do');
      p(dd + 1, `let tj1 = min(2 * tj2, ${NT_J} - 2) + tj1i in`);
      p(dd + 1, 'for ti1i < 2 do');
      p(dd + 2, mut.unshiftedSupertile ? 'let ti1 = 2 * ti2 + ti1i in' : `let ti1 = min(2 * ti2, ${NT_I} - 2) + ti1i in`);
      tile(dd + 2, TBv ? bStaged(`32 * min(2 * tj2, ${NT_J} - 2)`) : bDirect, false);
    };
    if (TBv) bStage(d3, `32 * min(2 * tj2, ${NT_J} - 2)`, 64, inner2);
    else inner2(d3);
    p(d, '// generic schedule: no parallelism (rename(tj0, t))');
    p(d, 'else');
    p(d + 1, `for tj1 < ${NT_J} do`);
    p(d + 2, `for ti1 < ${NT_I} do`);
    tile(d + 3, TBv ? bStaged('32 * tj1 + 16 * tj0') : bDirect, TBv);
  };
  if (mut.sharedAB) {
    p(2, '// (mutant) AB hoisted to the top: one accumulator shared by all parallel tiles');
    p(2, 'allocate ab: f32[16, 4] in');
    body(3);
  } else body(2);
  p(1, '}');
  p(0, '}');
  return L.join('\n');
}

// ------------------------------------------------------------------------------------------
// Files

const common = (what) => `// ${what}
// GENERATED by corpus/halide/gen/sgemm.mjs (edit the generator, not this file).
// Follows halide/Halide tag v14.0.0, apps/linear_algebra/src/blas_l3_generators.cpp,
// GEMMGenerator<float> (result = a * A B + b * C, matrices column-major, Halide's x = row), CPU
// target with 8-lane floats (AVX2): vec = 8, s = 16. Algorithm: Atmp = constant_exterior(A_, 0);
// As(i, j, io) = Atmp(io * 16 + i, j) (16-row panels of A); A(i, j) = As(i % 16, j, i / 16);
// B = Btmp = B_; prod(k, i, j) = A(i, k) * B(k, j); AB(i, j) += prod(rv, i, j), RDom rv(0, K);
// result = a * AB + b * C. The SARE names every Func; AB's update has the reduction index k.
// Schedule and its lowering:
// - result_.tile(i, j, ti1, tj1, i, j, 32, 32, GuardWithIf): 32x32 tiles; the GuardWithIf tail is
//   the \`if i < num_rows && j < num_cols\` around the store;
//   .tile(i, j, ii, ji, 16, 4).tile(i, j, ti0, tj0, i, j, 1, 4): loops tj1, ti1, tj0 (2), ti0 (2),
//   j3 (4), [i3 of extent 1, omitted], ji (4), ii (16), with i = 32 ti1 + 16 ti0 + ii and
//   j = 32 tj1 + 16 tj0 + 4 j3 + ji;
// - specialize(num_rows >= 512 && num_cols >= 512).fuse(tj1, ti1, t).parallel(t): two nested par
//   loops (the thesis prototype splits fused parallel loops back);
// - specialize(num_rows >= 128 && num_cols >= 128).tile(ti1, tj1, ti2, tj2, ti1, tj1, 2, 2)
//   .fuse(tj2, ti2, t).parallel(t): 2x2 super-tiles with ShiftInwards (an odd number of 32-tiles
//   makes the last super-tile overlap its neighbour: benign races on \`result\`);
// - otherwise rename(tj0, t): sequential;
// - As.compute_root().split(j, jo, ji, 16).reorder(i, ji, io, jo).unroll(i).vectorize(ji)
//   .specialize(A_.width() >= 256 && A_.height() >= 256).parallel(jo, 4): ShiftInwards on j
//   (needs sum_size >= 16) and on the task split of jo (benign races on \`as\`);
//   Atmp.compute_at(As, io).vectorize(i).unroll(j): a 16x16 local per (jo, io);
// - AB.compute_at(result_, i).bound_extent(j, 4).unroll(j).bound_extent(i, 16).vectorize(i)
//   .update().reorder(i, j, rv).unroll(j).unroll(rv, 2).vectorize(i): a 16x4 local accumulator per
//   (tj0, ti0, j3); the rv split by 2 is GuardWithIf (Auto for an RVar). The order of the
//   reduction is unchanged, so every accumulation is annotated with AB(i, j, rv).
// Bounds: bound_extent makes AB cover 16 rows and 4 columns even past the matrix: past num_rows
// it reads As's zero padding (As is realised on 2 * ceil(num_rows / 32) panels); past num_cols it
// would read B_ out of bounds, so Halide's bounds check on B_ requires num_cols % 32 == 0: we state
// it as an assumption (the thesis gives such schedule-implied size constraints as contextual
// axioms, §6.3).
// Simplifications: the unrolled loops are written as loops; vector loops as \`par\` lanes; the
// flat buffers are multi-dimensional; a, b are 0-dimensional arrays alpha[], beta[].
`;

const specN = spec('sgemm', 'N');
const sane = ['M >= 1', 'K >= 16', 'N >= 32', 'N % 32 == 0'];
const files = [
  {
    file: 'sgemm.sched',
    what: 'sgemm (thesis Table 6.1): parametric M x N x K single-precision GEMM, all three specialisations.',
    extra: `// Mutants: sgemm_no_guard drops the GuardWithIf guard (stores rows past M when M % 32 != 0);
// sgemm_par_reduction makes the RDom loop parallel; sgemm_unshifted_supertile drops the
// ShiftInwards min of the 2x2 super-tiles of the second specialisation (with an odd number of
// 32-row tiles the last super-tile runs one tile past the As panels).
`,
    spec: specN,
    impls: [
      ['sgemm_halide', 'valid', 'N', sane, {}],
      ['sgemm_no_guard', 'invalid out-of-bounds', 'N', sane, { noGuard: true }],
      ['sgemm_par_reduction', 'invalid race', 'N', sane, { parReduction: true }],
      ['sgemm_unshifted_supertile', 'invalid out-of-bounds', 'N', sane, { unshiftedSupertile: true }],
    ],
  },
  {
    file: 'sgemm1024.sched',
    what: 'sgemm1024 (thesis Table 6.1): the same pipeline for 1024 x 1024 matrices (only the first specialisation is live).',
    extra: `// Mutant: sgemm1024_short_panels computes As on one 16-column block too few (off-by-one in the
// jo extent): AB reads columns 1008..1023 of the panels that were never written.
`,
    spec: specN,
    impls: [
      ['sgemm1024_halide', 'valid', 'N', ['M == 1024', 'N == 1024', 'K == 1024'], {}],
      ['sgemm1024_short_panels', 'invalid uninitialized-read', 'N', ['M == 1024', 'N == 1024', 'K == 1024'], { shortAs: true }],
    ],
  },
  {
    file: 'sqsgemm.sched',
    what: 'sqsgemm (thesis Table 6.1): the pipeline on square matrices of parametric size (M = N = K).',
    extra: `// Mutants: sqsgemm_unaligned drops the assumption N % 32 == 0 implied by the schedule (AB's
// bound_extent then reads B_ past its last column); sqsgemm_ab_init_annotation annotates the
// initialisation of AB as AB(i, j, 0) instead of AB(i, j, -1) (right code, wrong annotation).
`,
    spec: specN,
    impls: [
      ['sqsgemm_halide', 'valid', 'N', ['M == N', 'K == N', 'N >= 32', 'N % 32 == 0'], {}],
      ['sqsgemm_unaligned', 'invalid out-of-bounds', 'N', ['M == N', 'K == N', 'N >= 32'], {}],
      ['sqsgemm_ab_init_annotation', 'invalid annotation-mismatch', 'N', ['M == N', 'K == N', 'N >= 32', 'N % 32 == 0'], { abInitAnnot: true }],
    ],
  },
  {
    file: 'bigsqsgemm.sched',
    what: 'bigsqsgemm (thesis Table 6.1): square matrices of size at least 512 (the first specialisation of result_ and of As is live).',
    extra: `// Mutant: bigsqsgemm_shared_accumulator hoists AB's 16x4 accumulator above the parallel tile
// loops (store level too high): parallel tiles race on it.
`,
    spec: specN,
    impls: [
      ['bigsqsgemm_halide', 'valid', 'N', ['M == N', 'K == N', 'N >= 512', 'N % 32 == 0'], {}],
      ['bigsqsgemm_shared_accumulator', 'invalid race', 'N', ['M == N', 'K == N', 'N >= 512', 'N % 32 == 0'], { sharedAB: true }],
    ],
  },
  {
    file: 'bigsgemm.sched',
    what: 'bigsgemm (thesis Table 6.1): non-square matrices with all sizes at least 512.',
    extra: `// Mutant: bigsgemm_no_boundary drops the constant_exterior boundary condition of Atmp: the
// last As panel reads rows of A_ past M when M % 32 != 0.
`,
    spec: specN,
    impls: [
      ['bigsgemm_halide', 'valid', 'N', ['M >= 512', 'N >= 512', 'K >= 512', 'N % 32 == 0'], {}],
      ['bigsgemm_no_boundary', 'invalid out-of-bounds', 'N', ['M >= 512', 'N >= 512', 'K >= 512', 'N % 32 == 0'], { noBoundary: true }],
    ],
  },
  {
    file: 'sgemmTA.sched',
    what: `sgemmTA (thesis Table 6.1, expected to fail): GEMM with transpose_A = true, result = a A_^T B + b C.
// The generator computes num_rows = A_.width() and sum_size = A_.height(), which for a transposed
// A_ (stored K x M) are K and M: the pipeline is only right when A_ is square (M == K), as the
// thesis says. The spec below is the BLAS contract (M x N result, sum over K); the implementation
// is Halide's lowering with num_rows = K and sum_size = M. sgemmTA_halide has no squareness
// assumption: a correct validator must reject it (for M != K the loops run past the true extents
// of result/c (K > M) or of b (M > K), and the sums have the wrong length), hence \`invalid\`
// without a class (which violation is reported first is the validator's choice).
// sgemmTA_square adds the assumption M == K the Halide generator silently makes: valid.
// (Halide itself would stop at run time on its buffer-shape assertions for M != K.)`,
    extra: '',
    spec: spec('sgemm_ta', 'TA'),
    impls: [
      ['sgemmTA_halide', 'invalid', 'TA', ['M >= 16', 'K >= 16', 'N >= 32', 'N % 32 == 0'], {}],
      ['sgemmTA_square', 'valid', 'TA', ['M == K', 'K >= 16', 'N >= 32', 'N % 32 == 0'], {}],
    ],
  },
  {
    file: 'sgemmTB.sched',
    what: `sgemmTB (thesis Table 6.1, expected to fail): GEMM with transpose_B = true, result = a A B_^T + b C.
// The generator computes num_cols = B_.height(), which for a transposed B_ (stored N x K) is K,
// and checks B_.dim(0) against sum_size: in the v14 source it is B that must be square (N == K);
// the thesis says "assumes that matrix A is square" for both variants. The spec below is the BLAS
// contract; the implementation is Halide's lowering with num_cols = K, including the transpose_B
// schedule: B.compute_at(result_, t).tile(i, j, ii, ji, 8, 8).vectorize(ii).unroll(ji) and
// Btmp.reorder_storage(j, i).compute_at(B, i).vectorize(i).unroll(j) (t is the fused parallel
// loop in the two specialisations and tj0 in the generic schedule, so B is staged on 32, 64 or 16
// columns). sgemmTB_halide has no squareness assumption: for K > N it stores columns past N, for
// K < N it leaves columns K..N-1 unwritten: \`invalid\` without a class.
// sgemmTB_square adds N == K: valid.`,
    extra: '',
    spec: spec('sgemm_tb', 'TB'),
    impls: [
      ['sgemmTB_halide', 'invalid', 'TB', ['M >= 1', 'K >= 32', 'N >= 1', 'K % 32 == 0'], {}],
      ['sgemmTB_square', 'valid', 'TB', ['M >= 1', 'N == K', 'K >= 32', 'K % 32 == 0'], {}],
    ],
  },
];

for (const f of files) {
  const specName = f.spec.match(/^spec (\w+)/)[1];
  const head = f.impls.map(([n, e]) => `// EXPECT ${n}: ${e}`).join('\n');
  const parts = [head, '//', common(f.what) + f.extra, f.spec, ''];
  for (const [n, , v, as, mut] of f.impls) parts.push(impl(n, specName, v, as, mut), '');
  writeFileSync(join(here, '..', f.file), parts.join('\n'));
}
