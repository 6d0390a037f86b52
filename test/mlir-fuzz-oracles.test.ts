// `sched fuzz --compiler mlir`'s judgement of one case (proofs/fuzz/mlir.ts): the runner, the
// verifier, the translations against the real runs on the runner's own inputs. A correct pipeline
// is `ok` with no disagreement; MLIR 16's unrolling of an empty loop (corpus/bugs/mlir/
// unroll_empty_loop_runs.mlir) is a bug found by both the runner and the verifier.

import { afterAll, describe, expect, it } from 'vitest';
import { MLIR_PACKAGES, mlirMissing } from '../compilers/mlir/tools.ts';
import { judgeCase } from '../proofs/fuzz/mlir.ts';
import { aff, type Program } from '../proofs/fuzz/mlir-gen.ts';
import { shutdownZ3 } from '../smt/z3.ts';

afterAll(async () => {
  await shutdownZ3();
});

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
    const j = await judgeCase(program(0, 6), [{ name: 'affine-loop-unroll', options: ['unroll-factor=2'] }], 1, { timeoutMs: 10_000, verify: true });
    expect([j.outcome, j.runner, j.verdict, j.disagreement]).toEqual(['ok', 'agrees', 'valid', null]);
  });

  it("calls MLIR 16's unrolling of an empty loop a bug, confirmed by mlir-cpu-runner", async () => {
    const j = await judgeCase(program(1, 1), [{ name: 'affine-loop-unroll', options: ['unroll-factor=2'] }], 1, { timeoutMs: 10_000, verify: true });
    expect([j.outcome, j.runner, j.disagreement]).toEqual(['bug', 'differs', null]);
    expect(j.verdict).toMatch(/^invalid /);
  });
});
