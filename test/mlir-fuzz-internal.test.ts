// A throw of ours while judging one case of `sched fuzz --compiler mlir` is a finding recorded
// with the case (a disagreement `sched-internal-error`), not the end of the campaign: case 532 of
// seed 0 once ended shard 5/8 with "min of nothing" from the Presburger simplifier.

import { describe, expect, it } from 'vitest';
import { MLIR_PACKAGES, mlirMissing } from '../compilers/mlir/tools.ts';
import { caseSeed, genProgram, Rng } from '../proofs/fuzz/mlir-gen.ts';
import { judgeCase } from '../proofs/fuzz/mlir.ts';

const MISSING = mlirMissing();

describe.skipIf(MISSING !== null)(`an internal error on one case (${MLIR_PACKAGES})`, () => {
  it("is the case's disagreement, with the error and where it was thrown", async () => {
    const seed = caseSeed(4, 0);
    const program = genProgram(new Rng(seed));
    const throwing = (): never => {
      throw new RangeError('min of nothing');
    };
    const j = await judgeCase(program, [{ name: 'cse', options: [] }], seed, { timeoutMs: 2000, verify: true }, throwing);
    expect(j.outcome).toBe('disagreement');
    expect(j.disagreement).toBe('sched-internal-error');
    expect(j.detail).toMatch(/^RangeError: min of nothing at /);
  });
});
