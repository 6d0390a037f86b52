// Random quasi-affine terms and formulas for the Presburger property tests, as raw trees with
// their own direct evaluator (independent of the layer's normal forms), plus converters into the
// layer's Term / Formula.

import fc from 'fast-check';
import type { Formula, PRel, PSet, Term, Tuple } from '../core/presburger/types.ts';
import { relOf } from '../core/presburger/relations.ts';
import { setOf } from '../core/presburger/sets.ts';
import { fresh } from '../core/presburger/names.ts';
import { renameFormula } from '../core/presburger/subst.ts';
import {
  FALSE, TRUE, and, cong, eqT, exists, forall, geT, gtT, implies, leT, ltT, neT, not, or,
} from '../core/presburger/formula.ts';
import { add, constant, floorT, maxT, minT, modT, scale, selectT, variable } from '../core/presburger/term.ts';

export type RawT =
  | { k: 'var'; n: string }
  | { k: 'c'; v: bigint }
  | { k: 'lin'; a: bigint; x: RawT; b: bigint; y: RawT; c: bigint }
  | { k: 'floor' | 'mod'; x: RawT; d: bigint }
  | { k: 'min' | 'max'; x: RawT; y: RawT }
  | { k: 'sel'; f: RawF; x: RawT; y: RawT };

export type RawF =
  | { k: 'cmp'; op: '<=' | '<' | '=' | '!=' | '>=' | '>'; x: RawT; y: RawT }
  | { k: 'cong'; x: RawT; r: bigint; m: bigint }
  | { k: 'and' | 'or'; a: RawF; b: RawF }
  | { k: 'not'; a: RawF }
  | { k: 'ex' | 'all'; v: string; lo: RawT; hi: RawT; body: RawF }
  | { k: 'bool'; v: boolean };

function fdiv(a: bigint, d: bigint): bigint {
  const q = a / d;
  return a % d !== 0n && a < 0n ? q - 1n : q;
}

export type REnv = Map<string, bigint>;

export function evalRawT(t: RawT, e: REnv): bigint {
  switch (t.k) {
    case 'var': { const v = e.get(t.n); if (v === undefined) throw new Error(`unbound ${t.n}`); return v; }
    case 'c': return t.v;
    case 'lin': return t.a * evalRawT(t.x, e) + t.b * evalRawT(t.y, e) + t.c;
    case 'floor': return fdiv(evalRawT(t.x, e), t.d);
    case 'mod': { const x = evalRawT(t.x, e); return x - t.d * fdiv(x, t.d); }
    case 'min': { const a = evalRawT(t.x, e), b = evalRawT(t.y, e); return a < b ? a : b; }
    case 'max': { const a = evalRawT(t.x, e), b = evalRawT(t.y, e); return a > b ? a : b; }
    case 'sel': return evalRawF(t.f, e) ? evalRawT(t.x, e) : evalRawT(t.y, e);
  }
}

export function evalRawF(f: RawF, e: REnv): boolean {
  switch (f.k) {
    case 'bool': return f.v;
    case 'cmp': {
      const a = evalRawT(f.x, e), b = evalRawT(f.y, e);
      switch (f.op) {
        case '<=': return a <= b; case '<': return a < b; case '=': return a === b;
        case '!=': return a !== b; case '>=': return a >= b; case '>': return a > b;
      }
    }
    case 'cong': { const x = evalRawT(f.x, e) - f.r; return x - f.m * fdiv(x, f.m) === 0n; }
    case 'and': return evalRawF(f.a, e) && evalRawF(f.b, e);
    case 'or': return evalRawF(f.a, e) || evalRawF(f.b, e);
    case 'not': return !evalRawF(f.a, e);
    case 'ex': case 'all': {
      const lo = evalRawT(f.lo, e), hi = evalRawT(f.hi, e);
      const inner = new Map(e);
      for (let v = lo; v <= hi; v++) {
        inner.set(f.v, v);
        const b = evalRawF(f.body, inner);
        if (f.k === 'ex' && b) return true;
        if (f.k === 'all' && !b) return false;
      }
      return f.k === 'all';
    }
  }
}

export function toTerm(t: RawT): Term {
  switch (t.k) {
    case 'var': return variable(t.n);
    case 'c': return constant(t.v);
    case 'lin': return add(scale(toTerm(t.x), t.a), scale(toTerm(t.y), t.b), constant(t.c));
    case 'floor': return floorT(toTerm(t.x), t.d);
    case 'mod': return modT(toTerm(t.x), t.d);
    case 'min': return minT(toTerm(t.x), toTerm(t.y));
    case 'max': return maxT(toTerm(t.x), toTerm(t.y));
    case 'sel': return selectT(toFormula(t.f), toTerm(t.x), toTerm(t.y));
  }
}

export function toFormula(f: RawF): Formula {
  switch (f.k) {
    case 'bool': return f.v ? TRUE : FALSE;
    case 'cmp': {
      const a = toTerm(f.x), b = toTerm(f.y);
      switch (f.op) {
        case '<=': return leT(a, b); case '<': return ltT(a, b); case '=': return eqT(a, b);
        case '!=': return neT(a, b); case '>=': return geT(a, b); case '>': return gtT(a, b);
      }
    }
    case 'cong': return cong(add(toTerm(f.x), constant(-f.r)), f.m);
    case 'and': return and(toFormula(f.a), toFormula(f.b));
    case 'or': return or(toFormula(f.a), toFormula(f.b));
    case 'not': return not(toFormula(f.a));
    case 'ex': case 'all': {
      const v = variable(f.v);
      const range = and(leT(toTerm(f.lo), v), leT(v, toTerm(f.hi)));
      return f.k === 'ex' ? exists([f.v], and(range, toFormula(f.body))) : forall([f.v], implies(range, toFormula(f.body)));
    }
  }
}

const small = fc.bigInt(-5n, 5n);
const coef = fc.constantFrom(-3n, -2n, -1n, 1n, 2n, 3n);
const divisor = fc.constantFrom(2n, 3n, 4n);

/** Terms over `vars` (depth-bounded). */
export function arbTerm(vars: readonly string[], depth = 2): fc.Arbitrary<RawT> {
  const leaf: fc.Arbitrary<RawT> = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...vars).map((n): RawT => ({ k: 'var', n })) },
    { weight: 1, arbitrary: small.map((v): RawT => ({ k: 'c', v })) },
  );
  if (depth <= 0) return leaf;
  const sub = arbTerm(vars, depth - 1);
  return fc.oneof(
    { weight: 3, arbitrary: leaf },
    { weight: 3, arbitrary: fc.record({ a: coef, x: sub, b: coef, y: sub, c: small }).map((r): RawT => ({ k: 'lin', ...r })) },
    { weight: 1, arbitrary: fc.record({ x: sub, d: divisor }).map((r): RawT => ({ k: 'floor', ...r })) },
    { weight: 1, arbitrary: fc.record({ x: sub, d: divisor }).map((r): RawT => ({ k: 'mod', ...r })) },
    { weight: 1, arbitrary: fc.record({ k: fc.constantFrom('min' as const, 'max' as const), x: sub, y: sub }) },
  );
}

const ops = fc.constantFrom('<=' as const, '<' as const, '=' as const, '!=' as const, '>=' as const, '>' as const);

/** Formulas over `vars`; quantifiers bind q0, q1, … with explicit bounds inside ±(6 + 3). */
export function arbFormula(vars: readonly string[], depth = 2, quant = true, level = 0): fc.Arbitrary<RawF> {
  const t = arbTerm(vars, 1);
  const lit: fc.Arbitrary<RawF> = fc.oneof(
    { weight: 4, arbitrary: fc.record({ op: ops, x: t, y: t }).map((r): RawF => ({ k: 'cmp', ...r })) },
    { weight: 1, arbitrary: fc.record({ x: t, r: fc.bigInt(0n, 3n), m: fc.constantFrom(2n, 3n, 4n) }).map((r): RawF => ({ k: 'cong', ...r })) },
  );
  if (depth <= 0) return lit;
  const sub = arbFormula(vars, depth - 1, quant, level);
  const choices: { weight: number; arbitrary: fc.Arbitrary<RawF> }[] = [
    { weight: 3, arbitrary: lit },
    { weight: 2, arbitrary: fc.record({ k: fc.constantFrom('and' as const, 'or' as const), a: sub, b: sub }) },
    { weight: 1, arbitrary: sub.map((a): RawF => ({ k: 'not', a })) },
  ];
  if (quant && level < 2) {
    const v = `q${level}`;
    const inner = arbFormula([...vars, v], depth - 1, quant, level + 1);
    const bound = fc.oneof(
      fc.bigInt(-6n, 6n).map((c): RawT => ({ k: 'c', v: c })),
      fc.record({ n: fc.constantFrom(...vars), c: fc.bigInt(-3n, 3n) }).map(({ n, c }): RawT => ({ k: 'lin', a: 1n, x: { k: 'var', n }, b: 0n, y: { k: 'c', v: 0n }, c })),
    );
    choices.push({ weight: 2, arbitrary: fc.record({ k: fc.constantFrom('ex' as const, 'all' as const), v: fc.constant(v), lo: bound, hi: bound, body: inner }) });
  }
  return fc.oneof(...choices);
}

/** All environments of `vars` over [lo, hi]. */
export function grid(vars: readonly string[], lo: bigint, hi: bigint): REnv[] {
  let envs: REnv[] = [new Map()];
  for (const v of vars) {
    const next: REnv[] = [];
    for (const e of envs) for (let x = lo; x <= hi; x++) next.push(new Map(e).set(v, x));
    envs = next;
  }
  return envs;
}

// ---------------------------------------------------------------- random sets and relations


/** Tuple coordinates range over [−B, B] in generated objects (and in the oracle's box). */
export const B = 3n;

export interface RawSpace { readonly name: string; readonly arity: number }
export interface RawSetPiece { readonly space: RawSpace; readonly guard: RawF }
export interface RawRelPiece { readonly dom: RawSpace; readonly ran: RawSpace; readonly guard: RawF }

/** Tuple variables of a raw piece are u0, u1, … (domain first), the parameters `params`. */
export function uvars(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `u${i}`);
}

function boxed(vars: readonly string[], g: RawF): RawF {
  let f = g;
  for (const v of vars) {
    f = { k: 'and', a: { k: 'and', a: { k: 'cmp', op: '>=', x: { k: 'var', n: v }, y: { k: 'c', v: -B } }, b: { k: 'cmp', op: '<=', x: { k: 'var', n: v }, y: { k: 'c', v: B } } }, b: f };
  }
  return f;
}

export function arbSetPieces(spaces: readonly RawSpace[], params: readonly string[], maxPieces = 3): fc.Arbitrary<RawSetPiece[]> {
  const piece = fc.constantFrom(...spaces).chain((space) =>
    arbFormula([...uvars(space.arity), ...params], 2, false).map((g): RawSetPiece => ({ space, guard: boxed(uvars(space.arity), g) })));
  return fc.array(piece, { minLength: 0, maxLength: maxPieces });
}

export function arbRelPieces(doms: readonly RawSpace[], rans: readonly RawSpace[], params: readonly string[], maxPieces = 3): fc.Arbitrary<RawRelPiece[]> {
  const piece = fc.record({ dom: fc.constantFrom(...doms), ran: fc.constantFrom(...rans) }).chain(({ dom, ran }) => {
    const vs = uvars(dom.arity + ran.arity);
    return arbFormula([...vs, ...params], 2, false).map((g): RawRelPiece => ({ dom, ran, guard: boxed(vs, g) }));
  });
  return fc.array(piece, { minLength: 0, maxLength: maxPieces });
}

function tupleOfVars(name: string, vars: readonly string[]): Tuple {
  return { kind: 'flat', name, vars };
}

export function symSet(ps: readonly RawSetPiece[]): PSet {
  return setOf(ps.map((p) => {
    const u = uvars(p.space.arity);
    const f = u.map((v) => fresh(v));
    return { tuple: tupleOfVars(p.space.name, f), guard: renameFormula(toFormula(p.guard), new Map(u.map((v, i) => [v, f[i]!]))) };
  }));
}

export function symRel(ps: readonly RawRelPiece[]): PRel {
  return relOf(ps.map((p) => {
    const u = uvars(p.dom.arity + p.ran.arity);
    const f = u.map((v) => fresh(v));
    return {
      dom: tupleOfVars(p.dom.name, f.slice(0, p.dom.arity)),
      ran: tupleOfVars(p.ran.name, f.slice(p.dom.arity)),
      guard: renameFormula(toFormula(p.guard), new Map(u.map((v, i) => [v, f[i]!]))),
    };
  }));
}

/** All integer tuples of length n in the box. */
export function boxTuples(n: number): bigint[][] {
  let acc: bigint[][] = [[]];
  for (let i = 0; i < n; i++) {
    const next: bigint[][] = [];
    for (const t of acc) for (let x = -B; x <= B; x++) next.push([...t, x]);
    acc = next;
  }
  return acc;
}

export function text(name: string, vals: readonly bigint[]): string {
  return `${name}[${vals.join(',')}]`;
}

/** Concrete value of one raw set piece: tuple texts. */
export function rawSetPiece(p: RawSetPiece, env: REnv): Set<string> {
  const out = new Set<string>();
  const u = uvars(p.space.arity);
  for (const t of boxTuples(p.space.arity)) {
    const e = new Map(env);
    u.forEach((v, i) => e.set(v, t[i]!));
    if (evalRawF(p.guard, e)) out.add(text(p.space.name, t));
  }
  return out;
}

export function rawSet(ps: readonly RawSetPiece[], env: REnv): Set<string> {
  const out = new Set<string>();
  for (const p of ps) for (const x of rawSetPiece(p, env)) out.add(x);
  return out;
}

/** Concrete value of one raw relation piece: `dom->ran` texts. */
export function rawRelPiece(p: RawRelPiece, env: REnv): Set<string> {
  const out = new Set<string>();
  const u = uvars(p.dom.arity + p.ran.arity);
  for (const t of boxTuples(u.length)) {
    const e = new Map(env);
    u.forEach((v, i) => e.set(v, t[i]!));
    if (evalRawF(p.guard, e)) out.add(`${text(p.dom.name, t.slice(0, p.dom.arity))}->${text(p.ran.name, t.slice(p.dom.arity))}`);
  }
  return out;
}

export function rawRel(ps: readonly RawRelPiece[], env: REnv): Set<string> {
  const out = new Set<string>();
  for (const p of ps) for (const x of rawRelPiece(p, env)) out.add(x);
  return out;
}

export function sorted(s: Iterable<string>): string[] {
  return [...s].sort();
}
