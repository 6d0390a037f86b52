// Simplification of an implementation's index arithmetic under what holds where it is evaluated:
// the spec's and the implementation's assumptions, the loop bounds, the branch conditions and the
// `let` equalities in scope (core/presburger/gist.ts). A compiler's bounds arithmetic (Halide's
// `min(select(16 < W, min(W, 0), min(W, 16) - 16), …)` for what is 0 once its asserts hold)
// becomes the few terms it stands for, and the assumptions become bounds on the parameters.
//
// The result means the same as the input for every parameter value the assumptions allow, which
// is all a verdict speaks of: the assumptions are replaced by an equivalent form (given the
// spec's), and every other rewrite is an equality under the facts in scope, or an exact rewrite
// of the program's structure (a loop of one iteration is a `let`, a loop of none or a branch
// never taken is `skip`, a `let` nothing reads is dropped). Only index positions are touched:
// array and annotation indices, loop bounds, `let` values, `if` conditions and allocation sizes.
// Values (which have machine types) are left alone.

import type { Assign, Cmd, Expr, Impl, Spec } from './ast.ts';
import { NO_POS } from './ast.ts';
import { children, mapChildren } from './walk.ts';
import { formulaOf, formulaToExpr, termOf, termToExpr } from './affine.ts';
import type { Formula, Term } from '../presburger/types.ts';
import { andAll, conjuncts, eqT, geT, ltT, not } from '../presburger/formula.ts';
import { constant, variable } from '../presburger/term.ts';
import { definitions, gist, Known, simplifyFormula, simplifyTerm } from '../presburger/gist.ts';
import { formulaVars, termVars } from '../presburger/vars.ts';

export interface SimplifiedImpl {
  readonly impl: Impl;
  /** The implementation's assumptions after simplification (a conjunction), or null when they
   *  were left as written (not affine, or contradictory: the verifier reports that). */
  readonly assumptions: Formula | null;
}

/** Variables an expression reads (`let`s inside it excluded). */
function reads(e: Expr, out: Set<string>, bound: ReadonlySet<string> = new Set()): void {
  if (e.kind === 'var') {
    if (!bound.has(e.name)) out.add(e.name);
  } else if (e.kind === 'let') {
    reads(e.value, out, bound);
    reads(e.body, out, new Set([...bound, e.name]));
  } else for (const c of children(e)) reads(c, out, bound);
}

function cmdReads(c: Cmd, out: Set<string>): void {
  switch (c.kind) {
    case 'skip':
      return;
    case 'seq':
      for (const x of c.cmds) cmdReads(x, out);
      return;
    case 'assign':
      for (const i of c.indices) reads(i, out);
      if (c.annot) reads(c.annot, out);
      reads(c.rhs, out);
      if (c.accum) {
        for (const i of c.accum.at ?? []) reads(i, out);
        reads(c.accum.elem, out);
      }
      return;
    case 'if':
      reads(c.cond, out);
      cmdReads(c.then, out);
      if (c.else) cmdReads(c.else, out);
      return;
    case 'let':
    case 'allocate':
    case 'for':
    case 'par': {
      const inner = new Set<string>();
      cmdReads(c.body, inner);
      const binder = c.kind === 'let' ? c.name : c.kind === 'allocate' ? null : c.var;
      for (const v of inner) if (v !== binder) out.add(v);
      if (c.kind === 'let') reads(c.value, out);
      else if (c.kind === 'allocate') for (const d of c.dims) reads(d, out);
      else reads(c.bound, out);
      return;
    }
  }
}

/** What is known at a point of the program, and the `let`s inlined there (constants and
 *  aliases of another variable: `let x_min_realized = 0`). */
interface Scope {
  readonly k: Known;
  readonly inlined: ReadonlyMap<string, Term>;
}

class Simplifier {
  /** An index expression under `sc` (as written when it is not affine). */
  index(e: Expr, sc: Scope): Expr {
    const t = this.term(e, sc);
    return t === null ? e : termToExpr(simplifyTerm(t, sc.k));
  }

  term(e: Expr, sc: Scope): Term | null {
    try {
      return termOf(e, (n) => sc.inlined.get(n) ?? variable(n));
    } catch {
      return null;
    }
  }

  cond(e: Expr, sc: Scope): { expr: Expr; f: Formula | null } {
    let f: Formula;
    try {
      f = formulaOf(e, (n) => sc.inlined.get(n) ?? variable(n));
    } catch {
      return { expr: e, f: null };
    }
    const s = simplifyFormula(f, sc.k);
    return { expr: formulaToExpr(s), f: s };
  }

  /** A value expression: only the indices of its reads (and `let`s binding them) change. */
  value(e: Expr, sc: Scope): Expr {
    switch (e.kind) {
      case 'array':
      case 'tensor':
        return { ...e, indices: e.indices.map((i) => this.index(i, sc)) };
      case 'let': {
        const b = this.bind(sc, e.name, e.value);
        const body = this.value(e.body, b.scope);
        return b.inlined ? body : { ...e, value: b.value!, body };
      }
      case 'var': {
        // An inlined `let` read in an affine part of a value (a select's condition).
        const t = sc.inlined.get(e.name);
        return t === undefined ? e : { ...termToExpr(t), pos: e.pos };
      }
      default:
        return mapChildren(e, (x) => this.value(x, sc));
    }
  }

  /**
   * `sc` entering a binder of `name` (a loop variable when `value` is null): what was known of an
   * outer variable of that name, or of an inlined `let` that reads it, is forgotten. A `let`
   * whose simplified value is a constant or another variable is inlined (`inlined`); otherwise
   * its equality is known.
   */
  bind(sc: Scope, name: string, value: Expr | null): { scope: Scope; value: Expr | null; inlined: boolean } {
    const mentions = (f: Formula): boolean => formulaVars(f).has(name);
    const k = sc.k.facts.some(mentions) ? new Known(sc.k.facts.filter((f) => !mentions(f))) : sc.k;
    const inlined = new Map([...sc.inlined].filter(([n, t]) => n !== name && !termVars(t).has(name)));
    if (value === null) return { scope: { k, inlined }, value: null, inlined: false };
    const t0 = this.term(value, sc);
    if (t0 === null) return { scope: { k, inlined }, value, inlined: false };
    const t = simplifyTerm(t0, sc.k);
    // `let x = x + 1` (shadowing) says nothing expressible about the new x.
    if (termVars(t).has(name)) return { scope: { k, inlined }, value: termToExpr(t), inlined: false };
    const alias = t.parts.length === 0 || (t.parts.length === 1 && t.c === 0n && t.parts[0]![1] === 1n && t.parts[0]![0].kind === 'var');
    if (alias) return { scope: { k, inlined: new Map([...inlined, [name, t]]) }, value: null, inlined: true };
    return { scope: { k: k.with(eqT(variable(name), t)), inlined }, value: termToExpr(t), inlined: false };
  }

  cmd(c: Cmd, sc: Scope): Cmd {
    switch (c.kind) {
      case 'skip':
        return c;
      case 'seq': {
        const cmds = c.cmds.map((x) => this.cmd(x, sc)).filter((x) => x.kind !== 'skip');
        if (cmds.length === 0) return { kind: 'skip', pos: c.pos };
        if (cmds.length === 1) return cmds[0]!;
        return { ...c, cmds };
      }
      case 'assign':
        return this.assign(c, sc);
      case 'if': {
        const { expr, f } = this.cond(c.cond, sc);
        if (f?.kind === 'true') return this.cmd(c.then, sc);
        if (f?.kind === 'false') return c.else ? this.cmd(c.else, sc) : { kind: 'skip', pos: c.pos };
        const then = this.cmd(c.then, f ? { ...sc, k: sc.k.with(f) } : sc);
        const els = c.else ? this.cmd(c.else, f ? { ...sc, k: sc.k.with(not(f)) } : sc) : null;
        if (then.kind === 'skip' && (els === null || els.kind === 'skip')) return then;
        return { ...c, cond: expr, then, else: els === null || els.kind === 'skip' ? null : els };
      }
      case 'let': {
        const b = this.bind(sc, c.name, c.value);
        const body = this.cmd(c.body, b.scope);
        if (b.inlined) return body;
        const used = new Set<string>();
        cmdReads(body, used);
        return used.has(c.name) ? { ...c, value: b.value!, body } : body;
      }
      case 'allocate':
        return { ...c, dims: c.dims.map((d) => this.index(d, sc)), body: this.cmd(c.body, sc) };
      case 'for':
      case 'par': {
        const bound = this.index(c.bound, sc);
        const bt = this.term(bound, { k: sc.k, inlined: new Map() });
        if (bt !== null && bt.parts.length === 0 && bt.c <= 0n) return { kind: 'skip', pos: c.pos };
        if (bt !== null && bt.parts.length === 0 && bt.c === 1n) {
          // One iteration: the body with the variable bound to 0.
          return this.cmd(c.body, this.bind(sc, c.var, { kind: 'int', pos: NO_POS, value: 0n }).scope);
        }
        const b = this.bind(sc, c.var, null).scope;
        const inner = bt === null ? b : { ...b, k: b.k.with(geT(variable(c.var), constant(0n)), ltT(variable(c.var), bt)) };
        return { ...c, bound, body: this.cmd(c.body, inner) };
      }
    }
  }

  assign(c: Assign, sc: Scope): Assign {
    const indices = c.indices.map((i) => this.index(i, sc));
    const annot = c.annot === null ? null : this.value(c.annot, sc);
    const rhs = this.value(c.rhs, sc);
    if (!c.accum) return { ...c, indices, annot, rhs };
    const at = c.accum.at === null ? null : c.accum.at.map((i) => this.index(i, sc));
    return { ...c, indices, annot, rhs, accum: { ...c.accum, at, elem: this.value(c.accum.elem, sc) } };
  }
}

/**
 * `impl` with its assumptions simplified given the spec's (an equivalent form) and its index
 * arithmetic simplified under the facts in scope.
 */
export function simplifyImpl(impl: Impl, spec: Spec): SimplifiedImpl {
  let specFacts: Formula[];
  let assumed: Formula;
  try {
    specFacts = spec.assumes.map((a) => formulaOf(a));
    assumed = andAll(impl.assumes.map((a) => formulaOf(a)));
  } catch {
    return { impl, assumptions: null };
  }
  const g = gist(assumed, specFacts);
  if (g.kind === 'false') return { impl, assumptions: null };
  const facts = [...specFacts, ...conjuncts(g)];
  const s = new Simplifier();
  // Parameters the assumptions fix (`A_min_0 == 0`, `B_extent_0 == A_extent_1`) are replaced by
  // their value in index expressions, like an inlined `let`.
  const body = s.cmd(impl.body, { k: new Known(facts), inlined: definitions(g) });
  const assumes = conjuncts(g).map((f) => ({ ...formulaToExpr(f, { lessThan: false }), pos: impl.assumes[0]?.pos ?? impl.pos }));
  return { impl: { ...impl, assumes, body }, assumptions: g };
}
