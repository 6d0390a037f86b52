// Quasi-affine terms in normal form: Σ coeff·atom + c with atoms sorted by key, constants folded,
// and floors normalised (⌊(c·u + v)/c⌋ = u + ⌊v/c⌋ with v's coefficients in [0, c), common factors
// divided out, nested floors merged), so that equal normal forms have equal keys.

import type { Atom, Formula, Term } from './types.ts';
import { emod, floorDiv, gcd } from './bigint.ts';
import { termVars } from './vars.ts';

function termKey(parts: readonly (readonly [Atom, bigint])[], c: bigint): string {
  let s = '(';
  for (const [a, k] of parts) s += `${k}*${a.key}+`;
  return `${s}${c})`;
}

function build(m: Map<string, [Atom, bigint]>, c: bigint): Term {
  const parts: [Atom, bigint][] = [];
  for (const [, p] of m) if (p[1] !== 0n) parts.push(p);
  parts.sort((x, y) => (x[0].key < y[0].key ? -1 : x[0].key > y[0].key ? 1 : 0));
  return { parts, c, key: termKey(parts, c) };
}

const constCache = new Map<bigint, Term>();

export function constant(c: bigint | number): Term {
  const v = BigInt(c);
  let t = constCache.get(v);
  if (!t) {
    t = { parts: [], c: v, key: termKey([], v) };
    if (constCache.size < 4096) constCache.set(v, t);
  }
  return t;
}

export const ZERO = constant(0n);
export const ONE = constant(1n);

export function atomTerm(a: Atom): Term {
  return { parts: [[a, 1n]], c: 0n, key: termKey([[a, 1n]], 0n) };
}

export function variable(name: string): Term {
  return atomTerm({ kind: 'var', name, key: name });
}

export function isConst(t: Term): boolean {
  return t.parts.length === 0;
}

/** Σ k_i·t_i + c. */
export function linear(items: readonly (readonly [Term, bigint])[], c = 0n): Term {
  // Fast paths: one term scaled by ±1 (no merging needed).
  if (items.length === 1) {
    const [t, k] = items[0]!;
    if (k === 1n) return c === 0n ? t : addConst(t, c);
    if (k === -1n) return c === 0n ? neg(t) : addConst(neg(t), c);
  }
  const m = new Map<string, [Atom, bigint]>();
  let cc = c;
  for (const [t, k] of items) {
    if (k === 0n) continue;
    cc += k * t.c;
    for (const [a, ak] of t.parts) {
      const e = m.get(a.key);
      if (e) e[1] += k * ak;
      else m.set(a.key, [a, k * ak]);
    }
  }
  return build(m, cc);
}

export function add(...ts: Term[]): Term {
  if (ts.length === 1) return ts[0]!;
  return linear(ts.map((t) => [t, 1n] as const));
}

export function sub(a: Term, b: Term): Term {
  return linear([[a, 1n], [b, -1n]]);
}

export function scale(t: Term, k: bigint): Term {
  if (k === 1n) return t;
  return linear([[t, k]]);
}

// Not memoised: a WeakMap of terms cost more (in lookups and in the collector's ephemeron work)
// than the negations it saved.
export function neg(t: Term): Term {
  const parts = t.parts.map(([a, k]) => [a, -k] as const);
  return { parts, c: -t.c, key: termKey(parts, -t.c) };
}

/** The key of −t + d (neg(t)'s key when d = 0), without building the term. */
export function negKey(t: Term, d = 0n): string {
  let s = '(';
  for (const [a, k] of t.parts) s += `${-k}*${a.key}+`;
  return `${s}${d - t.c})`;
}

export function addConst(t: Term, k: bigint): Term {
  if (k === 0n) return t;
  return { parts: t.parts, c: t.c + k, key: termKey(t.parts, t.c + k) };
}

/** The term without its constant. */
export function linearPart(t: Term): Term {
  return t.c === 0n ? t : { parts: t.parts, c: 0n, key: termKey(t.parts, 0n) };
}

/** Coefficient of atom `key` (0 if absent). */
export function coeff(t: Term, key: string): bigint {
  for (const [a, k] of t.parts) if (a.key === key) return k;
  return 0n;
}

/** The term minus its part on the atom of `key`. */
export function without(t: Term, key: string): Term {
  const parts = t.parts.filter(([a]) => a.key !== key);
  return { parts, c: t.c, key: termKey(parts, t.c) };
}

/** If t is exactly one atom with coefficient 1 and no constant, that atom. */
export function asAtom(t: Term): Atom | null {
  return t.c === 0n && t.parts.length === 1 && t.parts[0]![1] === 1n ? t.parts[0]![0] : null;
}

/** If t is a single variable, its name. */
export function asVar(t: Term): string | null {
  const a = asAtom(t);
  return a && a.kind === 'var' ? a.name : null;
}

/** ⌊t / d⌋ for d > 0, in normal form. */
export function floorT(t: Term, d: bigint): Term {
  if (d <= 0n) throw new RangeError(`floor by non-positive ${d}`);
  if (d === 1n) return t;
  if (t.parts.length === 0) return constant(floorDiv(t.c, d));
  // Nested floor: ⌊(⌊s/e⌋ + k)/d⌋ = ⌊(s + k·e)/(e·d)⌋.
  if (t.parts.length === 1 && t.parts[0]![1] === 1n && t.parts[0]![0].kind === 'floor') {
    const inner = t.parts[0]![0];
    return floorT(addConst(inner.arg, t.c * inner.div), inner.div * d);
  }
  const outer: [Term, bigint][] = [];
  const innerParts = new Map<string, [Atom, bigint]>();
  let g = d;
  for (const [a, k] of t.parts) {
    const r = emod(k, d);
    const q = (k - r) / d;
    if (q !== 0n) outer.push([atomTerm(a), q]);
    if (r !== 0n) {
      innerParts.set(a.key, [a, r]);
      g = gcd(g, r);
    }
  }
  const rc = emod(t.c, d);
  const qc = (t.c - rc) / d;
  if (innerParts.size === 0) return linear(outer, qc);
  let div = d;
  let ic = rc;
  if (g > 1n) {
    for (const e of innerParts.values()) e[1] /= g;
    div = d / g;
    ic = floorDiv(rc, g);
  }
  if (div === 1n) {
    // Cannot happen (g divides d only when some coefficient is a multiple of d, removed above),
    // but keep the algebra total.
    outer.push([build(innerParts, ic), 1n]);
    return linear(outer, qc);
  }
  const arg = build(innerParts, ic);
  if (arg.parts.length === 1 && arg.parts[0]![1] === 1n && arg.parts[0]![0].kind === 'floor') {
    outer.push([floorT(arg, div), 1n]);
    return linear(outer, qc);
  }
  const atom: Atom = { kind: 'floor', arg, div, key: `⌊${arg.key}/${div}⌋` };
  outer.push([atomTerm(atom), 1n]);
  return linear(outer, qc);
}

/** t mod d (Euclidean, d > 0) = t − d·⌊t/d⌋. */
export function modT(t: Term, d: bigint): Term {
  return sub(t, scale(floorT(t, d), d));
}

/** ⌈t / d⌉ = −⌊−t/d⌋. */
export function ceilT(t: Term, d: bigint): Term {
  return neg(floorT(neg(t), d));
}

function minMax(kind: 'min' | 'max', ts: readonly Term[]): Term {
  const flat: Term[] = [];
  for (const t of ts) {
    const a = asAtom(t);
    if (a && a.kind === kind) flat.push(...a.args);
    else flat.push(t);
  }
  // Keep one argument per linear part: arguments differing by a constant are ordered.
  const best = new Map<string, Term>();
  for (const t of flat) {
    const lk = linearPart(t).key;
    const prev = best.get(lk);
    if (!prev || (kind === 'min' ? t.c < prev.c : t.c > prev.c)) best.set(lk, t);
  }
  const args = [...best.values()].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  if (args.length === 0) throw new RangeError(`${kind} of nothing`);
  if (args.length === 1) return args[0]!;
  const key = `${kind}(${args.map((a) => a.key).join(',')})`;
  return atomTerm({ kind, args, key });
}

export function minT(...ts: Term[]): Term {
  return minMax('min', ts);
}

export function maxT(...ts: Term[]): Term {
  return minMax('max', ts);
}

/** `cond ? a : b`. */
export function selectT(cond: Formula, a: Term, b: Term): Term {
  if (cond.kind === 'true') return a;
  if (cond.kind === 'false') return b;
  if (a.key === b.key) return a;
  return atomTerm({ kind: 'select', cond, then: a, else: b, key: `sel(${cond.key},${a.key},${b.key})` });
}

/** gcd of the atom coefficients (0 for a constant). */
export function contentOf(t: Term): bigint {
  let g = 0n;
  for (const [, k] of t.parts) g = gcd(g, k);
  return g;
}

/** Divide every coefficient and the constant by k (caller guarantees exactness). */
export function divExact(t: Term, k: bigint): Term {
  if (k === 1n) return t;
  const m = new Map<string, [Atom, bigint]>();
  for (const [a, c] of t.parts) m.set(a.key, [a, c / k]);
  return build(m, t.c / k);
}

export function termFromParts(parts: readonly (readonly [Atom, bigint])[], c: bigint): Term {
  const m = new Map<string, [Atom, bigint]>();
  for (const [a, k] of parts) {
    const e = m.get(a.key);
    if (e) e[1] += k;
    else m.set(a.key, [a, k]);
  }
  return build(m, c);
}

/**
 * If t = k·v + rest with k = ±1 and v not in rest, the term e with (t = 0 ⇔ v = e); else null.
 */
export function solveUnit(t: Term, v: string): Term | null {
  for (const [a, k] of t.parts) {
    if (a.kind === 'var' && a.name === v && (k === 1n || k === -1n)) {
      const rest = without(t, a.key);
      if (termVars(rest).has(v)) return null;
      return linear([[rest, -k]]);
    }
  }
  return null;
}
