// `sched fuzz --compiler mlir`'s judgement of one case (proofs/fuzz/mlir.ts): the runner, the
// verifier, the translations against the real runs on the runner's own inputs. A correct pipeline
// is `ok` with no disagreement; MLIR 16's unrolling of an empty loop (corpus/bugs/mlir/
// unroll_empty_loop_runs.mlir) is a bug found by both the runner and the verifier. Verified as
// the fuzzer does, in the worker against a budget of solver work: below the work a case needs,
// it is `unknown (budget)`, every time.

import { afterAll, describe, expect, it } from 'vitest';
import { MLIR_PACKAGES, mlirMissing } from '../compilers/mlir/tools.ts';
import { judgeCase } from '../proofs/fuzz/mlir.ts';
import { aff, type Program } from '../proofs/fuzz/mlir-gen.ts';
import { closeVerifier } from '../proofs/fuzz/verifier.ts';
import { shutdownZ3 } from '../smt/z3.ts';

afterAll(async () => {
  closeVerifier();
  await shutdownZ3();
});

/** The fuzzer's options: the per-query budget of `sched fuzz --compiler mlir`, a budget of solver work for the case. */
const opts = (verifyBudgetMs: number) => ({ timeoutMs: 10_000, verify: true, verifyBudgetMs });
const UNROLL = [{ name: 'affine-loop-unroll', options: ['unroll-factor=2'] }];

const MISSING = mlirMissing();
if (MISSING !== null) process.stderr.write(`mlir-fuzz-oracles.test: skipped: ${MISSING}\n`);

/** for i < 4: for j in [i + lo, hi): A[j] = A[j] + i (an in-place update; empty when i + lo >= hi). */
function program(lo: number, hi: number): Program {
  return {
    elem: 'i32',
    arrays: [{ name: 'A', rank: 1, local: false, slack: [0] }],
    param: null,
    scalar: false,
    body: [{
      k: 'for', iv: 'i', lb: [aff([], 0)], ub: [aff([], 4)], step: 1,
      body: [{
        k: 'for', iv: 'j', lb: [aff([['i', 1]], lo)], ub: [aff([], hi)], step: 1,
        body: [{ k: 'store', array: 'A', idx: [aff([['j', 1]], 0)], value: { k: 'bin', op: 'add', a: { k: 'load', array: 'A', idx: [aff([['j', 1]], 0)] }, b: { k: 'iv', iv: 'i' } } }],
      }],
    }],
  };
}

describe.skipIf(MISSING !== null)(`judging a fuzz case (${MLIR_PACKAGES})`, () => {
  it('calls a correct unrolling ok, every oracle agreeing', async () => {
    const j = await judgeCase(program(0, 6), UNROLL, 1, opts(60_000));
    expect([j.outcome, j.runner, j.verdict, j.disagreement]).toEqual(['ok', 'agrees', 'valid', null]);
    expect(j.workMs).toBeGreaterThan(0);
    // Half the work it needed: no verdict, whatever the load (work is counted in Z3's units).
    for (let k = 0; k < 2; k++) {
      const over = await judgeCase(program(0, 6), UNROLL, 1, opts(Math.max(1, Math.floor(j.workMs! / 2))));
      expect([over.outcome, over.runner, over.verdict, over.disagreement]).toEqual(['unknown', 'agrees', 'unknown budget', null]);
      expect(over.detail).toMatch(/over the budget of .* solver work/);
    }
  });

  it("calls MLIR 16's unrolling of an empty loop a bug, confirmed by mlir-cpu-runner", async () => {
    const j = await judgeCase(program(1, 1), UNROLL, 1, opts(60_000));
    expect([j.outcome, j.runner, j.disagreement]).toEqual(['bug', 'differs', null]);
    expect(j.verdict).toMatch(/^invalid /);
    // The worker's whole result came back: the counterexample's replay, run again under mlir-cpu-runner.
    expect(j.confirmation?.shows.length).toBeGreaterThan(0);
  });
});
