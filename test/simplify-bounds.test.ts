// The simplification of an implementation's index arithmetic (core/language/simplify-bounds.ts)
// against the big-step semantics: random programs of the chapter-4 properties (loops with empty
// and single iterations, lets, allocations, min/max/select/%-indices, out-of-bounds accesses,
// races), with a random assumption on their parameters, run before and after simplification from
// the same memory at parameters the assumptions allow: the same outcome, cell for cell, or the
// same error. And the assumptions after simplification are equivalent to the original ones
// wherever the spec's hold.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { memCaseArb } from '../proofs/metatheory/gen/programs.ts';
import { bigStep, compile, memDiff } from '../proofs/metatheory/properties/harness.ts';
import { parseProgram } from '../core/language/parser.ts';
import { printProgram } from '../core/language/printer.ts';
import { simplifyImpl } from '../core/language/simplify-bounds.ts';
import { formulaOf } from '../core/language/affine.ts';
import { evalFormula } from '../core/presburger/eval.ts';
import { andAll } from '../core/presburger/formula.ts';

const RUNS = Number(process.env['SIMPLIFY_RUNS'] ?? 150);

/** Assumptions on N and M of the shapes Halide's asserts have (min, max, select, /, %). */
const assumeArb = fc.option(
  fc.constantFrom(
    'N >= 1',
    'min(N, 2) + M >= 2',
    '0 <= min(N, 3) - 1 && M - 1 >= max(N - 3, 0)',
    'select(1 < N, min(N, 0), min(N, 2) - 2) <= 0 && N + M >= 3',
    '(N + 1) / 2 * 2 == N + 1 || M == 0',
    'max(N, M) >= 2 && min(N - M, 0) + 1 >= 0',
    'N % 2 == 0',
  ),
  { nil: null },
);

describe('simplification of index arithmetic under the assumptions', () => {
  it('the simplified program runs as the original at parameters the assumptions allow', () => {
    let compared = 0;
    fc.assert(
      fc.property(memCaseArb(), assumeArb, (c, assume) => {
        const src = assume === null ? c.src : c.src.replace('impl p of s {\n', `impl p of s {\n  assume ${assume};\n`);
        const prog = parseProgram('case.sched', src);
        const impl = prog.impls[0]!;
        const spec = prog.specs[0]!;
        const env = new Map(Object.entries(c.params).map(([k, v]) => [k, BigInt(v)]));
        if (!evalFormula(andAll([...spec.assumes, ...impl.assumes].map((a) => formulaOf(a))), env)) return;
        const simplified = simplifyImpl(impl, spec);
        const text = printProgram({ ...prog, impls: [simplified.impl] });
        const params = new Map(Object.entries(c.params).map(([k, v]) => [k, v]));
        const before = bigStep({ ci: compile(src), params }, c.pools);
        const after = bigStep({ ci: compile(text), params }, c.pools);
        compared++;
        if (before.ok !== after.ok || (!before.ok && before.error!.kind !== after.error!.kind)) {
          throw new Error(`outcome ${before.ok ? 'ok' : before.error!.kind} became ${after.ok ? 'ok' : after.error!.kind}:\n${text}`);
        }
        if (before.ok) {
          const d = memDiff(before.final, after.final, ['original', 'simplified']);
          if (d !== null) throw new Error(`${d}\n${text}`);
        }
      }),
      { numRuns: RUNS },
    );
    expect(compared).toBeGreaterThan(RUNS / 3);
  });

  it('the simplified assumptions are equivalent to the original ones where the spec\'s hold', () => {
    const prog = parseProgram('a.sched', `spec s { param N, M; assume N >= 0 && M >= 0; output o(i): i32 = 0 where 0 <= i && i < 1; }
impl p of s {
  assume 0 <= min(N, 16) - 16 && M - 1 >= max(select(16 < N, min(N, 0), min(N, 16) - 16), 0) + 2;
  output a: i32[1] = o;
  a[0] {o(0)} := 0
}
`);
    const r = simplifyImpl(prog.impls[0]!, prog.specs[0]!);
    expect(r.assumptions).not.toBeNull();
    const orig = andAll(prog.impls[0]!.assumes.map((a) => formulaOf(a)));
    for (let n = 0n; n < 40n; n++) for (let m = 0n; m < 10n; m++) {
      const e = new Map([['N', n], ['M', m]]);
      expect(evalFormula(r.assumptions!, e)).toBe(evalFormula(orig, e));
    }
    expect(r.impl.assumes.map((a) => printProgram({ file: 'x', specs: [], impls: [{ ...r.impl, assumes: [a] }] }).split('\n')[1]!.trim())).toEqual(['assume M >= 3;', 'assume N >= 16;']);
  });
});
