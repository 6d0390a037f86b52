// The checked read `load(a[ι])` (docs/language.md §4): its type rules, its agreement across the
// semantics (big-step, the reference evaluator behind the derivation checker), the Coq export's
// refusal, and the verifier's LOAD-DISCARD obligations decided without concrete runs (the runs of
// `verify` could hide a vacuous value obligation). corpus/soundness/select_load.sched holds the
// probes with their verdicts and runs (test/soundness.test.ts).

import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSource } from '../core/language/check.ts';
import { SchedInputError } from '../core/language/diagnostics.ts';
import { exportRun, NotExportable } from '../proofs/coq/export.ts';
import { checkDerivation, type DerivationJson } from '../proofs/metatheory/derivation-check.ts';
import { verifyImpl } from '../proofs/verifier/verify.ts';
import { runImpl } from '../semantics/run.ts';
import { shutdownZ3 } from '../smt/z3.ts';

afterAll(shutdownZ3);

const FILE = 'corpus/soundness/select_load.sched';
const SPEC = 'spec s { param N; assume N >= 2; input A(i): i32; output B(i): i32 = A(i) where 0 <= i && i < N; }\n';

async function rejected(text: string): Promise<string> {
  try {
    await checkSource('t.sched', SPEC + text);
  } catch (e) {
    if (e instanceof SchedInputError) return e.message;
    throw e;
  }
  return '';
}

describe('load(a[ι]): type rules', () => {
  it('reads one array cell, in an implementation only', async () => {
    expect(await rejected('impl k of s { input a: i32[N] = A; output b: i32[N] = B; for i < N do b[i] {B(i)} := load(a[i] + 1) }')).toMatch(/'load' reads one array cell/);
    expect(await rejected('impl k of s { input a: i32[N] = A; output b: i32[N] = B; for i < N do b[i] {B(i)} := load(a[i], a[i]) }')).toMatch(/'load' takes 1 argument/);
    expect(await rejected('impl k of s { input a: i32[N] = A; output b: i32[N] = B; for i < N do b[i] {load(B(i))} := a[i] }')).toMatch(/'load' is a checked read/);
    expect(await rejected('impl k of s { input a: i32[N] = A; output b: i32[N] = B; for i < N do b[i] {B(i)} := load(a[i]) }')).toBe('');
  });
});

describe('load(a[ι]): semantics', async () => {
  const impls = new Map((await checkSource(FILE, readFileSync(FILE, 'utf8'))).impls.map((ci) => [ci.impl.name, ci] as const));
  const params = new Map([['N', 3n]]);

  it('a discarded load of ⊥ is in ρ with ⊥, and the derivation re-checks (reference evaluator)', () => {
    for (const name of ['load_discarded', 'load_nested_discarded']) {
      const ci = impls.get(name)!;
      const r = runImpl(ci, params, { derivation: true, file: FILE });
      expect(r.report.outcome, name).toBe('match');
      const d = JSON.parse(JSON.stringify(r.derivation)) as DerivationJson;
      expect(d.initial).toContainEqual(['t[2]', null]);
      expect(checkDerivation(ci, d).ok, name).toBe(true);
    }
  });

  it('poison used is the run error uninitialized; reads after the poison still count', () => {
    expect(runImpl(impls.get('load_used_beside')!, params, { file: FILE }).report.error?.kind).toBe('uninitialized');
    expect(runImpl(impls.get('load_poison_then_out_of_bounds')!, params, { file: FILE }).report.error?.kind).toBe('out-of-bounds');
    expect(runImpl(impls.get('checked_poison_then_out_of_bounds')!, params, { file: FILE }).report.error?.kind).toBe('out-of-bounds');
  });

  it('the Coq export refuses it (the Coq semantics has no poison)', () => {
    expect(() => exportRun(impls.get('load_discarded')!, params, { file: FILE })).toThrow(NotExportable);
  });
});

describe('load(a[ι]): LOAD-DISCARD without concrete runs', async () => {
  const impls = new Map((await checkSource(FILE, readFileSync(FILE, 'utf8'))).impls.map((ci) => [ci.impl.name, ci] as const));
  const verdict = async (name: string) => {
    const r = await verifyImpl(impls.get(name)!, { runsFirst: false, timeoutMs: 10_000 });
    return { r, value: r.outcomes.filter((o) => o.obligation.kind === 'value').map((o) => o.status) };
  };

  it('proved where a select discards the load, refuted where the load is used', async () => {
    expect((await verdict('load_discarded')).r.verdict).toBe('valid');
    const chosen = (await verdict('load_nested_chosen')).r;
    expect([chosen.verdict, chosen.class, chosen.replay !== null]).toEqual(['invalid', 'uninitialized-read', true]);
  });

  it('the value obligation stays exact where the load is discarded: the solver refutes the 8 written for 7', async () => {
    const { value } = await verdict('load_discarded_wrong_value');
    expect(value).toContain('refuted');
  });

  it('a select on values leaves its condition out: a refutation waits for a run', async () => {
    const { r } = await verdict('load_value_condition');
    expect(r.verdict).not.toBe('valid');
    expect(r.verdict === 'invalid' ? r.replay : 'no replay needed').not.toBeNull();
  });
});
