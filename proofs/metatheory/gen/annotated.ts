// Random small specifications with annotated implementations for the chapter-5 properties (Thm
// 5.3.1, Thm 5.5.4). An implementation is correct by construction — it is one of a few schedules
// (parallel or sequential loops, reversal, tiling with a guard or with a shifted last tile, staging
// through a local or a global array, accumulation in a local) applied to a spec drawn from three
// families (a pointwise map with shifted reads, a reduction, a producer–consumer pair), with
// every assignment annotated with the spec value it writes — and then, half of the time, mutated by
// one of the classic scheduling bugs (loop bound off by one, a read shifted, a wrong intermediate
// annotation with right outputs, a parallelised recurrence, a missing initialisation, an unshifted
// last tile, swapped operands, a producer that stops one short).
//
// Cases are plain records of choices, so shrinking is structural, and print as the .sched text.

import fc from 'fast-check';

export type Family = 'map' | 'reduce' | 'stages';
export type Mutation = 'none' | 'bound+1' | 'bound-1' | 'read+1' | 'annotation' | 'par-recurrence' | 'no-init' | 'no-shift' | 'swap' | 'producer-short' | 'in-place';

export interface AnnotatedCase {
  readonly family: Family;
  readonly schedule: number;
  readonly elem: 'i32' | 'f32';
  readonly fn: number;
  readonly d1: number;
  readonly d2: number;
  readonly outerPar: boolean;
  readonly mutation: Mutation;
  /** The .sched text (spec and implementation) and what the mutation should break. */
  readonly src: string;
  /** Whether the implementation is correct by construction (no mutation, or a harmless one). */
  readonly intended: 'correct' | 'buggy';
}

/** Value functions f(X, Y, i) written once for the spec (tensors) and once for the impl. */
const FUNCTIONS: readonly { spec: string; impl: string; commutes: boolean }[] = [
  { spec: 'X + Y', impl: 'x + y', commutes: true },
  { spec: 'X * Y - X', impl: 'x * y - x', commutes: false },
  { spec: 'max(X, Y)', impl: 'max(x, y)', commutes: false },
  { spec: 'select(i % 2 == 0, X, Y)', impl: 'select(i % 2 == 0, x, y)', commutes: false },
  { spec: 'X - T(i)', impl: 'x - T(i)', commutes: false },
  { spec: 'X', impl: 'x', commutes: false },
];

function fill(template: string, m: Record<string, string>): string {
  return template.replace(/\b[XYT]\b|\b[xy]\b/g, (k) => m[k] ?? k);
}

/** Family `map`: O(i) = f(A(i + d1), A(i + d2), i). */
function mapCase(c: Choices): { src: string; intended: AnnotatedCase['intended'] } {
  const f = FUNCTIONS[c.fn % FUNCTIONS.length]!;
  const T = c.elem;
  const A = (k: number): string => `A(i + ${k})`;
  const specBody = fill(f.spec, { X: A(c.d1), Y: A(c.d2), T });
  const spec = `spec s {
  param N;
  assume N >= 1;
  input A(i): ${T};
  output O(i): ${T} = ${specBody} where 0 <= i && i < N;
}`;
  const m = c.mutation;
  const rd1 = m === 'read+1' ? c.d1 + 1 : c.d1;
  const implF = (x: string, y: string): string => (m === 'swap' && !f.commutes && f.impl.includes('y') ? fill(f.impl, { x: y, y: x, T }) : fill(f.impl, { x, y, T }));
  const rhs = implF(`a[i + ${rd1}]`, `a[i + ${c.d2}]`);
  const bound = m === 'bound+1' ? 'N + 1' : m === 'bound-1' ? 'N - 1' : 'N';
  const K = c.outerPar ? 'par' : 'for';
  let body: string;
  let assume = '';
  let decls = '';
  switch (c.schedule % 6) {
    case 0:
      body = `${K} i < ${bound} do o[i] {O(i)} := ${rhs}`;
      break;
    case 1:
      body = `${K} r < ${bound} do let i = N - 1 - r in o[i] {O(i)} := ${rhs}`;
      break;
    case 2:
      body = `par io < (${bound} + 1) / 2 do for ii < 2 do let i = 2 * io + ii in if i < ${bound} then o[i] {O(i)} := ${rhs}`;
      break;
    case 3:
      // The last tile is shifted inwards: it recomputes cells of the previous one (benign races).
      assume = '  assume N >= 2;\n';
      body = `par io < (${bound} + 1) / 2 do for ii < 2 do let i = ${m === 'no-shift' ? '2 * io' : `min(2 * io, ${bound} - 2)`} + ii in o[i] {O(i)} := ${rhs}`;
      break;
    case 4: {
      const ann = m === 'annotation' ? A(c.d1 + 1) : A(c.d1);
      body = `${K} i < ${bound} do allocate t: ${T}[2] in { t[0] {${ann}} := a[i + ${rd1}]; t[1] {${A(c.d2)}} := a[i + ${c.d2}]; o[i] {O(i)} := ${implF('t[0]', 't[1]')} }`;
      break;
    }
    default: {
      const ann = m === 'annotation' ? A(c.d1 + 1) : A(c.d1);
      decls = `  array t: ${T}[N, 2];\n`;
      body = `par i < ${bound} do { t[i, 0] {${ann}} := a[i + ${rd1}]; t[i, 1] {${A(c.d2)}} := a[i + ${c.d2}] };\n  ${K} i < ${bound} do o[i] {O(i)} := ${implF('t[i, 0]', 't[i, 1]')}`;
    }
  }
  const impl = `impl p of s {
${assume}  input a: ${T}[N + 3] = A;
  output o: ${T}[N] = O;
${decls}  ${body}
}`;
  // Mutations that cannot change anything here count as correct.
  const harmless = m === 'none' || (m === 'swap' && (f.commutes || !f.impl.includes('y'))) || (m === 'annotation' && c.schedule % 6 < 4) || (m === 'no-shift' && c.schedule % 6 !== 3) || m === 'par-recurrence' || m === 'no-init' || m === 'producer-short' || m === 'in-place';
  return { src: `${spec}\n${impl}\n`, intended: harmless ? 'correct' : 'buggy' };
}

/** Family `reduce`: R(i, k) = R(i, k − 1) + A(i, k) from R(i, −1) = 0, O(i) = R(i, K − 1). */
function reduceCase(c: Choices): { src: string; intended: AnnotatedCase['intended'] } {
  const T = c.elem;
  const zero = T === 'f32' ? '0.0' : '0';
  const spec = `spec s {
  param N, K;
  assume N >= 1 && K >= 0;
  input A(i, k): ${T};
  tensor R(i, k): ${T};
  R(i, -1) = ${zero};
  R(i, k) = R(i, k - 1) + A(i, k) where 0 <= k && k < K;
  output O(i): ${T} = R(i, K - 1) where 0 <= i && i < N;
}`;
  const m = c.mutation;
  const bound = m === 'bound+1' ? 'N + 1' : m === 'bound-1' ? 'N - 1' : 'N';
  const kbound = m === 'read+1' ? 'K + 1' : 'K';
  const inner = m === 'par-recurrence' ? 'par' : 'for';
  const K = c.outerPar ? 'par' : 'for';
  const sum = (acc: string): string => (m === 'swap' ? `a[i, k] + ${acc}` : `${acc} + a[i, k]`);
  let body: string;
  if (c.schedule % 2 === 0) {
    const init = m === 'no-init' ? '' : `o[i] {R(i, -1)} := ${zero}; `;
    body = `${K} i < ${bound} do { ${init}${inner} k < ${kbound} do o[i] {R(i, k)} := ${sum('o[i]')} }`;
  } else {
    const init = m === 'no-init' ? '' : `acc[0] {R(i, -1)} := ${zero}; `;
    const ann = m === 'annotation' ? 'R(i, K - 1)' : 'O(i)';
    body = `${K} i < ${bound} do allocate acc: ${T}[1] in { ${init}${inner} k < ${kbound} do acc[0] {R(i, k)} := ${sum('acc[0]')}; o[i] {${ann}} := acc[0] }`;
  }
  const impl = `impl p of s {
  input a: ${T}[N, K] = A;
  output o: ${T}[N] = O;
  ${body}
}`;
  // O(i) = R(i, K − 1) by definition; a swapped sum is exact for i32 and commutative for f32.
  const harmless = m === 'none' || m === 'annotation' || m === 'swap' || m === 'no-shift' || m === 'producer-short' || m === 'in-place';
  return { src: `${spec}\n${impl}\n`, intended: harmless ? 'correct' : 'buggy' };
}

/** Family `stages`: B(i) = g(A(i)) on 0 ≤ i < N + 1, O(i) = B(i) + B(i + 1). */
function stagesCase(c: Choices): { src: string; intended: AnnotatedCase['intended'] } {
  const T = c.elem;
  const g = ['X * X', 'X + T(i)', 'X - X * X'][c.fn % 3]!;
  const gs = fill(g, { X: 'A(i)', T });
  const gi = (k: string): string => fill(g.replace(/\bi\b/g, `(${k})`), { X: `a[${k}]`, T });
  const spec = `spec s {
  param N;
  assume N >= 1;
  input A(i): ${T};
  tensor B(i): ${T};
  B(i) = ${gs} where 0 <= i && i < N + 1;
  output O(i): ${T} = B(i) + B(i + 1) where 0 <= i && i < N;
}`;
  const m = c.mutation;
  const bound = m === 'bound+1' ? 'N + 1' : m === 'bound-1' ? 'N - 1' : 'N';
  const K = c.outerPar ? 'par' : 'for';
  const use = (u: string, v: string): string => (m === 'swap' ? `(${v}) + (${u})` : `(${u}) + (${v})`);
  let body: string;
  let decls = '';
  switch (c.schedule % 3) {
    case 0: {
      // compute_root: the producer fills a global array, then the consumer reads it.
      decls = `  array b: ${T}[N + 1];\n`;
      const pb = m === 'producer-short' ? 'N' : 'N + 1';
      const ann = m === 'annotation' ? 'B(i + 1)' : 'B(i)';
      const consume = use('b[i]', `b[i + ${m === 'read+1' ? 2 : 1}]`);
      // in-place: the consumer overwrites b in parallel while its neighbours still read it (a
      // read-write race), then copies it out.
      const consumer = m === 'in-place' ? `par i < ${bound} do b[i] {O(i)} := ${consume};\n  ${K} i < ${bound} do o[i] {O(i)} := b[i]` : `${K} i < ${bound} do o[i] {O(i)} := ${consume}`;
      body = `par i < ${pb} do b[i] {${ann}} := ${gi('i')};\n  ${consumer}`;
      break;
    }
    case 1: {
      // compute_at: each iteration recomputes the two values it needs in a local array.
      const ann = m === 'annotation' ? 'B(i + j + 1)' : 'B(i + j)';
      const jb = m === 'producer-short' ? '1' : '2';
      body = `${K} i < ${bound} do allocate t: ${T}[2] in { for j < ${jb} do t[j] {${ann}} := ${gi('i + j')}; o[i] {O(i)} := ${use('t[0]', `t[${m === 'read+1' ? 0 : 1}]`)} }`;
      break;
    }
    default:
      // inline: no intermediate storage.
      body = `${K} i < ${bound} do o[i] {O(i)} := ${use(gi('i'), gi(m === 'read+1' ? 'i + 2' : 'i + 1'))}`;
  }
  const impl = `impl p of s {
  input a: ${T}[N + 3] = A;
  output o: ${T}[N] = O;
${decls}  ${body}
}`;
  const harmless = m === 'none' || m === 'swap' || m === 'no-shift' || m === 'par-recurrence' || m === 'no-init' || (m === 'annotation' && c.schedule % 3 === 2) || (m === 'producer-short' && c.schedule % 3 === 2) || (m === 'in-place' && c.schedule % 3 !== 0);
  return { src: `${spec}\n${impl}\n`, intended: harmless ? 'correct' : 'buggy' };
}

interface Choices {
  readonly family: Family;
  readonly schedule: number;
  readonly elem: 'i32' | 'f32';
  readonly fn: number;
  readonly d1: number;
  readonly d2: number;
  readonly outerPar: boolean;
  readonly mutation: Mutation;
}

export const MUTATIONS: readonly Mutation[] = ['bound+1', 'bound-1', 'read+1', 'annotation', 'par-recurrence', 'no-init', 'no-shift', 'swap', 'producer-short', 'in-place'];

export function buildAnnotated(c: Choices): AnnotatedCase {
  const built = c.family === 'map' ? mapCase(c) : c.family === 'reduce' ? reduceCase(c) : stagesCase(c);
  const out: AnnotatedCase = { ...c, ...built };
  const show = (): string => `\n// ${c.family}, schedule ${c.schedule}, ${c.mutation} (${built.intended})\n${built.src}`;
  return Object.assign(Object.create({ [fc.toStringMethod]: show, toString: show }) as object, out) as AnnotatedCase;
}

/** Annotated cases: correct by construction half of the time, mutated otherwise. */
export function annotatedArb(opts: { mutate?: number; mutations?: readonly Mutation[]; families?: readonly Family[] } = {}): fc.Arbitrary<AnnotatedCase> {
  const pMut = opts.mutate ?? 0.5;
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    { weight: Math.round((1 - pMut) * 100), arbitrary: fc.constant('none' as const) },
    { weight: Math.round(pMut * 100), arbitrary: fc.constantFrom(...(opts.mutations ?? MUTATIONS)) },
  );
  return fc
    .record({
      family: fc.constantFrom<Family>(...(opts.families ?? ['map', 'reduce', 'stages'])),
      schedule: fc.nat({ max: 5 }),
      elem: fc.constantFrom<'i32' | 'f32'>('i32', 'f32'),
      fn: fc.nat({ max: FUNCTIONS.length - 1 }),
      d1: fc.nat({ max: 2 }),
      d2: fc.nat({ max: 2 }),
      outerPar: fc.boolean(),
      mutation,
    })
    .map(buildAnnotated);
}
