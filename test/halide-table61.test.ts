// Thesis Table 6.1 through real Halide 14 (compilers/halide/apps/): every kernel's assumptions,
// simplified and written with Halide's names, fit in 300 characters and are equivalent to Halide's
// asserts as translated (checked at sizes around the smallest they allow); the fast kernels
// verify with the thesis's verdicts. No timing is asserted (bench/halide-real.ts measures it).

import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { halideCase, halideMissing } from '../compilers/halide/run.ts';
import { halideAssumptionText } from '../compilers/halide/assumptions.ts';
import { checkSource } from '../core/language/check.ts';
import { parseExpr, parseProgram } from '../core/language/parser.ts';
import { formulaOf } from '../core/language/affine.ts';
import { andAll } from '../core/presburger/formula.ts';
import { evalFormula } from '../core/presburger/eval.ts';
import { formulaVars } from '../core/presburger/vars.ts';
import { verifyImpl } from '../proofs/verifier/verify.ts';
import { REAL_KERNELS } from '../bench/halide-real.ts';
import { sample } from './tier.ts';

const MISSING = halideMissing();
const ROOT = join(import.meta.dirname, '..');
const app = (script: string): string => join(ROOT, 'compilers/halide/apps', `${script}.py`);
// Halide's lowering (a Python process, seconds each) once per kernel for the whole file.
const lowered = new Map<string, ReturnType<typeof halideCase>>();
const lower = (script: string): ReturnType<typeof halideCase> => {
  if (!lowered.has(script)) lowered.set(script, halideCase(app(script), script));
  return lowered.get(script)!;
};
const FAST = ['blur', 'sdot', 'cmm1024', 'sgemm1024', 'sc1'];

describe.skipIf(MISSING !== null)('Table 6.1 through real Halide 14', () => {
  // The quick tier checks the fast kernels (lowered for the test below anyway), nl_means and every
  // sixth other kernel; the deep tier all of them.
  it("every kernel's assumptions fit in 300 characters, in Halide's names, and say what its asserts say", () => {
    for (const k of sample(REAL_KERNELS.filter((x) => !x.extra), 6, (x) => FAST.includes(x.name) || x.script === 'nl_means')) {
      const c = lower(k.script);
      const f = c.assumptions.assumptions;
      expect(f, k.name).not.toBeNull();
      const text = halideAssumptionText(f!, c.translation.params, c.translation.inputs.map((i) => i.name), c.assumptions.sizeFacts);
      expect(text.length, `${k.name}: ${text}`).toBeLessThanOrEqual(300);
      expect(text, k.name).not.toMatch(/_extent_|_min_/);
      // Equivalent to the conjunction of the asserts at points near the boundary of the simplified
      // assumptions: each parameter at a few values around every constant the asserts mention.
      // (Where the spec's own assumptions hold: the simplification is relative to them.)
      const asserts = andAll(c.assumptions.asserts.map((a) => formulaOf(parseExpr(k.script, a))));
      const spec = andAll(parseProgram(k.script, c.translation.text).specs[0]!.assumes.map((a) => formulaOf(a)));
      const vars = [...formulaVars(asserts)].sort();
      const consts = [...new Set([...text.matchAll(/-?\d+/g)].map((m) => BigInt(m[0]!)))].slice(0, 6);
      const values = [0n, 1n, ...consts.flatMap((v) => [v - 1n, v, v + 1n])];
      let state = 12345;
      const pick = (): bigint => {
        state = (state * 1103515245 + 12345) % 2147483648;
        return values[state % values.length]!;
      };
      for (let n = 0; n < 300; n++) {
        const env = new Map(vars.map((v) => [v, pick()]));
        if (!evalFormula(spec, env)) continue;
        expect(evalFormula(f!, env), `${k.name} at ${[...env].join(' ')}`).toBe(evalFormula(asserts, env));
      }
    }
  }, 600_000);

  it('the fast kernels verify with the thesis verdicts', async () => {
    for (const k of REAL_KERNELS.filter((x) => FAST.includes(x.name))) {
      const c = lower(k.script);
      const ci = (await checkSource(`${k.script}.sched`, c.translation.text)).impls[0]!;
      const r = await verifyImpl(ci, { float: k.float, runsFirst: false });
      expect([r.verdict, r.class], `${k.name}: ${r.reason ?? ''}`).toEqual([k.expected, null]);
    }
  }, 600_000);

  it("bigsgemm: the read of As cells never computed, shown by a run at the least sizes where the solver's are beyond Halide's buffer-size limit", async () => {
    const c = lower('bigsgemm');
    expect(c.assumptions.sizeFacts.map((f) => `${f.param} <= ${f.max}`)).toContain('A_extent_0 <= 4194303');
    const ci = (await checkSource('bigsgemm.sched', c.translation.text)).impls[0]!;
    const r = await verifyImpl(ci, { float: 'uf', runsFirst: 'small' });
    expect([r.verdict, r.class], r.reason ?? '').toEqual(['invalid', 'uninitialized-read']);
    expect(r.replay?.shows).toMatch(/^uninitialized-read: read of buf_As\[/);
    const at = r.replay!.params;
    expect(BigInt(at['A_extent_0']!) * BigInt(at['A_extent_1']!)).toBeLessThanOrEqual(2147483647n);
    expect(r.counterexample?.values['A_extent_0']).toBe(at['A_extent_0']);
  }, 600_000);

  it("nl_means: fast_exp's conversion of an infinity to Int(32) is undefined, shown by a run before any value query (as sched halide verifies)", async () => {
    const c = lower('nl_means');
    const ci = (await checkSource('nl_means.sched', c.translation.text)).impls[0]!;
    const r = await verifyImpl(ci, { float: 'ieee', runsFirst: 'small' });
    expect([r.verdict, r.class], r.reason ?? '').toEqual(['invalid', 'undefined-behaviour']);
    expect(r.replay?.shows).toMatch(/^undefined-behaviour: trunc_i32 of a value outside i32's range/);
  }, 600_000);
});
