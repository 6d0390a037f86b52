// Instantiation hints in elimination certificates (core/presburger/hints.ts): the `.2` script
// "result implies original" denies `∃v. ψ` and gets instances ¬ψ[v := w] beside its claim. They
// must be implied by the denial (so the claim and its expected answer are unchanged), leave the
// `.1` script alone, and not hide a wrong elimination.

import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { arbFormula, toFormula } from './presburger-arb.ts';
import {
  eliminateExists, eliminationCertificates, evalFormula, exists, formulaVars, parseFormula, printFormula, type Formula,
} from '../core/presburger/index.ts';
import { purifyQuantifiers } from '../core/presburger/purify.ts';
import { deniedInstances, witnesses } from '../core/presburger/hints.ts';
import { not } from '../core/presburger/formula.ts';
import { substFormula } from '../core/presburger/subst.ts';
import { printTerm } from '../core/presburger/print.ts';
import { runZ3, shutdownZ3 } from '../smt/z3.ts';
import { withoutInstances } from '../proofs/certificates/recheck.ts';
import { cases, DEEP } from './tier.ts';

afterAll(async () => { await shutdownZ3(); });

const HINT = /^; the last assertion: \d+ instances? \(not psi\[v := w\]\)/m;

// The tile-origin elimination of thesis ch. 2 (blur compute_at, corpus/thesis/ch2-halide-blur):
// z3 4.8.12's command line took 10–20 s on its `.2` script without instances.
const tile = {
  original: parseFormula('exists v : 8v <= r <= 8v + 7 and 8v <= W - 8 and v >= 0'),
  result: parseFormula('W >= 8 and r + (7r + 7) mod 8 < W and r >= 0'),
  method: 'exact' as const,
};

/** All assignments of `vars` in [lo, hi]. */
function* boxes(vars: readonly string[], lo: bigint, hi: bigint): Generator<Map<string, bigint>> {
  const e = new Map<string, bigint>();
  function* go(i: number): Generator<Map<string, bigint>> {
    if (i === vars.length) { yield new Map(e); return; }
    for (let x = lo; x <= hi; x++) { e.set(vars[i]!, x); yield* go(i + 1); }
  }
  yield* go(0);
}

describe('instantiation hints in elimination certificates', () => {
  it('the tile elimination: .2 gets instances and is unsat (Z3), .1 gets none, output is deterministic', async () => {
    const [one, two] = eliminationCertificates(tile);
    expect(one).not.toMatch(HINT);
    expect(two).toMatch(HINT);
    expect(two).not.toMatch(/\((div|mod) /);
    expect(eliminationCertificates(tile)).toEqual([one, two]);
    // The greatest lower and the least upper bound (⌈(r − 7)/8⌉ = ⌊r/8⌋ for r ≥ 0 here).
    const po = purifyQuantifiers(tile.original);
    expect(po.kind).toBe('exists');
    if (po.kind !== 'exists') return;
    const ws = witnesses(po.vars, po.body).map((w) => po.vars.map((v) => printTerm(w.get(v)!)).join(', '));
    expect(ws).toEqual(['max(0, r - floor((7r + 7)/8))', 'min(floor(W/8) - 1, floor(r/8))']);
    for (const s of [one, two]) expect((await runZ3(s, { timeoutMs: 20_000 })).status).toBe('unsat');
  });

  it('the instances are one assertion of their own, with their own quotient names: without it, .2 is the claim as written before instances', async () => {
    const [one, two] = eliminationCertificates(tile);
    const bare = withoutInstances(two)!;
    expect(bare).not.toBeNull();
    expect(withoutInstances(one)).toBeNull();
    // Only the instance assertion (and the quot!hint declarations and comment) differ.
    const strip = (t: string) => t.split('\n').filter((l) => !l.startsWith(';') && !l.includes('quot!hint')).join('\n');
    expect(strip(bare)).toBe(strip(two.split('\n').filter((l) => !(l.startsWith('(assert ') && l.includes('quot!hint'))).join('\n')));
    expect(two.split('\n').filter((l) => l.startsWith('(assert ')).length).toBe(bare.split('\n').filter((l) => l.startsWith('(assert ')).length + 1);
    // The claim holds without the instances too, which Z3 takes about 15 s to see: deep tier only.
    if (DEEP) expect((await runZ3(bare, { timeoutMs: 20_000 })).status).toBe('unsat');
    // A script without the instance comment, or not ending in an assertion, is left alone.
    expect(withoutInstances('(assert true)\n(check-sat)\n')).toBeNull();
  });

  it('a result too weak still gets a .2 that is sat (the instances do not hide a wrong elimination)', async () => {
    const [one, two] = eliminationCertificates({ ...tile, result: parseFormula('W >= 8 and r >= 0') });
    expect(two).toMatch(HINT);
    const answers = await Promise.all([one, two].map((s) => runZ3(s, { timeoutMs: 20_000 })));
    expect(answers.map((a) => a.status)).toEqual(['unsat', 'sat']);
  });

  it('a congruence purify.ts writes as k·q = u + t moves the witness into its class (rfactor_i32: z3 over 30 s without)', async () => {
    // corpus/halide/reductions.sched rfactor_i32 elim010.2: the witness was the greatest lower
    // bound itself, which the congruence then falsified wherever it was not in the class.
    const original = parseFormula('exists u : -N + x < u <= x and (u - x) mod 8 = 0 and u <= 7 and u < v and u >= 0');
    const result = parseFormula('max(-N + x + 1, 0) <= x and max(-N + x + 1, 0) + (7*max(-N + x + 1, 0) + x) mod 8 <= 7 and max(-N + x + 1, 0) + (7*max(-N + x + 1, 0) + x) mod 8 < v');
    const po = purifyQuantifiers(original);
    expect(po.kind).toBe('exists');
    if (po.kind !== 'exists') return;
    const ws = witnesses(po.vars, po.body);
    let checked = 0;
    for (const env of boxes(['N', 'x', 'v'], -20n, 20n)) {
      if (!evalFormula(result, env)) continue;
      checked++;
      // Wherever the result holds, some instance is false: the solver needs no other.
      expect(ws.some((w) => evalFormula(substFormula(po.body, w), env)), [...env].join(' ')).toBe(true);
    }
    expect(checked).toBeGreaterThan(100);
    const [, two] = eliminationCertificates({ original, result, method: 'exact' });
    expect((await runZ3(two, { timeoutMs: 5_000 })).status).toBe('unsat');
  });

  it('each instance is ¬ψ[v := w] and implied by ¬∃v. ψ (brute force on a box), and .2 is never sat (Z3, random eliminations)', async () => {
    let withHints = 0;
    let proved = 0;
    let runs = 0;
    const arb = arbFormula(['x', 'N'], 2, false).map((raw) => toFormula(raw)).filter((f) => formulaVars(f).has('x'));
    await fc.assert(fc.asyncProperty(arb, async (body: Formula) => {
      const original = exists(['x'], body);
      const result = eliminateExists(['x'], body);
      if (result === null || original.kind !== 'exists') return;
      runs++;
      const po = purifyQuantifiers(original);
      if (po.kind !== 'exists') return;
      // Syntactically instances of the denial as written in the file (purified binder and body).
      const insts = deniedInstances(po.vars, po.body);
      const expected = witnesses(po.vars, po.body).map((w) => not(substFormula(po.body, w))).filter((f) => f.kind !== 'true');
      expect(insts.map((f) => f.key)).toEqual([...new Set(expected.map((f) => f.key))]);
      // Semantically: wherever ∃x. body is false, every instance holds.
      for (const env of boxes(['N'], -6n, 6n)) {
        if (evalFormula(original, env, { quantRange: [-60n, 60n] })) continue;
        for (const i of insts) expect(evalFormula(i, env), `${printFormula(i)} at N = ${env.get('N')} for ${printFormula(original)}`).toBe(true);
      }
      const [, two] = eliminationCertificates({ original, result, method: 'exact' });
      if (insts.length > 0) { withHints++; expect(two).toMatch(HINT); }
      const a = await runZ3(two, { timeoutMs: 5_000 });
      expect(a.status, `${printFormula(original)} vs ${printFormula(result)}`).not.toBe('sat');
      if (a.status === 'unsat') proved++;
    }), { numRuns: cases(20, 60), seed: 5 });
    expect(withHints).toBeGreaterThan(runs / 2);
    expect(proved).toBeGreaterThanOrEqual(Math.floor(runs * 0.9));
  });
});
