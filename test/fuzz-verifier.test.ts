// The fuzzer's verifier worker (proofs/fuzz/verifier.ts) under resource limits: a case is charged
// the solver work of its own queries, whatever the worker verified before it (no fresh names,
// memos or cached answers of earlier cases), so that a campaign split into shards judges each case
// against its budget as the unsplit run does; and a case over its budget is `unknown` every time.

import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { closeVerifier, verifyInWorker } from '../proofs/fuzz/verifier.ts';
import { setSolverLimits } from '../smt/limits.ts';

afterAll(() => {
  closeVerifier();
  setSolverLimits('time');
});

const BLUR = readFileSync('corpus/examples/blur.sched', 'utf8');
const MATMUL = readFileSync('corpus/examples/matmul.sched', 'utf8');

describe('the verifier worker under resource limits', () => {
  it('charges a case the same solver work after other cases as alone, and judges the budget by it', async () => {
    setSolverLimits('rlimit');
    const first = await verifyInWorker(BLUR, 5000);
    expect(first.verdict).toBe('valid');
    expect(first.workMs).toBeGreaterThan(0);
    // Another case in the same worker (its memos and answers must not serve the next one)…
    expect((await verifyInWorker(MATMUL, 5000)).verdict).toBe('valid');
    const again = await verifyInWorker(BLUR, 5000);
    expect(again.workMs).toBe(first.workMs);
    // …and a budget of solver work below that case's: `unknown` for the budget, every time.
    const budgetMs = first.workMs! / 2;
    for (let k = 0; k < 2; k++) {
      const over = await verifyInWorker(BLUR, 5000, { budgetMs, cpuBudgetMs: 60_000 });
      expect([over.verdict, over.class]).toEqual(['unknown', 'budget']);
      expect(over.reason).toMatch(/solver work/);
    }
  });
});
