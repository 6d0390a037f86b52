// smt/model.ts and smt/fp-literal.ts: every SMT-LIB floating-point literal form a model may hold
// is read (issue 32: `(_ -zero 8 24)` evaluated to nothing, so refutations hinging on -0 had no
// replay), and conversions round exactly. Checked against Z3 itself: the solver is asked to
// convert, and its model's bits are compared with what the reader computes from the same form.

import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { fpApplication, fpFromBits, roundRational } from '../smt/fp-literal.ts';
import { SolverModel } from '../smt/model.ts';
import { parseSExprs } from '../smt/sexpr.ts';
import { checkSat, shutdownZ3 } from '../smt/z3.ts';

afterAll(() => shutdownZ3());

function valueOf(text: string, name = 'x'): unknown {
  return new SolverModel(`(model (define-fun ${name} () (_ FloatingPoint 8 24) ${text}))`).evaluate(name);
}

function bits32(x: number): number {
  const dv = new DataView(new ArrayBuffer(4));
  dv.setFloat32(0, x);
  return dv.getUint32(0);
}

describe('floating-point forms in a model', () => {
  it('special constants, in both formats', () => {
    expect(Object.is(valueOf('(_ -zero 8 24)'), -0)).toBe(true);
    expect(Object.is(valueOf('(_ +zero 8 24)'), 0)).toBe(true);
    expect(valueOf('(_ +oo 8 24)')).toBe(Infinity);
    expect(valueOf('(_ -oo 11 53)')).toBe(-Infinity);
    expect(Number.isNaN(valueOf('(_ NaN 11 53)'))).toBe(true);
    expect(valueOf('(_ bv5 8)')).toBe(5n);
    // A format that is not a JS number: no value, never a wrong one.
    expect(valueOf('(_ -zero 5 11)')).toBeNull();
  });

  it('fp bit strings, binary and hexadecimal, normal and subnormal', () => {
    expect(valueOf('(fp #b0 #x7f #b00000000000000000000000)')).toBe(1);
    expect(valueOf('(fp #b1 #b10000000 #b10000000000000000000000)')).toBe(-3);
    expect(valueOf('(fp #b0 #x00 #b00000000000000000000001)')).toBe(2 ** -149);
    expect(Object.is(valueOf('(fp #b1 #x00 #b00000000000000000000000)'), -0)).toBe(true);
    expect(valueOf('(fp #b0 #b01111111111 #x0000000000000)')).toBe(1);
    expect(valueOf('(fp #b0 #b11111111 #b00000000000000000000001)')).toBeNaN();
  });

  it('to_fp from bits, reals (with an exponent), signed and unsigned bit vectors, and floats', () => {
    expect(valueOf('((_ to_fp 8 24) #x3fc00000)')).toBe(1.5);
    expect(valueOf('((_ to_fp 8 24) RNE 0.1)')).toBe(Math.fround(0.1));
    expect(valueOf('((_ to_fp 8 24) roundTowardZero (- (/ 1 3)))')).toBe(-fpFromBits(0x3eaaaaaan, 8, 24));
    expect(valueOf('((_ to_fp 11 53) RNE 1.5 (- 3))')).toBe(1.5 / 8);
    expect(valueOf('((_ to_fp 8 24) RNE #xff)')).toBe(-1);
    expect(valueOf('((_ to_fp_unsigned 8 24) RNE #xff)')).toBe(255);
    expect(valueOf('((_ to_fp 8 24) RNE (_ -zero 11 53))')).toBe(-0);
    expect(valueOf('((_ to_fp 8 24) RTP (fp #b0 #b01111111011 #x999999999999a))')).toBe(fpFromBits(0x3dcccccdn, 8, 24));
    expect(valueOf('(fp.neg (_ +zero 8 24))')).toBe(-0);
    expect(valueOf('(fp.abs (fp #b1 #x7f #b00000000000000000000000))')).toBe(1);
    expect(valueOf('((_ to_fp 8 24) RNE 1e5)')).toBeNull();
  });

  it('inside function models: the value at each argument', () => {
    const m = new SolverModel(`(model
  (define-fun A ((x!0 Int)) (_ FloatingPoint 8 24) (ite (= x!0 3) (_ -zero 8 24) (ite (= x!0 4) (_ +oo 8 24) (fp #b0 #x7f #b00000000000000000000000))))
  (define-fun B ((x!0 Int)) (_ FloatingPoint 11 53) (_ NaN 11 53)))`);
    expect(Object.is(m.evaluate('A', [3n]), -0)).toBe(true);
    expect(m.evaluate('A', [4n])).toBe(Infinity);
    expect(m.evaluate('A', [5n])).toBe(1);
    expect(m.evaluate('B', [0n])).toBeNaN();
  });

  it('rounding of rationals: RNE agrees with Math.fround on random doubles; overflow by direction', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        if (x === 0) return;
        const v = fpApplication(['_', 'to_fp', '8', '24'], ['RNE', 'x'], () => x);
        expect(Object.is(v, Math.fround(x))).toBe(true);
      }),
      { numRuns: 2000 },
    );
    const big = 2n ** 200n;
    expect(roundRational(false, big, 1n, 8, 24, 'RNE')).toBe(Infinity);
    expect(roundRational(false, big, 1n, 8, 24, 'RTZ')).toBe(3.4028234663852886e38);
    expect(roundRational(true, big, 1n, 8, 24, 'RTP')).toBe(-3.4028234663852886e38);
    expect(roundRational(true, big, 1n, 8, 24, 'RTN')).toBe(-Infinity);
    // Half the least subnormal: ties to even (0), away (the least subnormal).
    expect(roundRational(false, 1n, 2n ** 150n, 8, 24, 'RNE')).toBe(0);
    expect(roundRational(false, 1n, 2n ** 150n, 8, 24, 'RNA')).toBe(2 ** -149);
  });

  it('the same conversions as Z3 in every rounding mode', async () => {
    const reals = ['0.1', '(- 2.5)', '(/ 1 3)', '16777217.0', '(/ 1 1267650600228229401496703205376)', '340282356779733661637539395458142568448.0'];
    const modes = ['RNE', 'RNA', 'RTP', 'RTN', 'RTZ'];
    const forms = reals.flatMap((r) => modes.map((m) => `((_ to_fp 8 24) ${m} ${r})`));
    const decls = forms.map((f, k) => `(declare-const x${k} (_ FloatingPoint 8 24))\n(assert (= x${k} ${f}))\n(declare-const b${k} (_ BitVec 32))\n(assert (= ((_ to_fp 8 24) b${k}) x${k}))`).join('\n');
    const r = await checkSat(`(set-logic ALL)\n${decls}`, { model: true });
    expect(r.status).toBe('sat');
    const m = new SolverModel(r.output);
    for (const [k, f] of forms.entries()) {
      const mine = fpApplication(['_', 'to_fp', '8', '24'], (parseSExprs(f)[0] as string[]).slice(1), () => null);
      const z3 = m.evaluate(`b${k}`);
      expect(typeof z3, f).toBe('bigint');
      expect(bits32(mine!), f).toBe(Number(z3));
      // And the solver's own printed value of x reads back as the same number.
      expect(Object.is(m.evaluate(`x${k}`), mine), f).toBe(true);
    }
  });
});
