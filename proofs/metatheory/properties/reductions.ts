// Chapter 7 (reductions), cross-checked against concrete runs: random programs that compute a
// reduction in a scheduled way — forward or reversed, split into round-robin partial accumulators
// (sequential or parallel lanes) transferred into the result — with random scheduling bugs (a
// non-neutral partial, a lane never transferred or transferred twice, a wrong operator, a wrong
// element, a racy parallel accumulation, a position accumulated twice). Whenever `verifyImpl`
// says valid, runs on every N in 1…9 with several input seeds match the spec exactly (integers
// wrap, so reordering is exact; booleans too); whenever it says invalid, a replayed run (or an
// exact value refutation) stands behind it.

import fc from 'fast-check';
import type { CheckedImpl } from '../../../core/language/typecheck.ts';
import { type IntType, isFloatType, type ReduceOp, VALUE_TYPES, type ValueType } from '../../../core/language/ast.ts';
import { REDUCE_OPERATORS, typedNeutral } from '../../../core/language/reductions.ts';
import { evalExpr } from '../../../semantics/eval.ts';
import { arith, builtin2, sameValue, showValue, type Value, wrapInt } from '../../../semantics/values.ts';
import { runImpl } from '../../../semantics/run.ts';
import { verifyImpl } from '../../verifier/verify.ts';
import { preferNativeSolver, withRememberedAnswers } from '../../../smt/z3.ts';
import { defineProperty, Falsified, falsified, type NamedProperty, type Stats } from './framework.ts';
import { compile } from './harness.ts';

export interface ReductionCase {
  readonly src: string;
  /** The mutations applied (empty: the schedule is correct). */
  readonly mutations: readonly string[];
}

type Op = 'sum' | 'prod' | 'min' | 'max' | 'any' | 'all';
const ASSIGN: Record<Op, string> = { sum: '+=', prod: '*=', min: 'min=', max: 'max=', any: '||=', all: '&&=' };

type Int = 'i8' | 'i16' | 'i32' | 'i64';
const MAX: Record<Int, string> = { i8: '127', i16: '32767', i32: '2147483647', i64: '9223372036854775807' };

function neutral(op: Op, t: Int): string {
  const big = MAX[t];
  switch (op) {
    case 'sum':
      return '0';
    case 'prod':
      return '1';
    case 'min':
      return String(big);
    case 'max':
      return `-${big} - 1`;
    case 'any':
      return 'false';
    case 'all':
      return 'true';
  }
}

const MUTATIONS = ['non-neutral partial', 'lane missing', 'lane twice', 'wrong operator', 'wrong element', 'parallel accumulation', 'position twice'] as const;

export function reductionArb(): fc.Arbitrary<ReductionCase> {
  return fc
    .record({
      op: fc.constantFrom<Op>('sum', 'prod', 'min', 'max', 'any', 'all'),
      int: fc.constantFrom<Int>('i32', 'i8', 'i16', 'i64'),
      lanes: fc.constantFrom(1, 2, 3, 4),
      reversed: fc.boolean(),
      parLanes: fc.boolean(),
      tree: fc.boolean(),
      // The element: A(i) times k (integers) or A(i) > k - 4 (booleans), and four integer types:
      // 1,000 draws are about 930 distinct programs (about 600 before these two).
      k: fc.constantFrom(1, 2, 3, 4, 5, 6, 7),
      mutation: fc.option(fc.constantFrom(...MUTATIONS), { freq: 2 }),
    })
    .map(({ op, int, lanes, reversed, parLanes, tree, k, mutation }) => {
      const bool = op === 'any' || op === 'all';
      const vt = bool ? 'bool' : int;
      const elem = (x: string): string => (bool ? `${x} > ${k - 4}` : k === 1 ? x : `${x} * ${k}`);
      const elemSpec = elem('A(i)');
      const n0 = neutral(op, int);
      const other: Op = bool ? (op === 'any' ? 'all' : 'any') : op === 'sum' ? 'max' : 'sum';
      const wrongInit = bool ? (op === 'any' ? 'true' : 'false') : op === 'prod' ? '2' : op === 'sum' ? '1' : '0';
      const read = (pos: string): string => {
        const at = mutation === 'wrong element' ? `min(${pos} + 1, N - 1)` : pos;
        return elem(`a[${at}]`);
      };
      const applies = mutation !== null && (lanes > 1 || !['non-neutral partial', 'lane missing', 'lane twice'].includes(mutation));
      const muts: string[] = applies ? [mutation!] : [];
      const lines: string[] = [];
      const acc = ASSIGN[op];
      if (lanes === 1) {
        const pos = reversed ? 'N - 1 - j' : 'j';
        const loop = mutation === 'parallel accumulation' ? 'par' : 'for';
        lines.push(`  r[] {${n0}} := ${n0};`);
        lines.push(`  ${loop} j < N do r[] {S()@(${pos})} ${mutation === 'wrong operator' ? ASSIGN[other] : acc} ${read(pos)}`);
        if (mutation === 'position twice') lines[lines.length - 1] += `;\n  r[] {S()@(0)} ${acc} ${read('0')}`;
      } else {
        const L = lanes;
        const pos = reversed ? `${L} * ((N - p + ${L - 1}) / ${L} - 1 - j) + p` : `${L} * j + p`;
        const init = mutation === 'non-neutral partial' ? wrongInit : n0;
        const laneLoop = parLanes ? 'par' : 'for';
        lines.push(`  allocate tmp: ${vt}[${L}] in {`);
        lines.push(`    ${mutation === 'parallel accumulation' ? 'par' : laneLoop} p < ${L} do {`);
        lines.push(`      tmp[p] {${init}} := ${init};`);
        if (mutation === 'parallel accumulation') lines.push(`      par j < (N - p + ${L - 1}) / ${L} do tmp[0] {S()@(${pos})} ${acc} ${read(pos)}`);
        else lines.push(`      for j < (N - p + ${L - 1}) / ${L} do tmp[p] {S()@(${pos})} ${acc} ${read(pos)}`);
        lines.push('    };');
        const tb = mutation === 'lane missing' ? L - 1 : L;
        if (tree && tb >= 2) {
          // The partials combined in one expression (RED-COMBINE): ((t0 op t1) op t2) …
          const terms = Array.from({ length: tb }, (_, k) => `tmp[${k}]`);
          if (mutation === 'lane twice') terms.push('tmp[0]');
          const o = mutation === 'wrong operator' ? other : op;
          const comb = (x: string, y: string): string => (o === 'min' || o === 'max' ? `${o}(${x}, ${y})` : `(${x} ${o === 'sum' ? '+' : o === 'prod' ? '*' : o === 'any' ? '||' : '&&'} ${y})`);
          lines.push(`    r[] {S()} := ${terms.reduce(comb)}`);
        } else {
          lines.push(`    r[] {${n0}} := ${n0};`);
          lines.push(`    for p < ${tb} do r[] {S()} ${mutation === 'wrong operator' ? ASSIGN[other] : acc} tmp[p]${mutation === 'lane twice' ? `;\n    r[] {S()} ${acc} tmp[0]` : ''}`);
        }
        if (mutation === 'position twice') lines[lines.length - 1] += `;\n    r[] {S()@(0)} ${acc} ${read('0')}`;
        lines.push('  }');
      }
      const src = [
        'spec s {',
        '  param N;',
        '  assume N >= 1;',
        `  input A(i): ${int};`,
        `  output S(): ${vt} = ${op}{0 <= i < N}(${elemSpec});`,
        '}',
        '',
        'impl p of s {',
        `  input  a: ${int}[N] = A;`,
        `  output r: ${vt}[] = S;`,
        ...lines,
        '}',
        '',
      ].join('\n');
      return { src, mutations: muts };
    });
}

/** Runs on N = 1…9 with three input seeds each: the first that does not match, or null. */
function failingRun(ci: CheckedImpl): string | null {
  for (let n = 1n; n <= 9n; n++) {
    for (const seed of [0, 1, 2]) {
      const r = runImpl(ci, new Map([['N', n]]), { seed });
      if (r.report.outcome !== 'match') return `N = ${n}, seed ${seed}: ${r.report.outcome}${r.report.error ? ` (${r.report.error.message})` : ''}`;
    }
  }
  return null;
}

/** One program: verify, run on N = 1…9, compare. */
async function checkReduction(c: ReductionCase, stats: Stats): Promise<void> {
  const ci = compile(c.src);
  // Speed only: the verdict logic is the same whichever Z3 answers, and a remembered answer is
  // the one asking again would give (smt/z3.ts).
  preferNativeSolver();
  const v = await withRememberedAnswers(() => verifyImpl(ci, { timeoutMs: 4000, runsFirst: false }));
  const bad = failingRun(ci);
  stats.note(`${c.mutations.length ? 'mutant' : 'correct'}: ${v.verdict}${bad ? ', a run fails' : ', runs match'}`);
  if (v.verdict === 'valid' && bad !== null) falsified(`verifyImpl says valid but the run with ${bad} fails:\n${c.src}`);
  if (v.verdict === 'invalid' && v.replay === null && v.class !== 'value-mismatch') falsified(`verifyImpl says invalid (${v.class}) without a replayed run:\n${c.src}`);
}

/**
 * The outcome of every program already checked in a run (keyed by the run's Stats: a new run, as
 * under a mutant, starts afresh): 1,150 draws hold about 1,060 distinct programs (sampled with
 * seeds 1–3: 1,057–1,075), and checking a program again — the same deterministic verifier, the
 * same runs — gives the same outcome, unless a solver time limit is reached one time and not the
 * other; a repeat rethrows a recorded failure.
 */
const outcomes = new WeakMap<Stats, Map<string, Falsified | null>>();

export const redSoundness = defineProperty<ReductionCase>({
  id: 'red-soundness',
  name: 'Reductions (chapter 7): soundness of the verifier, cross-checked',
  statement: 'whenever verifyImpl says valid on a random scheduled reduction, concrete runs on N = 1…9 match the spec exactly; whenever it says invalid, a replayed run or an exact value refutation stands behind it',
  ciRuns: 1150,
  arb: reductionArb,
  check: async (c, stats: Stats) => {
    const seen = outcomes.get(stats) ?? new Map<string, Falsified | null>();
    outcomes.set(stats, seen);
    const known = seen.get(c.src);
    if (known !== undefined) {
      stats.note('repeated program');
      if (known !== null) throw known;
      return;
    }
    try {
      await checkReduction(c, stats);
      seen.set(c.src, null);
    } catch (e) {
      if (e instanceof Falsified) seen.set(c.src, e);
      throw e;
    }
  },
});

// Thm 7.4.1 (coherence of reduction values) and the operator registry's exactness claims:
// for every operator and type the registry calls exact, folding r ⊙ (xs ++ ys) from an initial
// value equals ⇓(r ⊙ xs) ⊙ ⇓(0_⊙ ⊙ ys) (the same-operator case of the theorem, which needs
// associativity and the neutral element) and equals the fold of any permutation (commutativity:
// the reordering the verifier relies on), with the machine's operations of semantics/values.ts
// and the neutral element of core/language/reductions.ts.

type Exact = { readonly op: ReduceOp; readonly t: ValueType };
const EXACT: readonly Exact[] = REDUCE_OPERATORS.flatMap((o) => VALUE_TYPES.filter((t) => o.accepts(t) && o.exact(t)).map((t) => ({ op: o.op, t })));

export function operatorFn(op: ReduceOp, t: ValueType): (a: Value, b: Value) => Value {
  switch (op) {
    case '+':
    case '*':
      return arith(op, t);
    case 'min':
    case 'max':
      return builtin2(op, t);
    case '&&':
      return (a, b) => Boolean(a) && Boolean(b);
    case '||':
      return (a, b) => Boolean(a) || Boolean(b);
  }
}

export function neutralValue(op: ReduceOp, t: ValueType): Value {
  const v = evalExpr(typedNeutral(op, t, { line: 0, col: 0 }), new Map(), new Map());
  if (v === undefined || typeof v === 'object') throw new Error(`internal: no neutral element for ${op} at ${t}`);
  return v as Value;
}

function valueArb(t: ValueType): fc.Arbitrary<Value> {
  if (t === 'bool') return fc.boolean();
  if (isFloatType(t)) return fc.double().map((x) => (t === 'f32' ? Math.fround(x) : x));
  return fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }).map((x) => wrapInt(t as IntType, x));
}

export const thm741 = defineProperty<readonly [Exact, Value, Value[], Value[], number[]]>({
  id: 'thm-7.4.1',
  name: 'Thm 7.4.1 (coherence of reduction values) and the exactness of the operator registry',
  statement: 'for every operator and type the registry calls exact, r ⊙ fold(xs ++ ys) = ⇓(r ⊙ fold xs) ⊙ ⇓(0 ⊙ fold ys), 0 is neutral, and any permutation of the elements folds to the same value',
  ciRuns: 2000,
  arb: () =>
    fc.constantFrom(...EXACT).chain((e) =>
      fc.tuple(fc.constant(e), valueArb(e.t), fc.array(valueArb(e.t), { maxLength: 6 }), fc.array(valueArb(e.t), { maxLength: 6 }), fc.array(fc.nat(), { minLength: 12, maxLength: 12 })),
    ),
  check: ([{ op, t }, r, xs, ys, perm], stats: Stats) => {
    const f = operatorFn(op, t);
    const zero = neutralValue(op, t);
    const fold = (init: Value, vs: readonly Value[]): Value => vs.reduce((a, b) => f(a, b), init);
    const all = [...xs, ...ys];
    const whole = fold(r, all);
    const split = f(fold(r, xs), fold(zero, ys));
    if (!sameValue(whole, split)) falsified(`${op} on ${t}: fold from ${showValue(r)} over [${all.map(showValue).join(', ')}] is ${showValue(whole)}, split it is ${showValue(split)}`);
    if (!sameValue(f(r, zero), r) || !sameValue(f(zero, r), r)) falsified(`${op} on ${t}: ${showValue(zero)} is not neutral for ${showValue(r)}`);
    const shuffled = [...all];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = perm[i]! % (i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    const reordered = fold(r, shuffled);
    if (!sameValue(whole, reordered)) falsified(`${op} on ${t}: reordered [${shuffled.map(showValue).join(', ')}] folds to ${showValue(reordered)}, in order ${showValue(whole)}`);
    stats.note(`${op} ${t}`);
  },
});

export const REDUCTIONS: readonly NamedProperty[] = [thm741, redSoundness];
