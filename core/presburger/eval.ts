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

function* boxes(vars: readonly string[], lo: bigint, hi: bigint, env: Map<string, bigint>): Generator<void> {
  if (vars.length === 0) {
    yield;
    return;
  }
  const [v, ...rest] = vars;
  for (let x = lo; x <= hi; x++) {
    env.set(v!, x);
    yield* boxes(rest, lo, hi, env);
  }
}

export interface BoxOptions extends EvalOptions {
  /** Every tuple coordinate is enumerated in [lo, hi]. */
  readonly box: readonly [bigint, bigint];
}

/** [[S]]_E restricted to tuples whose coordinates lie in the box: sorted tuple texts. */
export function evalSet(s: PSet, env: Env, opts: BoxOptions): string[] {
  const out = new Set<string>();
  for (const p of s.pieces) {
    const e = new Map(env);
    for (const _ of boxes(tupleVars(p.tuple), opts.box[0], opts.box[1], e)) {
      if (evalFormula(p.guard, e, opts)) out.add(tupleText(p.tuple, e));
    }
  }
  return [...out].sort();
}

/** [[R]]_E restricted to the box: sorted `dom->ran` texts. */
export function evalRel(r: PRel, env: Env, opts: BoxOptions): string[] {
  const out = new Set<string>();
  for (const p of r.pieces) {
    const e = new Map(env);
    for (const _ of boxes([...tupleVars(p.dom), ...tupleVars(p.ran)], opts.box[0], opts.box[1], e)) {
      if (evalFormula(p.guard, e, opts)) out.add(`${tupleText(p.dom, e)}->${tupleText(p.ran, e)}`);
    }
  }
  return [...out].sort();
}
