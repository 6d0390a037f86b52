// `sched fuzz` in CI: a smoke run of 100 small cases on the reference compiler (no disagreement,
// no bug), the external-compiler protocol with the example compiler of corpus/fuzz (correct, and
// with its deliberate bug found, bundled, replayed and shrunk), and injected bugs found by the loop.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { externalCompiler, referenceCompiler } from '../proofs/fuzz/compilers.ts';
import { fuzz, type FuzzOptions, replayBundle } from '../proofs/fuzz/harness.ts';
import { DEFAULT_ORACLES } from '../proofs/fuzz/oracles.ts';
import { shutdownZ3 } from '../smt/z3.ts';
import { familyInputs } from '../semantics/inputs.ts';
import { runImpl } from '../semantics/run.ts';
import { checkSource } from '../core/language/check.ts';
import { cases } from './tier.ts';

afterAll(async () => {
  await shutdownZ3();
});

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function options(over: Partial<FuzzOptions>): FuzzOptions {
  const repro = mkdtempSync(join(tmpdir(), 'sched-fuzz-test-'));
  dirs.push(repro);
  return {
    iterations: 10,
    seed: 0,
    profile: 'smoke',
    compiler: referenceCompiler(),
    injected: null,
    oracles: DEFAULT_ORACLES,
    reproDir: repro,
    shrink: false,
    shrinkBudgetMs: 30_000,
    stopOnFirst: false,
    ...over,
  };
}

const NAIVE = `node ${join(import.meta.dirname, '..', 'corpus', 'fuzz', 'naive-compiler.mjs')}`;

describe('sched fuzz', () => {
  const SMOKE = cases(12, 100);
  it(`smoke: ${SMOKE} cases of the reference compiler, no disagreement and no bug`, async () => {
    const s = await fuzz(options({ iterations: SMOKE, seed: 2024 }));
    expect(s.iterations).toBe(SMOKE);
    expect(s.disagreements, JSON.stringify(s.repros)).toBe(0);
    expect(s.bugsFound, JSON.stringify(s.repros)).toBe(0);
    // The verifier decides most small cases.
    expect(s.verdicts.valid).toBeGreaterThan(SMOKE / 2);
  });

  it('the external protocol: the example compiler is cross-checked like the reference one', async () => {
    const s = await fuzz(options({ iterations: 8, seed: 7, compiler: externalCompiler(NAIVE) }));
    expect(s.disagreements).toBe(0);
    expect(s.bugsFound).toBe(0);
    expect(s.ok + s.rejected + s.unknowns).toBe(8);
    expect(s.ok).toBeGreaterThan(0);
  });

  it('a throw of ours on a case is recorded as a disagreement with its case and bundled; the campaign goes on', async () => {
    const ref = referenceCompiler();
    let n = 0;
    const compiler = { ...ref, name: 'throws-once', compile: (c: Parameters<typeof ref.compile>[0]) => (n++ === 0 ? Promise.reject(new RangeError('min of nothing')) : ref.compile(c)) };
    const seen: string[] = [];
    const s = await fuzz(options({ iterations: 3, seed: 5, compiler, onCase: (r) => seen.push(`${r.index} ${r.outcome} ${r.compileError ?? ''}`) }));
    expect(s.iterations).toBe(3);
    expect(s.disagreements).toBe(1);
    expect(seen[0]).toMatch(/^0 disagreement sched internal error: RangeError: min of nothing at /);
    expect(s.repros.length).toBe(1);
    expect(readFileSync(join(s.repros[0]!, 'README.md'), 'utf8')).toContain('min of nothing');
  });

  // The shrinker's budget is wall-clock time: a smaller one shrinks less, which nothing below depends on.
  it("the example compiler's deliberate bug is found, bundled, shrunk and replayed", async () => {
    const compiler = externalCompiler(`NAIVE_BUG=1 ${NAIVE}`);
    const s = await fuzz(options({ iterations: 20, seed: 7, compiler, stopOnFirst: true, shrink: true, shrinkBudgetMs: cases(4_000, 20_000) }));
    expect(s.bugsFound).toBe(1);
    expect(s.repros.length).toBe(1);
    const dir = s.repros[0]!;
    const meta = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8'));
    expect(meta.outcome).toBe('bug');
    expect(readFileSync(join(dir, 'program.sched'), 'utf8')).toContain('impl fz_impl of fz');
    const again = await replayBundle(dir, () => compiler);
    expect(again.evaluation.outcome).toBe('bug');
  });

  for (const bug of ['input-halo-dropped', 'missing-tail-guard'] as const) {
    it(`finds the injected bug ${bug}`, async () => {
      const s = await fuzz(options({ iterations: 40, seed: 1, compiler: referenceCompiler(bug), injected: bug, stopOnFirst: true, reproDir: null }));
      expect(s.firstDetection).not.toBeNull();
      expect(s.disagreements).toBe(0);
    });
  }
});

describe('the small input family (semantics/inputs.ts; evidence of proofs/fuzz/small-inputs.ts)', () => {
  it('folds integer inputs into [-3, 3] ([0, 6] unsigned), leaves floats; the Int32 factoring mismatches on default inputs only', async () => {
    const src = familyInputs('small', 3);
    for (let x = 0n; x < 50n; x++) {
      const v = src.input('A', 'i32', [x]) as bigint | number;
      expect(Number(v)).toBeGreaterThanOrEqual(-3);
      expect(Number(v)).toBeLessThanOrEqual(3);
      const u = Number(src.input('B', 'u8', [x]) as bigint | number);
      expect(u >= 0 && u <= 6).toBe(true);
    }
    expect(src.input('C', 'f32', [1n])).toEqual(familyInputs('default', 3).input('C', 'f32', [1n]));
    const file = 'corpus/bugs/halide14_int32_no_overflow.sched';
    const prog = await checkSource(file, readFileSync(file, 'utf8'));
    const ci = prog.impls.find((i) => i.impl.name === 'halide_lowered')!;
    const ps = new Map([['F_extent_0', 64n], ['A_min_0', 0n], ['A_extent_0', 65n]]);
    const outcomes = (small: boolean) => [0, 1, 2, 3].map((s) => runImpl(ci, ps, small ? { seed: s, family: 'small' } : { seed: s }).report.outcome);
    expect(outcomes(false)).toContain('mismatch');
    expect(outcomes(true)).toEqual(['match', 'match', 'match', 'match']);
  });
});
