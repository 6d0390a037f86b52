// Variable tuples and spaces (thesis Defs. 3.2.1–3.2.2).

import type { Space, Tuple } from './types.ts';
import { fresh } from './names.ts';

export function tupleVars(t: Tuple): string[] {
  if (t.kind === 'flat') return [...t.vars];
  return [...tupleVars(t.left), ...tupleVars(t.right)];
}

export function spaceOf(t: Tuple): Space {
  if (t.kind === 'flat') return { kind: 'flat', name: t.name, arity: t.vars.length };
  return { kind: 'pair', name: t.name, left: spaceOf(t.left), right: spaceOf(t.right) };
}

/** A canonical string for a space: `a/2`, `(n: a/1, b/0)`. Names are JSON-quoted when needed. */
export function spaceKey(s: Space): string {
  const n = JSON.stringify(s.name);
  if (s.kind === 'flat') return `${n}/${s.arity}`;
  return `${n}(${spaceKey(s.left)},${spaceKey(s.right)})`;
}

/** The space key of a tuple. */
export function tupleSpace(t: Tuple): string {
  return spaceKey(spaceOf(t));
}

export function sameSpace(a: Tuple, b: Tuple): boolean {
  if (a.kind !== b.kind || a.name !== b.name) return false;
  if (a.kind === 'flat') return a.vars.length === (b as typeof a).vars.length;
  const bb = b as typeof a;
  return sameSpace(a.left, bb.left) && sameSpace(a.right, bb.right);
}

/** A tuple of the given space with fresh variables (base names from `hint` when given). */
export function freshTuple(s: Space, hint?: Tuple): Tuple {
  if (s.kind === 'flat') {
    const hv = hint && hint.kind === 'flat' && hint.vars.length === s.arity ? hint.vars : null;
    return { kind: 'flat', name: s.name, vars: Array.from({ length: s.arity }, (_, i) => fresh(hv ? hv[i]! : defaultName(i))) };
  }
  const hl = hint && hint.kind === 'pair' ? hint : undefined;
  return { kind: 'pair', name: s.name, left: freshTuple(s.left, hl?.left), right: freshTuple(s.right, hl?.right) };
}

const DEFAULT_NAMES = ['i', 'j', 'k', 'l', 'm', 'n'];

function defaultName(i: number): string {
  return DEFAULT_NAMES[i] ?? `i${i}`;
}

/** Same shape, fresh variables, base names kept. */
export function refreshTuple(t: Tuple): Tuple {
  return freshTuple(spaceOf(t), t);
}

/** Variable-to-variable map sending `from`'s variables to `to`'s (same space). */
export function alignment(from: Tuple, to: Tuple): Map<string, string> {
  const a = tupleVars(from);
  const b = tupleVars(to);
  if (a.length !== b.length) throw new Error('alignment of tuples of different spaces');
  const m = new Map<string, string>();
  a.forEach((v, i) => m.set(v, b[i]!));
  return m;
}

export function renameTuple(t: Tuple, m: ReadonlyMap<string, string>): Tuple {
  if (t.kind === 'flat') return { kind: 'flat', name: t.name, vars: t.vars.map((v) => m.get(v) ?? v) };
  return { kind: 'pair', name: t.name, left: renameTuple(t.left, m), right: renameTuple(t.right, m) };
}

export function flat(name: string, vars: readonly string[]): Tuple {
  return { kind: 'flat', name, vars };
}

export function pair(name: string, left: Tuple, right: Tuple): Tuple {
  return { kind: 'pair', name, left, right };
}
