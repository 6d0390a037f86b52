// Concrete evaluation [[·]]_E: the test oracle. Quantifiers range over a finite window, so the
// evaluation of a quantified formula is exact only when its witnesses lie in that window (tests
// build objects whose variables are bounded, and pick the window to cover them).

import type { Formula, PRel, PSet, Term, Tuple } from './types.ts';
import { floorDiv, emod } from './bigint.ts';
import { tupleVars } from './tuple.ts';

export type Env = ReadonlyMap<string, bigint>;

export interface EvalOptions {
  /** Window [lo, hi] over which quantified variables are enumerated (default [-16, 16]). */
  readonly quantRange?: readonly [bigint, bigint];
}

export class UnboundVariable extends Error {}

export function evalTerm(t: Term, env: Env, opts: EvalOptions = {}): bigint {
  let s = t.c;
  for (const [a, k] of t.parts) {
    let v: bigint;
    switch (a.kind) {
      case 'var': {
        const x = env.get(a.name);
        if (x === undefined) throw new UnboundVariable(`unbound variable ${a.name}`);
        v = x;
        break;
      }
      case 'floor': v = floorDiv(evalTerm(a.arg, env, opts), a.div); break;
      case 'min': case 'max': {
        const vs = a.args.map((x) => evalTerm(x, env, opts));
        v = vs.reduce((p, q) => (a.kind === 'min' ? (q < p ? q : p) : (q > p ? q : p)));
        break;
      }
      case 'select': v = evalFormula(a.cond, env, opts) ? evalTerm(a.then, env, opts) : evalTerm(a.else, env, opts); break;
    }
    s += k * v;
  }
  return s;
}

export function evalFormula(f: Formula, env: Env, opts: EvalOptions = {}): boolean {
  switch (f.kind) {
    case 'true': return true;
    case 'false': return false;
    case 'ge': return evalTerm(f.t, env, opts) >= 0n;
    case 'eq': return evalTerm(f.t, env, opts) === 0n;
    case 'cong': return emod(evalTerm(f.t, env, opts), f.m) === 0n;
    case 'and': return f.args.every((g) => evalFormula(g, env, opts));
    case 'or': return f.args.some((g) => evalFormula(g, env, opts));
    case 'exists': case 'forall': {
      const [lo, hi] = opts.quantRange ?? [-16n, 16n];
      const want = f.kind === 'exists';
      const e = new Map(env);
      const go = (i: number): boolean => {
        if (i === f.vars.length) return evalFormula(f.body, e, opts) === want;
        for (let v = lo; v <= hi; v++) {
          e.set(f.vars[i]!, v);
          if (go(i + 1)) return true;
        }
        return false;
      };
      return go(0) === want;
    }
  }
}

/** Canonical text of an integer tuple, e.g. `a[1,-2]` or `[a[1]->b[]]`. */
export function tupleText(t: Tuple, env: Env): string {
  if (t.kind === 'flat') return `${t.name}[${t.vars.map((v) => String(env.get(v))).join(',')}]`;
  return `${t.name}[${tupleText(t.left, env)}->${tupleText(t.right, env)}]`;
}

export interface BoxOptions extends EvalOptions {
  /** Every tuple coordinate is enumerated in [lo, hi]. */
  readonly box: readonly [bigint, bigint];
}

// Enumeration compiles each guard once into a closure over an array of slots (much faster than
// interpreting the tree at every point of the box).

type Slots = Map<string, number>;
type TFn = (v: bigint[]) => bigint;
type FFn = (v: bigint[]) => boolean;

interface Compiler { slots: Slots; size: number; readonly opts: EvalOptions }

function compileTerm(t: Term, c: Compiler): TFn {
  const parts: [TFn, bigint][] = t.parts.map(([a, k]) => {
    switch (a.kind) {
      case 'var': {
        const i = c.slots.get(a.name);
        if (i === undefined) throw new UnboundVariable(`unbound variable ${a.name}`);
        return [(v: bigint[]) => v[i]!, k];
      }
      case 'floor': { const f = compileTerm(a.arg, c); const d = a.div; return [(v: bigint[]) => floorDiv(f(v), d), k]; }
      case 'min': case 'max': {
        const fs = a.args.map((x) => compileTerm(x, c));
        const isMin = a.kind === 'min';
        return [(v: bigint[]) => {
          let best = fs[0]!(v);
          for (let i = 1; i < fs.length; i++) { const x = fs[i]!(v); if (isMin ? x < best : x > best) best = x; }
          return best;
        }, k];
      }
      case 'select': {
        const cond = compileFormula(a.cond, c); const th = compileTerm(a.then, c); const el = compileTerm(a.else, c);
        return [(v: bigint[]) => (cond(v) ? th(v) : el(v)), k];
      }
    }
  });
  const c0 = t.c;
  if (parts.length === 1 && parts[0]![1] === 1n && c0 === 0n) return parts[0]![0];
  return (v) => {
    let s = c0;
    for (const [f, k] of parts) s += k * f(v);
    return s;
  };
}

function compileFormula(f: Formula, c: Compiler): FFn {
  switch (f.kind) {
    case 'true': return () => true;
    case 'false': return () => false;
    case 'ge': { const t = compileTerm(f.t, c); return (v) => t(v) >= 0n; }
    case 'eq': { const t = compileTerm(f.t, c); return (v) => t(v) === 0n; }
    case 'cong': { const t = compileTerm(f.t, c); const m = f.m; return (v) => emod(t(v), m) === 0n; }
    case 'and': { const fs = f.args.map((g) => compileFormula(g, c)); return (v) => fs.every((g) => g(v)); }
    case 'or': { const fs = f.args.map((g) => compileFormula(g, c)); return (v) => fs.some((g) => g(v)); }
    case 'exists': case 'forall': {
      const saved = c.slots;
      c.slots = new Map(saved);
      const idx = f.vars.map((x) => { const i = c.size++; c.slots.set(x, i); return i; });
      const body = compileFormula(f.body, c);
      c.slots = saved;
      const [lo, hi] = c.opts.quantRange ?? [-16n, 16n];
      const want = f.kind === 'exists';
      return (v) => {
        const go = (k: number): boolean => {
          if (k === idx.length) return body(v) === want;
          for (let x = lo; x <= hi; x++) {
            v[idx[k]!] = x;
            if (go(k + 1)) return true;
          }
          return false;
        };
        return go(0) === want;
      };
    }
  }
}

/** Enumerate the box for `vars`, calling `visit` where the compiled guard holds. */
function enumerate(guard: Formula, vars: readonly string[], env: Env, opts: BoxOptions, visit: (vals: bigint[]) => void): void {
  const c: Compiler = { slots: new Map(), size: 0, opts };
  const base: bigint[] = [];
  for (const [k, x] of env) { c.slots.set(k, c.size++); base.push(x); }
  const idx = vars.map((x) => { const i = c.size++; c.slots.set(x, i); return i; });
  const g = compileFormula(guard, c);
  const v = [...base, ...Array.from({ length: c.size - base.length }, () => 0n)];
  const [lo, hi] = opts.box;
  const go = (k: number): void => {
    if (k === idx.length) { if (g(v)) visit(v); return; }
    for (let x = lo; x <= hi; x++) { v[idx[k]!] = x; go(k + 1); }
  };
  go(0);
}

function textOf(t: Tuple, get: (v: string) => bigint): string {
  if (t.kind === 'flat') return `${t.name}[${t.vars.map((v) => String(get(v))).join(',')}]`;
  return `${t.name}[${textOf(t.left, get)}->${textOf(t.right, get)}]`;
}

/** [[S]]_E restricted to tuples whose coordinates lie in the box: sorted tuple texts. */
export function evalSet(s: PSet, env: Env, opts: BoxOptions): string[] {
  const out = new Set<string>();
  for (const p of s.pieces) {
    const vars = tupleVars(p.tuple);
    const at = new Map(vars.map((x, i) => [x, i]));
    const off = env.size;
    enumerate(p.guard, vars, env, opts, (v) => out.add(textOf(p.tuple, (x) => v[off + at.get(x)!]!)));
  }
  return [...out].sort();
}

/** [[R]]_E restricted to the box: sorted `dom->ran` texts. */
export function evalRel(r: PRel, env: Env, opts: BoxOptions): string[] {
  const out = new Set<string>();
  for (const p of r.pieces) {
    const vars = [...tupleVars(p.dom), ...tupleVars(p.ran)];
    const at = new Map(vars.map((x, i) => [x, i]));
    const off = env.size;
    const get = (v: bigint[]) => (x: string) => v[off + at.get(x)!]!;
    enumerate(p.guard, vars, env, opts, (v) => out.add(`${textOf(p.dom, get(v))}->${textOf(p.ran, get(v))}`));
  }
  return [...out].sort();
}
