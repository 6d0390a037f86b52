// Where a fast-math translation parts from its algorithm (proofs/validate/halide-fastmath.ts): a
// regrouped sum, swapped max operands, a constant factored out; nothing for a value that is not a
// float or an assignment written as the algorithm has it.

import { describe, expect, it } from 'vitest';
import { checkSource } from '../core/language/check.ts';
import { fastMathPlace } from '../proofs/validate/halide-fastmath.ts';
import type { VerifyResult } from '../proofs/verifier/verify.ts';

async function place(spec: string, value: string, elem = 'f32'): Promise<string | null> {
  const text = `spec s {
  param N;
  input A(i): ${elem};
  input B(i): ${elem};
  input C(i): ${elem};
  tensor T(i): ${elem};
  T(i) = ${spec.replace(/\ba\b/g, 'A(i)').replace(/\bb\b/g, 'B(i)').replace(/\bc\b/g, 'C(i)')};
  output O(i): ${elem} = T(i) where 0 <= i && i < N;
}
impl p of s {
  input a: ${elem}[N] = A;
  input b: ${elem}[N] = B;
  input c: ${elem}[N] = C;
  output o: ${elem}[N] = O;
  for i < N do
    o[i] {O(i)} := ${value.replace(/\b([abc])\b/g, '$1[i]')}
}
`;
  const ci = (await checkSource('fm.sched', text)).impls[0]!;
  const r = fastMathPlace({ verdict: 'unknown', reason: 'vc1 (the value written to o[…] at line 16 equals its annotation): timeout', counterexample: null } as unknown as VerifyResult, ci);
  const m = /Halide (.*)$/.exec(r.reason ?? '');
  return m ? m[1]! : null;
}

describe('where Halide rewrote a float computation', () => {
  it('names a regrouped sum, swapped max operands and a factored constant', async () => {
    expect(await place('(a + b) + c', 'a + (b + c)')).toMatch(/^reassociated a float sum of 3 terms/);
    expect(await place('max(f32(0.0), a)', 'max(a, f32(0.0))')).toMatch(/^swapped the operands of max/);
    expect(await place('a * f32(0.5) + b * f32(0.5) + c * f32(0.5)', '(a + b + c) * f32(0.5)')).toMatch(/^factored 0\.5 out of a float sum of 3 terms/);
  });

  it('says nothing of a value written as the algorithm has it, or of integers', async () => {
    expect(await place('(a + b) + c', '(a + b) + c')).toBeNull();
    expect(await place('(a + b) + c', 'a + (b + c)', 'i32')).toBeNull();
  });
});
