// A decimal literal of type f32 is the binary32 nearest to what is written, not the binary32 nearest
// to the binary64 nearest to it (core/language/float-literal.ts). The expected values are GCC's
// (`float x = 1.00000017881393432617187499f;`, correctly rounded); the property builds decimals
// exactly at, just above and just below the midpoint of two adjacent binary32 values.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalToF32 } from '../core/language/float-literal.ts';
import { printExpr } from '../core/language/printer.ts';
import { parseExpr } from '../core/language/parser.ts';
import { parseGeneric } from '../compilers/mlir/parse.ts';

/** The exact decimal expansion of a finite positive binary64. */
function exactDecimal(d: number): { digits: bigint; scale: number } {
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, d);
  const bits = b.getBigUint64(0);
  const e = Number((bits >> 52n) & 0x7ffn);
  const mant = e === 0 ? bits & ((1n << 52n) - 1n) : (bits & ((1n << 52n) - 1n)) | (1n << 52n);
  const p = (e === 0 ? 1 : e) - 1075;
  return p >= 0 ? { digits: mant << BigInt(p), scale: 0 } : { digits: mant * 5n ** BigInt(-p), scale: -p };
}

function text(digits: bigint, scale: number): string {
  return `${digits}e-${scale}`;
}

describe('decimal literals read as binary32', () => {
  it('rounds once, as GCC does', () => {
    const cases: [string, number][] = [
      ['1.00000017881393432617187499', 1.0000001192092896],
      ['1.000000178813934326171875', 1.000000238418579],
      ['1.00000005960464477539062501', 1.0000001192092896],
      ['3.4028235677973366e38', 3.4028234663852886e38],
      ['3.40282356779733661637539395458142568448e38', Infinity],
      ['7.00649232162408535461864791644958065640130970938257885878534141944895541342930300743319094181060791015626e-46', 1.401298464324817e-45],
      ['9007199791611905', 9007200328482816],
      ['-1.00000017881393432617187499', -1.0000001192092896],
      ['0.1', Math.fround(0.1)],
    ];
    for (const [t, want] of cases) expect(decimalToF32(t), t).toBe(want);
  });

  it('decides at, above and below every midpoint by the decimal itself', () => {
    const f32 = new Float32Array(1);
    const u32 = new Uint32Array(f32.buffer);
    fc.assert(fc.property(fc.integer({ min: 1, max: 0x7f7ffffe }), (bits) => {
      u32[0] = bits;
      const lo = f32[0]!;
      u32[0] = bits + 1;
      const hi = f32[0]!;
      const { digits, scale } = exactDecimal((lo + hi) / 2);
      const even = (bits & 1) === 0 ? lo : hi;
      expect(decimalToF32(text(digits, scale))).toBe(even);
      expect(decimalToF32(text(digits * 10n + 1n, scale + 1))).toBe(hi);
      expect(decimalToF32(text(digits * 10n - 1n, scale + 1))).toBe(lo);
    }), { numRuns: 300 });
  });

  it('is kept, with its text, by the parser and printed back as written', () => {
    for (const t of ['1.00000017881393432617187499', '-1.00000017881393432617187499']) {
      const e = parseExpr('lit.sched', t);
      expect(e.kind === 'float' ? e.f32 : undefined).toEqual({ value: decimalToF32(t), text: t });
      expect(printExpr(e)).toBe(t);
      expect(parseExpr('again.sched', printExpr(e))).toEqual(e);
    }
    const plain = parseExpr('lit.sched', '0.1');
    expect(plain.kind === 'float' && plain.f32 === undefined).toBe(true);
  });

  it('is how the MLIR front end reads an f32 constant (APFloat rounds once)', () => {
    const m = parseGeneric(`"builtin.module"() ({
  %0 = "arith.constant"() {value = 1.00000017881393432617187499 : f32} : () -> f32
  %1 = "arith.constant"() {value = 1.00000017881393432617187499 : f64} : () -> f64
}) : () -> ()`);
    const [c32, c64] = m.op.regions[0]!.blocks[0]!.ops.map((o) => o.attrs.get('value'));
    expect(c32).toMatchObject({ kind: 'float', value: 1.0000001192092896 });
    expect(c64).toMatchObject({ kind: 'float', value: 1.0000001788139343 });
  });
});
