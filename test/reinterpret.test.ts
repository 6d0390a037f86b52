// reinterpret_f32 / reinterpret_f64 (docs/language.md): the float with an integer's IEEE-754 bits,
// the same in the big-step semantics, the reference evaluator's independent view and the IEEE
// encoding (a program writing 1065353216's bits is verified equal to 1.0, and 1065353217's is not).

import { afterAll, describe, expect, it } from 'vitest';
import { reinterpretBits } from '../semantics/values.ts';
import { checkSource } from '../core/language/check.ts';
import { verifyImpl } from '../proofs/verifier/verify.ts';
import { runImpl } from '../semantics/run.ts';
import { shutdownZ3 } from '../smt/z3.ts';

afterAll(shutdownZ3);

describe('reinterpret_f32 and reinterpret_f64', () => {
  it('read an integer\'s bits as a float', () => {
    const f = reinterpretBits('i32');
    expect(f(0x3f800000)).toBe(1);
    expect(Object.is(f(-2147483648), -0)).toBe(true);
    expect(reinterpretBits('u32')(0x80000000)).toBe(-0);
    expect(f(0x7f800000)).toBe(Infinity);
    expect(f(0xff800000 | 0)).toBe(-Infinity);
    expect(f(1)).toBe(Math.fround(1.401298464324817e-45));
    expect(f(0x7fc00000)).toBeNaN();
    expect(f(127 << 23)).toBe(1);
    expect(f(0)).toBe(0);
    expect(reinterpretBits('i64')(0x3ff0000000000000n)).toBe(1);
    expect(reinterpretBits('u64')(0xc000000000000000n)).toBe(-2);
  });

  const program = (bits: number): string => `spec s {
  output o(i): f32 = 1.0 where 0 <= i && i < 4;
}
impl p of s {
  output a: f32[4] = o;
  for i < 4 do a[i] {o(i)} := reinterpret_f32(i32(${bits}) + i32(i) * i32(0))
}
`;

  it('runs, and verifies equal to the float with those bits (exactly, in the IEEE encoding)', async () => {
    const ok = await checkSource('r.sched', program(0x3f800000));
    expect(runImpl(ok.impls[0]!, new Map()).report.outcome).toBe('match');
    const v = await verifyImpl(ok.impls[0]!, { float: 'ieee' });
    expect(v.verdict).toBe('valid');
    const off = await checkSource('r2.sched', program(0x3f800001));
    expect(runImpl(off.impls[0]!, new Map()).report.outcome).toBe('mismatch');
    expect((await verifyImpl(off.impls[0]!, { float: 'ieee' })).verdict).toBe('invalid');
  }, 60_000);

  it('takes 32 (64) bits only', async () => {
    await expect(checkSource('r3.sched', program(1).replace('i32(1)', 'i16(1)').replace('i32(i) * i32(0)', 'i16(i) * i16(0)'))).rejects.toThrow(/reads the bits of a 32-bit integer/);
  });
});
