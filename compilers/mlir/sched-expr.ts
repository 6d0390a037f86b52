// Kernel values, index terms and conditions as SCHED expressions (core/ast.ts), printed with the
// project's printer so precedence is never guessed. Literals are exact: a float is printed with
// as many digits as its binary64 value needs (an f32 value is such a double), NaN and ±∞ as
// `0.0 / 0.0` and `±1.0 / 0.0` (SCHED has no literal for them).

import { type Expr, NO_POS, type ValueType } from '../../core/language/ast.ts';
import { formulaToExpr, termToExpr } from '../algorithm/terms.ts';
import { printExpr } from '../../core/language/printer.ts';
import type { Formula, Term } from '../../core/presburger/index.ts';
import type { KVal } from './kernel.ts';

const P = NO_POS;

export const termExpr = (t: Term): Expr => termToExpr(t);
export const condExpr = (f: Formula): Expr => formulaToExpr(f);
export const showExpr = (e: Expr): string => printExpr(e);

function floatLit(v: number): Expr {
  if (Number.isNaN(v)) return { kind: 'binary', op: '/', left: { kind: 'float', value: 0, pos: P }, right: { kind: 'float', value: 0, pos: P }, pos: P };
  if (!Number.isFinite(v)) return { kind: 'binary', op: '/', left: { kind: 'float', value: v > 0 ? 1 : -1, pos: P }, right: { kind: 'float', value: 0, pos: P }, pos: P };
  return { kind: 'float', value: v, pos: P };
}

function literal(type: ValueType, value: number | bigint | boolean): Expr {
  if (typeof value === 'boolean') return { kind: 'bool', value, pos: P };
  if (type === 'f32' || type === 'f64') return floatLit(Number(value));
  const n = BigInt(value);
  // A typed literal: SCHED literals take the type the context expects, which a cast makes explicit.
  const lit: Expr = n < 0n ? { kind: 'unary', op: '-', arg: { kind: 'int', value: -n, pos: P }, pos: P } : { kind: 'int', value: n, pos: P };
  return { kind: 'call', fn: type, args: [lit], pos: P };
}

/** A kernel value as a SCHED value expression; `load` gives the expression of each read. */
export function valueExpr(v: KVal, load: (l: Extract<KVal, { k: 'load' }>) => Expr): Expr {
  const go = (x: KVal): Expr => {
    switch (x.k) {
      case 'load': return load(x);
      case 'const': return literal(x.type, x.value);
      case 'index': return { kind: 'call', fn: x.type, args: [termExpr(x.term)], pos: P };
      case 'cond': return { kind: 'select', cond: condExpr(x.cond), then: { kind: 'bool', value: true, pos: P }, else: { kind: 'bool', value: false, pos: P }, pos: P };
      case 'un': return { kind: 'unary', op: x.op, arg: go(x.a), pos: P };
      case 'bin': return { kind: 'binary', op: x.op, left: go(x.a), right: go(x.b), pos: P };
      case 'select': return { kind: 'select', cond: go(x.c), then: go(x.a), else: go(x.b), pos: P };
      case 'cast': return { kind: 'call', fn: x.to, args: [go(x.a)], pos: P };
      case 'call': return { kind: 'call', fn: x.fn, args: x.args.map(go), pos: P };
    }
  };
  return go(v);
}

export const tensorRead = (name: string, idx: readonly Term[]): Expr => ({ kind: 'tensor', name, indices: idx.map(termExpr), pos: P });
export const arrayRead = (name: string, idx: readonly Term[]): Expr => ({ kind: 'array', name, indices: idx.map(termExpr), pos: P });
export const selectExpr = (c: Formula, a: Expr, b: Expr): Expr => ({ kind: 'select', cond: condExpr(c), then: a, else: b, pos: P });
