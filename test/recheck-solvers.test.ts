// `sched recheck`'s ways of getting an answer from a solver that gives none at first
// (proofs/certificates/recheck.ts): cvc5's per-logic configuration for QF_LIA, branch and bound without its
// rounding heuristic, and integer splits (valid assertions) between a script's auxiliary
// constants. The certificates are the ones cvc5 1.0.3 gave no answer on in the corpus's bundles,
// written again here by the certificate writer from their elimination.

import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { eliminationCertificates, parseFormula } from '../core/presburger/index.ts';
import { askSolver, caseSplit, quantifierFreePart, withIntegerSplits } from '../proofs/certificates/recheck.ts';
import { runZ3, shutdownZ3 } from '../smt/z3.ts';

afterAll(async () => { await shutdownZ3(); });

const elim = (original: string, result: string) => ({ original: parseFormula(original), result: parseFormula(result), method: 'exact' as const });
// corpus/halide/dsc elim055: `16v < 3CI` bounds v by ceil(3CI/16) − 1 only through CI.
const dsc = elim('exists v : 3*r <= 16*v + 21 and v >= 0 and 16*v < 3*CI and 16*v <= 3*r + 2', '3*r <= 16*floor((3*CI + 15)/16) + 5 and CI > 0 and r >= 0');
// The same with a result one too weak (direction 2, result implies original, is sat) and one
// too strong (direction 1 is sat).
const dscWeak = elim('exists v : 3*r <= 16*v + 21 and v >= 0 and 16*v < 3*CI and 16*v <= 3*r + 2', '3*r <= 16*floor((3*CI + 15)/16) + 6 and CI > 0 and r >= 0');
const dscStrong = elim('exists v : 3*r <= 16*v + 21 and v >= 0 and 16*v < 3*CI and 16*v <= 3*r + 2', '3*r <= 16*floor((3*CI + 15)/16) + 4 and CI > 0 and r >= 0');
// corpus/thesis/ch7-reductions partial_sums elim010: the least j ≡ x (mod 4) above a bound.
const partialSums = elim('exists j : -N + x + 4 <= j <= x and (j - x) mod 4 = 0 and j <= 3 and j < J and j >= 0',
  'max(-N + x + 4, 0) <= x and max(-N + x + 4, 0) + (3*max(-N + x + 4, 0) + x) mod 4 <= 3 and max(-N + x + 4, 0) + (3*max(-N + x + 4, 0) + x) mod 4 < J');
// corpus/thesis/ch2-halide-reductions filtered_strided elim009.
const filtered = elim('exists v : -K + r < v <= r and (v + r) mod 2 = 0 and v < N and v >= 0', 'r <= 2*floor((min(N - 1, r) + r)/2) and 2*r < K + 2*floor((min(N - 1, r) + r)/2)');

describe('integer splits', () => {
  it('one assertion a <= b or a >= b + 1 per ordered pair of integer constants, before check-sat', () => {
    const s = '(set-logic QF_LIA)\n(declare-const N Int)\n(declare-const quot!top1 Int)\n(declare-const sk!1 Int)\n(assert (< sk!1 N))\n(check-sat)\n';
    const t = withIntegerSplits(s)!;
    expect(t.match(/^\(assert \(or /gm)).toHaveLength(6);
    expect(t).toContain('(assert (or (<= quot!top1 sk!1) (>= quot!top1 (+ sk!1 1))))');
    expect(t).toContain('(assert (or (<= sk!1 quot!top1) (>= sk!1 (+ quot!top1 1))))');
    expect(t).toContain('(assert (or (<= N sk!1) (>= N (+ sk!1 1))))');
    expect(t.indexOf('(check-sat)')).toBeGreaterThan(t.lastIndexOf('(assert (or'));
    expect(t.startsWith(s.slice(0, s.indexOf('(check-sat)')))).toBe(true);
    // more than 8 constants: the sk!/quot! ones only
    const many = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'sk!1', 'quot!top1'].map((n) => `(declare-const ${n} Int)`).join('\n');
    expect(withIntegerSplits(`${many}\n(check-sat)\n`)!.match(/^\(assert \(or /gm)).toHaveLength(2);
    // nothing to split: one constant, a Bool, too many auxiliaries, or no check-sat
    expect(withIntegerSplits('(declare-const sk!1 Int)\n(check-sat)\n')).toBeNull();
    expect(withIntegerSplits('(declare-const x Int)\n(declare-const p Bool)\n(check-sat)\n')).toBeNull();
    expect(withIntegerSplits(`${Array.from({ length: 9 }, (_, k) => `(declare-const sk!${k} Int)`).join('\n')}\n(check-sat)\n`)).toBeNull();
    expect(withIntegerSplits('(declare-const sk!1 Int)\n(declare-const sk!2 Int)\n')).toBeNull();
  });

  it('keep the answer: the certificates, right and wrong, answer the same with and without them (Z3)', async () => {
    const scripts = [dsc, dscWeak, dscStrong, partialSums, filtered].flatMap((e) => eliminationCertificates(e));
    for (const s of scripts) {
      const t = withIntegerSplits(s);
      if (t === null) continue;
      const [a, b] = await Promise.all([runZ3(s, { timeoutMs: 20_000 }), runZ3(t, { timeoutMs: 20_000 })]);
      expect(b.status, s).toBe(a.status);
    }
    // the wrong results' sat directions stay sat
    const [weak, strong] = await Promise.all([eliminationCertificates(dscWeak)[1], eliminationCertificates(dscStrong)[0]].map((s) => runZ3(withIntegerSplits(s) ?? s, { timeoutMs: 20_000 })));
    expect([weak!.status, strong!.status]).toEqual(['sat', 'sat']);
  });
});

// corpus/halide/sdot sdot_vs_plain_dot's vc080 as verify writes it: `div` by 8 under `ite`, no
// auxiliary constant to split on; cvc5 1.0.3 answers it without the rounding heuristic only.
const VC080 = [
  '(set-logic ALL)',
  '(set-info :status unsat)',
  '(declare-const N Int)',
  '(declare-const k$1 Int)',
  '(assert (! (<= 0 N) :named ctx.0))',
  '(assert (! true :named ctx.1))',
  '(assert (! (and (or (and (or (<= N k$1) (<= (+ k$1 1) (* 8 (div N 8)))) (<= (* 7 k$1) (* 8 (div (+ (* 7 k$1) (ite (<= k$1 7) k$1 7)) 8))) (<= (+ (* 8 k$1) 8) (+ N (* 8 (div (+ (* 7 k$1) (ite (<= k$1 7) k$1 7)) 8))))) (and (<= (+ k$1 1) N) (<= (* 8 (div N 8)) k$1)) (and (<= (+ k$1 1) N) (<= 0 k$1))) (or (and (or (<= (+ N (* 8 (div (+ (* 7 k$1) (ite (<= k$1 7) k$1 7)) 8))) (+ (* 8 k$1) 7)) (<= (* 8 (div N 8)) k$1) (<= (+ (* 8 (div (+ (* 7 k$1) (ite (<= k$1 7) k$1 7)) 8)) 1) (* 7 k$1))) (<= (+ k$1 1) (* 8 (div N 8)))) (<= N k$1) (<= (+ k$1 1) 0))) :named goal))',
  '(check-sat)',
].join('\n');

describe('the quantifier-free part', () => {
  it('drops the conjuncts that hold a quantifier, and whole quantified assertions', () => {
    const s = [
      '(set-logic LIA)', '(declare-const x Int)', '(declare-const y Int)',
      '(assert (<= 0 x))',
      '(assert (and (<= x y) (not (exists ((v Int)) (= v (+ x 1)))) (and (< y 9) (forall ((w Int)) (<= w y)))))',
      '(assert (! (forall ((u Int)) (<= u x)) :named q))',
      '(assert (! (and (= y 3) (exists ((u Int)) (= u x))) :named r))',
      '(check-sat)',
    ].join('\n');
    expect(quantifierFreePart(s)).toBe([
      '(set-logic QF_LIA)', '(declare-const x Int)', '(declare-const y Int)',
      '(assert (<= 0 x))', '(assert (and (<= x y) (< y 9)))', '(assert (= y 3))', '(check-sat)', '',
    ].join('\n'));
    expect(quantifierFreePart('(set-logic QF_LIA)\n(declare-const x Int)\n(assert (< x 0))\n(check-sat)\n')).toBeNull();
    expect(quantifierFreePart('(assert (< x 0)')).toBeNull();
  });

  it('is never unsat where the script is sat, and keeps the refutation of a right certificate (Z3)', async () => {
    // The sat directions of the wrong results: a weaker script keeps their models.
    const sat = [eliminationCertificates(dscWeak)[1], eliminationCertificates(dscStrong)[0]];
    for (const s of sat) {
      const qf = quantifierFreePart(s);
      if (qf !== null) expect((await runZ3(qf, { timeoutMs: 20_000 })).status).not.toBe('unsat');
    }
    // A right direction 2: its instances alone refute it.
    const qf = quantifierFreePart(eliminationCertificates(dsc)[1]);
    expect(qf).not.toBeNull();
    expect(qf).not.toMatch(/exists|forall/);
    expect((await runZ3(qf!, { timeoutMs: 20_000 })).status).toBe('unsat');
  });
});

describe('case splits', () => {
  it('one script per disjunct of the widest disjunction among the assertions\' conjuncts', () => {
    const s = [
      '(set-logic QF_LIA)', '(declare-const x Int)', '(declare-const y Int)',
      '(assert (or (< x 0) (> x 5)))',
      '(assert (! (and (<= x y) (or (= y 1) (= y 2) (= y 3))) :named claim))',
      '(check-sat)',
    ].join('\n');
    expect(caseSplit(s)).toEqual([1, 2, 3].map((k) => [
      '(set-logic QF_LIA)', '(declare-const x Int)', '(declare-const y Int)',
      '(assert (or (< x 0) (> x 5)))', `(assert (! (and (<= x y) (= y ${k})) :named claim))`, '(check-sat)', '',
    ].join('\n')));
    // No disjunction among the conjuncts (one under a negation is not one), or an unreadable text.
    expect(caseSplit('(declare-const x Int)\n(assert (not (or (< x 0) (> x 5))))\n(check-sat)\n')).toBeNull();
    expect(caseSplit('(assert (or (< x 0)')).toBeNull();
  });

  it('are all unsat exactly when the script is, and a sat case is a model of the script (Z3)', async () => {
    // Direction 2 (result implies original) of a right elimination and of a too-weak one: it
    // asserts the result, a disjunction.
    const right = elim('exists v : 0 <= v <= 3 and (x - v) mod 4 = 0 and v < L', '(x mod 4 < L and x >= 0) or (x mod 4 < L and x < 0)');
    const weak = elim('exists v : 0 <= v <= 3 and (x - v) mod 4 = 0 and v < L', '(x mod 4 <= L and x >= 0) or (x mod 4 < L and x < 0)');
    for (const [text, want] of [[eliminationCertificates(right)[1], 'unsat'], [eliminationCertificates(weak)[1], 'sat']] as const) {
      expect((await runZ3(text, { timeoutMs: 20_000 })).status).toBe(want);
      const cases = caseSplit(text);
      expect(cases, text).not.toBeNull();
      const answers = await Promise.all(cases!.map((c) => runZ3(c, { timeoutMs: 20_000 }).then((a) => a.status)));
      expect(answers.some((a) => a === 'sat')).toBe(want === 'sat');
      if (want === 'unsat') expect(answers.every((a) => a === 'unsat')).toBe(true);
    }
  });
});

// corpus/soundness/races benign_halves' vc014: two iterations i, i' with ⌊i/2⌋ and ⌊i'/2⌋ both
// equal to x write cells y ≠ y' with 2y <= i <= 2y + 1: no answer from cvc5 1.0.3 in any
// configuration; with splits between its six integer constants, unsat in 10 ms.
const BENIGN_VC014 = [
  '(set-logic ALL)',
  '(set-info :status unsat)',
  '(declare-const N Int)',
  '(declare-const |i#1| Int)',
  '(declare-const i$1 Int)',
  '(declare-const x$2 Int)',
  '(declare-const y$3 Int)',
  '(declare-const y$4 Int)',
  '(assert (! (<= 1 N) :named ctx.0))',
  '(assert (! (and (or (<= (+ |i#1| 1) i$1) (<= (+ i$1 1) |i#1|)) (or (<= (+ y$3 1) y$4) (<= (+ y$4 1) y$3)) (<= |i#1| (+ (* 2 x$2) 1)) (<= |i#1| (+ (* 2 y$3) 1)) (<= i$1 (+ (* 2 x$2) 1)) (<= i$1 (+ (* 2 y$4) 1)) (<= (+ |i#1| 1) N) (<= (+ i$1 1) N) (<= (* 2 x$2) |i#1|) (<= (* 2 y$3) |i#1|) (<= 0 |i#1|) (<= (* 2 x$2) i$1) (<= (* 2 y$4) i$1) (<= 0 i$1)) :named goal))',
  '(check-sat)',
].join('\n');

const cvc5 = spawnSync('cvc5', ['--version']).status === 0;
describe.skipIf(!cvc5)('cvc5 as recheck asks it', () => {
  // A short budget: every fallback gets a second; each of these is answered in milliseconds by
  // the configuration or variant that works.
  it('answers the certificates cvc5 1.0.3 gave no answer on by default, and a wrong one sat', async () => {
    const cases = [dsc, partialSums, filtered, dscStrong].flatMap((e) => eliminationCertificates(e));
    const answers = await Promise.all(cases.map((s) => askSolver('cvc5', s, 2000)));
    expect(answers.map((a) => a.answer)).toEqual(['unsat', 'unsat', 'unsat', 'unsat', 'unsat', 'unsat', 'sat', 'unsat']);
    expect((await askSolver('cvc5', VC080, 2000)).answer).toBe('unsat');
    expect((await askSolver('cvc5', BENIGN_VC014, 2000)).answer).toBe('unsat');
  });
});
if (!cvc5) it('(cvc5 is not installed: apt-get install cvc5 to run the cvc5 variant)', () => undefined);
