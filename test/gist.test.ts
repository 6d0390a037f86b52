// Simplification under what is known (core/presburger/gist.ts) and the entailment it rests on
// (core/presburger/entail.ts), against direct evaluation of random trees on a grid: an entailment
// it claims holds at every point, a range it gives contains every value, and every simplified
// term, formula and gist equals the original wherever the context holds. Plus the inverse of
// termOf (core/language/affine.ts) on the same terms, and what the gist makes of Halide's asserts.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type RawF, type RawT, arbFormula, arbTerm, evalRawF, evalRawT, grid, toFormula, toTerm } from './presburger-arb.ts';
import { entails, rangeOf } from '../core/presburger/entail.ts';
import { gist, Known, simplifyFormula, simplifyTerm } from '../core/presburger/gist.ts';
import { evalFormula, evalTerm } from '../core/presburger/eval.ts';
import { printFormula, printTerm } from '../core/presburger/print.ts';
import { andAll, conjuncts } from '../core/presburger/formula.ts';
import { formulaOf, formulaToExpr, termOf, termToExpr } from '../core/language/affine.ts';
import { parseExpr } from '../core/language/parser.ts';
import { printExpr } from '../core/language/printer.ts';
import type { Formula } from '../core/presburger/types.ts';

const VARS = ['x', 'y', 'N'];
const ENVS = grid(['x', 'y'], -3n, 3n).flatMap((e) => [-2n, 0n, 1n, 3n, 7n].map((n) => new Map(e).set('N', n)));
// GIST_RUNS=2000 for a longer search.
const RUNS = Number(process.env['GIST_RUNS'] ?? 100);

/** Terms with selects too (arbTerm has min, max, floor and mod). */
function arbTermSel(depth: number): fc.Arbitrary<RawT> {
  const t = arbTerm(VARS, depth);
  return fc.oneof(
    { weight: 3, arbitrary: t },
    { weight: 1, arbitrary: fc.record({ f: arbFormula(VARS, 1, false), x: t, y: t }).map((r): RawT => ({ k: 'sel', ...r })) },
  );
}

/** Facts: a conjunction of one to three formulas (quantifiers included). */
const factsArb = fc.array(arbFormula(VARS, 1, true), { minLength: 1, maxLength: 3 });

const holds = (fs: readonly RawF[], e: Map<string, bigint>): boolean => fs.every((f) => evalRawF(f, e));
const where = (e: Map<string, bigint>): string => [...e].map(([k, v]) => `${k}=${v}`).join(',');

describe('entailment (Fourier–Motzkin over the integers)', () => {
  it('an entailment it shows holds at every point of the facts', () => {
    let shown = 0;
    fc.assert(fc.property(factsArb, arbFormula(VARS, 1, true), (fs, g) => {
      if (!entails(fs.map(toFormula), toFormula(g))) return;
      shown++;
      for (const e of ENVS) if (holds(fs, e) && !evalRawF(g, e)) throw new Error(`claimed, but false at ${where(e)}`);
    }), { numRuns: RUNS * 2 });
    // Not vacuous: random goals are entailed now and then (the facts themselves, tautologies).
    expect(shown).toBeGreaterThan(10);
  });

  it('the range it gives contains every value the term takes where the facts hold', () => {
    fc.assert(fc.property(factsArb, arbTermSel(2), (fs, t) => {
      const r = rangeOf(fs.map(toFormula), toTerm(t));
      for (const e of ENVS) {
        if (!holds(fs, e)) continue;
        if (r === 'empty') throw new Error(`'empty', but the facts hold at ${where(e)}`);
        const v = evalRawT(t, e);
        if ((r.lo !== null && v < r.lo) || (r.hi !== null && v > r.hi)) throw new Error(`${v} outside [${r.lo}, ${r.hi}] at ${where(e)}`);
      }
    }), { numRuns: RUNS });
  });

  it('decides what Halide bounds need: a vector loop of one tail iteration', () => {
    const f = (s: string): Formula => formulaOf(parseExpr('t', s));
    const facts = [f('W >= 16'), f('0 <= x && x < (W + 15) / 16')];
    expect(entails(facts, f('16 * x <= W - 1'))).toBe(true);
    expect(rangeOf(facts, termOf(parseExpr('t', 'min(W - 16 * x, 16) + 15')))).toEqual({ lo: 16n, hi: 31n });
    expect(printTerm(simplifyTerm(termOf(parseExpr('t', '(select(0 < x, max(min(W - x * 16, 16), 0) - 16, 0) + 31) / 16')), new Known(facts)))).toBe('1');
    // Not everything: 16 * x <= W - 16 does not follow (the last vector is shifted inwards).
    expect(entails(facts, f('16 * x <= W - 16'))).toBe(false);
  });
});

describe('simplification under a context', () => {
  it('a simplified term equals the term wherever the context holds', () => {
    fc.assert(fc.property(factsArb, arbTermSel(2), (fs, raw) => {
      const t = simplifyTerm(toTerm(raw), new Known(fs.map(toFormula)));
      for (const e of ENVS) if (holds(fs, e) && evalTerm(t, e) !== evalRawT(raw, e)) throw new Error(`${printTerm(t)} is ${evalTerm(t, e)} at ${where(e)}, not ${evalRawT(raw, e)}`);
    }), { numRuns: RUNS });
  });

  it('a simplified formula is equivalent wherever the context holds', () => {
    fc.assert(fc.property(factsArb, arbFormula(VARS, 2, false), (fs, raw) => {
      const f = simplifyFormula(toFormula(raw), new Known(fs.map(toFormula)));
      for (const e of ENVS) if (holds(fs, e) && evalFormula(f, e) !== evalRawF(raw, e)) throw new Error(`${printFormula(f)} differs at ${where(e)}`);
    }), { numRuns: RUNS });
  });

  it('a gist (min, max and select split, equalities solved) is equivalent wherever the context holds', () => {
    const conj = fc.array(arbFormula(VARS, 1, false), { minLength: 1, maxLength: 4 });
    fc.assert(fc.property(fc.array(arbFormula(VARS, 1, false), { maxLength: 2 }), conj, (ctx, fs) => {
      const g = gist(andAll(fs.map(toFormula)), ctx.map(toFormula));
      for (const e of ENVS) if (holds(ctx, e) && evalFormula(g, e) !== holds(fs, e)) throw new Error(`${printFormula(g)} differs at ${where(e)}`);
    }), { numRuns: RUNS });
  });

  it("turns Halide's asserts of a blur into bounds on its buffers", () => {
    const asserts = [
      '(0 <= (0 + ((min(W, 16) + 0) + (-16)))) && (((0 + W) - 1) >= (((0 + ((min(W, 16) + 0) + (-16))) + (((15 + ((W + 0) + (-16))) + 1) - (0 + ((min(W, 16) + 0) + (-16))))) - 1))',
      'W >= 0',
      '(m <= (min(select((16 < W), min(W, 0), (min(W, 16) + (-16))), (min(W, 16) + (-16))) + 0)) && (((m + e) - 1) >= (((min(select((16 < W), min(W, 0), (min(W, 16) + (-16))), (min(W, 16) + (-16))) + 0) + W + 2 - min(select((16 < W), min(W, 0), (min(W, 16) + (-16))), (min(W, 16) + (-16)))) - 1))',
    ];
    const g = gist(andAll(asserts.map((a) => formulaOf(parseExpr('t', a)))));
    expect(conjuncts(g).map((c) => printExpr(formulaToExpr(c, { lessThan: false }))).sort()).toEqual(['W >= 16', 'e + m >= W + 2', 'm <= 0']);
  });
});

describe('terms back to SCHED (termToExpr, formulaToExpr)', () => {
  it('termOf(termToExpr(t)) equals t', () => {
    fc.assert(fc.property(arbTermSel(3), (raw) => {
      const t = toTerm(raw);
      const back = termOf(parseExpr('t', printExpr(termToExpr(t))));
      for (const e of ENVS) expect(evalTerm(back, e)).toBe(evalTerm(t, e));
    }), { numRuns: RUNS });
  });

  it('formulaOf(formulaToExpr(f)) is equivalent to f, in either way of writing bounds', () => {
    fc.assert(fc.property(arbFormula(VARS, 2, false), fc.boolean(), (raw, lessThan) => {
      const f = toFormula(raw);
      const back = formulaOf(parseExpr('t', printExpr(formulaToExpr(f, { lessThan }))));
      for (const e of ENVS) expect(evalFormula(back, e)).toBe(evalFormula(f, e));
    }), { numRuns: RUNS });
  });
});
