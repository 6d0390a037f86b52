// Cell values of the execution oracle, exact: a cell is a bigint, the signed value for integer and
// index elements and the IEEE bit pattern (unsigned) for floats, so comparisons never round (a
// printMemrefF32 would print 6 digits). Seeded inputs are drawn here: small integers, and floats that
// are multiples of 1/8 in [-2, 2] (sums and products of a few of them stay exact, so a pass that
// reassociates a float reduction changes nothing on them unless it changes which terms are summed).

export type ElemType = 'f32' | 'f64' | 'i8' | 'i16' | 'i32' | 'i64' | 'index';

export const ELEM_TYPES: readonly ElemType[] = ['f32', 'f64', 'i8', 'i16', 'i32', 'i64', 'index'];

export function isElemType(s: string): s is ElemType {
  return (ELEM_TYPES as readonly string[]).includes(s);
}

export function isFloat(t: ElemType): boolean {
  return t === 'f32' || t === 'f64';
}

/** Bits of a stored element (index is 64 bits in the LLVM lowering). */
export function bitWidth(t: ElemType): number {
  switch (t) {
    case 'i8': return 8;
    case 'i16': return 16;
    case 'f32': case 'i32': return 32;
    case 'f64': case 'i64': case 'index': return 64;
  }
}

/** The cell a printed i64 stands for (the harness prints floats as bitcast integers, zero-extended for f32). */
export function cellFromPrinted(t: ElemType, printed: bigint): bigint {
  return isFloat(t) ? BigInt.asUintN(bitWidth(t), printed) : BigInt.asIntN(bitWidth(t), printed);
}

/** Little-endian hex of the cells, as MLIR's `dense<"0x…">` reads it (exact for every bit pattern). */
export function denseHex(t: ElemType, cells: readonly bigint[]): string {
  const bytes = bitWidth(t) / 8;
  let s = '0x';
  for (const c of cells) {
    let u = BigInt.asUintN(bitWidth(t), c);
    for (let k = 0; k < bytes; k++) {
      s += Number(u & 0xffn).toString(16).padStart(2, '0').toUpperCase();
      u >>= 8n;
    }
  }
  return s;
}

/** A float's bit pattern. */
export function floatBits(t: 'f32' | 'f64', x: number): bigint {
  const dv = new DataView(new ArrayBuffer(8));
  if (t === 'f32') {
    dv.setFloat32(0, x);
    return BigInt(dv.getUint32(0));
  }
  dv.setFloat64(0, x);
  return dv.getBigUint64(0);
}

/** The float a bit pattern stands for. */
export function floatOfBits(t: 'f32' | 'f64', bits: bigint): number {
  const dv = new DataView(new ArrayBuffer(8));
  if (t === 'f32') {
    dv.setUint32(0, Number(BigInt.asUintN(32, bits)));
    return dv.getFloat32(0);
  }
  dv.setBigUint64(0, BigInt.asUintN(64, bits));
  return dv.getFloat64(0);
}

/** A cell for people: integers as they are, floats as their value and bit pattern. */
export function renderCell(t: ElemType, cell: bigint): string {
  if (!isFloat(t)) return cell.toString();
  const f = t as 'f32' | 'f64';
  return `${floatOfBits(f, cell)} (0x${BigInt.asUintN(bitWidth(t), cell).toString(16).padStart(bitWidth(t) / 4, '0')})`;
}

/** The cell of a number written by a user (an exact float or an integer in range); null if it is neither. */
export function cellOfNumber(t: ElemType, x: number | bigint): bigint | null {
  if (isFloat(t)) {
    const n = Number(x);
    if (t === 'f32' && Math.fround(n) !== n) return null;
    return floatBits(t as 'f32' | 'f64', n);
  }
  if (typeof x === 'number' && !Number.isInteger(x)) return null;
  const v = BigInt(x);
  return BigInt.asIntN(bitWidth(t), v) === v ? v : null;
}

/** splitmix32: a small seeded generator, the same on every machine. */
export function generator(seed: number, stream: number): () => number {
  let s = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(stream + 1, 0x85ebca6b)) >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** A seeded input cell: integers in [-8, 8] (index elements in [0, 8]), floats k/8 for k in [-16, 16]. */
export function seededCell(t: ElemType, next: () => number): bigint {
  const r = next();
  if (isFloat(t)) return floatBits(t as 'f32' | 'f64', ((r % 33) - 16) / 8);
  if (t === 'index') return BigInt(r % 9);
  return BigInt((r % 17) - 8);
}
