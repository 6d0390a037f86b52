// The small-step semantics (Fig. 4.6), its explorer and schedulers, checked against the big-step
// semantics on the thesis's examples and on random programs (Thms 4.3.3 and 4.3.7 as tests).

import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { explore, finalMemory, namedMemoryKey, runSmallStep, smallSetup } from '../semantics/explore.ts';
import { runImpl, specModel } from '../semantics/run.ts';
import { SmallStep } from '../semantics/smallstep.ts';
import type { CheckedImpl } from '../core/language/typecheck.ts';
import { dump, impl, params, programArb } from './semantics-helpers.ts';

function setup(ci: CheckedImpl, ps: Record<string, number> = {}, seed = 0, mutable = false): ReturnType<typeof smallSetup> {
  const p = params(ps);
  const model = specModel(ci, new Map([...p].map(([k, v]) => [k, Number(v)])), { seed });
  return smallSetup(ci, p, model, { mutable });
}

const thesis = (f: string): string => readFileSync(`corpus/thesis/${f}`, 'utf8');

describe('thesis examples under interleaving', () => {
  it('y/x/z is nondeterministic: two schedules, z = X or z = 0', () => {
    const ci = impl(thesis('race_yxz.sched'));
    const s = setup(ci);
    const r = explore(s.prog, s.space, s.init, s.globals);
    expect(r.outcome).toBe('nondeterministic');
    expect(r.finals).toBe(2);
    const zs = r.witnesses.map((w) => w.arrays.z![0]).sort();
    expect(zs).toContain(0);
    expect(r.witnesses.every((w) => w.schedule.length > 0 && w.schedule.some((st) => st.rules.endsWith('ASSIGN')))).toBe(true);
    // without partial-order reduction: the same finals, more states
    const full = explore(s.prog, s.space, s.init, s.globals, { por: false });
    expect(full.finals).toBe(2);
    expect(full.states).toBeGreaterThanOrEqual(r.states);
  });
  it('the covered race and the benign race are deterministic', () => {
    for (const name of ['covered', 'benign']) {
      const ci = impl(thesis('covered_race.sched'), name);
      const s = setup(ci);
      const r = explore(s.prog, s.space, s.init, s.globals);
      expect(r.outcome).toBe('deterministic');
      expect(r.witnesses[0]!.arrays.x).toEqual([7]);
    }
  });
  it('nested allocations: ALLOCATE, INALLOC-CTX, INALLOC-SKIP; the out-of-bounds read is stuck', () => {
    const fixed = impl(thesis('nested_alloc.sched'), 'fixed');
    const s = setup(fixed, { N: 2, M: 2 }, 0, true);
    const run = runSmallStep(s.prog, s.space, s.init, { seed: 5 });
    expect(run.outcome).toBe('final');
    const rules = new Set(run.trace.flatMap((t) => t.rules.split(' ▸ ')));
    for (const r of ['PARLOOP', 'ALLOCATE', 'INALLOC-CTX', 'INALLOC-SKIP', 'PAR-L', 'PAR-R', 'SEQ-CTX', 'SEQ-SKIP', 'ASSIGN']) expect(rules.has(r)).toBe(true);
    const printed = impl(thesis('nested_alloc.sched'), 'as_printed');
    const p = setup(printed, { N: 2, M: 2 });
    const r = explore(p.prog, p.space, p.init, p.globals);
    expect(r.outcome).toBe('stuck');
    expect(r.stuck!.blocked[0]).toMatchObject({ kind: 'out-of-bounds', rule: 'ASSIGN' });
  });
});

describe('explorer', () => {
  const H = `spec s { param N; input X(i): i32; output Y(i): i32 = X(i) where 0 <= i && i < N; }\n`;
  it('partial-order reduction makes independent threads linear', () => {
    const ci = impl(`${H}impl p of s {\n  input x: i32[N] = X;\n  output y: i32[N] = Y;\n  par i < N do y[i] := x[i]\n}\n`);
    const s = setup(ci, { N: 6 });
    const r = explore(s.prog, s.space, s.init, s.globals);
    expect(r.outcome).toBe('deterministic');
    expect(r.states).toBeLessThan(30);
    const full = explore(s.prog, s.space, s.init, s.globals, { por: false });
    expect(full.outcome).toBe('deterministic');
    expect(full.states).toBeGreaterThan(2 ** 6);
  });
  it('stops at the state limit', () => {
    const ci = impl(`${H}impl p of s {\n  input x: i32[N] = X;\n  output y: i32[N] = Y;\n  par i < N do y[i] := x[i]\n}\n`);
    const s = setup(ci, { N: 8 });
    const r = explore(s.prog, s.space, s.init, s.globals, { por: false, maxStates: 100 });
    expect(r.outcome).toBe('limit');
  });
  it('hashes states up to the naming of fresh arrays', () => {
    const ci = impl(`${H}impl p of s {\n  input x: i32[N] = X;\n  output y: i32[N] = Y;\n  par i < N do allocate t: i32[] in { t[] := x[i]; y[i] := t[] }\n}\n`);
    const s = setup(ci, { N: 3 });
    const a = explore(s.prog, s.space, s.init, s.globals, { por: false });
    expect(a.outcome).toBe('deterministic');
    // Without canonical names each order of the three ALLOCATEs would give distinct states.
    expect(a.states).toBeLessThan(3000);
  });
});

describe('small-step against big-step on random programs', () => {
  it('Thm 4.3.7 (determinism) and 4.3.3 (existence): with a derivation, every schedule ends in μ ▷ δμ', () => {
    fc.assert(
      fc.property(programArb(2), fc.integer({ min: 0, max: 1000 }), (text, seed) => {
        const ci = impl(text);
        const big = runImpl(ci, params({}), { seed: 1 });
        const s = setup(ci, {}, 1);
        const r = explore(s.prog, s.space, s.init, s.globals, { maxStates: 20_000 });
        if (r.outcome === 'limit') return;
        const noPor = explore(s.prog, s.space, s.init, s.globals, { maxStates: 200_000, por: false });
        if (noPor.outcome !== 'limit') {
          // partial-order reduction loses no final memory and no stuck state
          expect(r.finals).toBe(noPor.finals);
          expect(r.stuckStates > 0).toBe(noPor.stuckStates > 0);
        }
        if (!big.result.ok) return;
        expect(r.outcome).toBe('deterministic');
        expect(r.witnesses[0]!.key).toBe(namedMemoryKey(big.memory, s.globals));
        for (const scheduler of ['leftmost', 'random'] as const) {
          const m = setup(ci, {}, 1, true);
          const run = runSmallStep(m.prog, m.space, m.init, { seed, scheduler });
          expect(run.outcome).toBe('final');
          expect(dump(finalMemory(run.state, m.globals))).toEqual(dump(big.memory));
        }
      }),
      { numRuns: 150 },
    );
  });
  it('a stuck small-step state means no big-step derivation', () => {
    fc.assert(
      fc.property(programArb(2), (text) => {
        const ci = impl(text);
        const s = setup(ci, {}, 2);
        const r = explore(s.prog, s.space, s.init, s.globals, { maxStates: 20_000 });
        if (r.stuckStates > 0) expect(runImpl(ci, params({}), { seed: 2 }).result.ok).toBe(false);
      }),
      { numRuns: 100 },
    );
  });
  it('every redex of a state is reported once, steps or blocked', () => {
    const ci = impl(thesis('race_yxz.sched'));
    const s = setup(ci);
    const m = new SmallStep(s.prog, s.space);
    const first = m.steps(s.init);
    expect(first.steps.map((x) => x.rules.join(' '))).toEqual(['PARLOOP']);
  });
});
