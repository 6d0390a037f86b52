// Instantiation hints for certificates that deny an existential: `R ∧ ¬∃v. ψ` (expected unsat)
// is refuted only through the right instance of `∀v. ¬ψ`, which z3 4.8's E-matching and MBQI do
// not always find in time. `¬ψ[v := w]` for any terms w over the free variables is implied by
// `¬∃v. ψ`, so adding such instances changes neither what a certificate claims nor its answer;
// a useless witness only fails to help. The witnesses are the ones the exact elimination
// (qe.ts) builds its solutions from: for each variable, in an order where its candidate mentions
// no variable still bound, the greatest lower bound ⌈L/a⌉ (max over the bounds), the least upper
// bound ⌊U/b⌋ (min), the least (greatest) value in a congruence class above (below) them, the
// solution of an equality, and ⌊t/k⌋ for a quotient named by purify.ts (0 ≤ t − k·q ≤ k − 1).
// Disjunctions (and min, max, select of a bound variable) are split into cases, each giving its
// witnesses.

import type { Atom, Formula, Literal, Term } from './types.ts';
import { andAll, cong, ge, isLiteral, not } from './formula.ts';
import { addConst, atomTerm, coeff, constant, floorT, maxT, minT, neg, sub, without } from './term.ts';
import { replaceAtom, substFormula, substTerm } from './subst.ts';
import { hasQuantifier, termVars } from './vars.ts';
import { analyze, greatestBelow, leastAbove, toDnf } from './qe.ts';

/** At most this many instances per quantifier block. */
export const MAX_INSTANCES = 16;
/** Cases (disjuncts after splitting min, max and select) examined per block. */
const MAX_CASES = 32;

/**
 * Witness substitutions for `∃vars. body` (body quantifier-free; otherwise none), distinct,
 * at most `limit`, in a deterministic order. Each maps every variable of `vars` to a term over
 * the other variables of `body`.
 */
export function witnesses(vars: readonly string[], body: Formula, limit = MAX_INSTANCES): Map<string, Term>[] {
  if (hasQuantifier(body) || vars.length === 0) return [];
  const bound = new Set(vars);
  const out: Map<string, Term>[] = [];
  const seen = new Set<string>();
  for (const lits of cases(body, bound)) {
    for (const prefer of ['low', 'high'] as const) {
      const w = solveCase(vars, lits, bound, prefer);
      if (!w) continue;
      const key = vars.map((v) => w.get(v)!.key).join('|');
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(w);
      if (out.length >= limit) return out;
    }
  }
  return out;
}

/** The instances `¬body[w]` of `∀vars. ¬body`, one per witness. */
export function deniedInstances(vars: readonly string[], body: Formula, limit = MAX_INSTANCES): Formula[] {
  const out: Formula[] = [];
  const seen = new Set<string>();
  for (const w of witnesses(vars, body, limit)) {
    const inst = not(substFormula(body, w));
    if (inst.kind === 'true' || seen.has(inst.key)) continue;
    seen.add(inst.key);
    out.push(inst);
  }
  return out;
}

/** The disjuncts of `body` as literal lists in which bound variables occur linearly only. */
function cases(body: Formula, bound: ReadonlySet<string>): Literal[][] {
  const dnf = toDnf(body, MAX_CASES) ?? [topLiterals(body)];
  const out: Literal[][] = [];
  const work = [...dnf];
  // Each split removes an atom; the step bound only keeps deep nests of min and max cheap.
  for (let steps = 0; work.length > 0 && out.length < MAX_CASES && steps < 8 * MAX_CASES; steps++) {
    const lits = work.shift()!;
    const a = boundAtom(lits, bound);
    if (!a) { out.push(lits); continue; }
    // Split as qe.ts does: each argument of a min (max) being the least (greatest), or both
    // branches of a select. Literal lists only: split conditions that are not literals are dropped
    // (a weaker case still gives candidates).
    const split: Formula[] = [];
    switch (a.kind) {
      case 'min': case 'max':
        a.args.forEach((x, i) => {
          const conds = a.args.filter((_, j) => j !== i).map((y) => (a.kind === 'min' ? ge(sub(y, x)) : ge(sub(x, y))));
          split.push(andAll([...conds, ...lits.map((l) => replaceAtom(l, a.key, x))]));
        });
        break;
      case 'select':
        split.push(andAll([a.cond, ...lits.map((l) => replaceAtom(l, a.key, a.then))]));
        split.push(andAll([not(a.cond), ...lits.map((l) => replaceAtom(l, a.key, a.else))]));
        break;
      default: out.push(lits); continue;
    }
    for (const s of split) work.push(...(toDnf(s, MAX_CASES) ?? [topLiterals(s)]));
  }
  return out;
}

function topLiterals(f: Formula): Literal[] {
  if (isLiteral(f)) return [f];
  return f.kind === 'and' ? f.args.filter(isLiteral) : [];
}

/** A min, max or select atom of some literal that mentions a bound variable. */
function boundAtom(lits: readonly Literal[], bound: ReadonlySet<string>): Atom | null {
  for (const l of lits) {
    for (const [a] of l.t.parts) {
      if ((a.kind === 'min' || a.kind === 'max' || a.kind === 'select') && [...termVars(atomTerm(a))].some((v) => bound.has(v))) return a;
    }
  }
  return null;
}

/** Whether `v` occurs in `l` only as a plain variable (not inside floor, min, max, select). */
function linearIn(v: string, l: Literal): boolean {
  return l.t.parts.every(([a]) => a.kind === 'var' || !termVars(atomTerm(a)).has(v));
}

/** One witness for one case, variables chosen so that each candidate mentions no variable still
 *  bound; `prefer` picks the lower or the upper end of the range. */
function solveCase(vars: readonly string[], lits0: readonly Literal[], bound: ReadonlySet<string>, prefer: 'low' | 'high'): Map<string, Term> | null {
  const sigma = new Map<string, Term>();
  const open = new Set(vars.filter((v) => lits0.some((l) => termVars(l.t).has(v))));
  for (const v of vars) if (!open.has(v)) sigma.set(v, constant(0n));
  let lits = [...lits0];
  const closed = (t: Term, v: string): boolean => [...termVars(t)].every((x) => x === v || !open.has(x));
  while (open.size > 0) {
    let best: { v: string; score: number; cand: Term } | null = null;
    for (const v of vars) {
      if (!open.has(v)) continue;
      const mine = lits.filter((l) => termVars(l.t).has(v) && linearIn(v, l));
      const usable = mine.filter((l) => closed(l.t, v));
      // k·q = a·v + t with q a quotient still open (purify.ts writes `(v − x) mod k = 0` so): as
      // ∃q it is a·v + t ≡ 0 (mod k), which moves v's candidate into its congruence class;
      // without it the bound alone is taken, and q's definition then falsifies the instance.
      for (const l of mine) {
        if (l.kind !== 'eq' || closed(l.t, v)) continue;
        const others = [...termVars(l.t)].filter((x) => x !== v && open.has(x));
        if (others.length !== 1) continue;
        const q = others[0]!;
        if (!q.startsWith('quot!') || !linearIn(q, l)) continue;
        const k = coeff(l.t, q);
        const c = cong(without(l.t, q), k < 0n ? -k : k);
        if (isLiteral(c)) usable.push(c);
      }
      const an = analyze(v, usable);
      let score: number;
      let cand: Term | null = null;
      const eq = an.eqs.find((e) => e.a === 1n) ?? an.eqs[0];
      const L = an.lowers.map((x) => neg(floorT(x.t, x.a))); // v ≥ ⌈−t/a⌉
      const U = an.uppers.map((x) => floorT(x.t, x.b)); // v ≤ ⌊t/b⌋
      // A quotient named by purify.ts is forced by its definition 0 ≤ t − k·q ≤ k − 1: ⌊t/k⌋,
      // taken once t mentions no open variable (any other value only falsifies the instance).
      const def = v.startsWith('quot!') ? quotientDef(v, mine) : null;
      if (def) {
        if (!closed(def.t, v)) continue;
        score = 0; cand = floorT(def.t, def.k);
      } else if (eq) { score = 0; cand = floorT(neg(eq.t), eq.a); }
      else {
        // Last: variables bounded only through other open ones, or occurring only inside atoms.
        score = mine.length > 0 && usable.length === mine.length ? 1 : usable.length > 0 ? 2 : 3;
        const up = prefer === 'high' ? U.length > 0 : L.length === 0 && U.length > 0;
        const c = an.cong;
        if (up) cand = c ? greatestBelow(minT(...U), c.r, c.m) : minT(...U);
        else if (L.length > 0) cand = c ? leastAbove(maxT(...L), c.r, c.m) : maxT(...L);
        else cand = c ? c.r : constant(0n);
      }
      if (!best || score < best.score) best = { v, score, cand };
    }
    if (!best) {
      // Only quotients whose definitions mention each other are left (not built by purify.ts).
      return null;
    }
    open.delete(best.v);
    sigma.set(best.v, best.cand);
    const s = new Map([[best.v, best.cand]]);
    const next: Literal[] = [];
    for (const l of lits) {
      const r = substFormula(l, s);
      if (r.kind === 'false') return null; // this case is empty under the witness so far
      if (isLiteral(r)) next.push(r);
      else if (r.kind === 'and') next.push(...r.args.filter(isLiteral));
    }
    lits = next;
  }
  // Candidates were computed after the earlier substitutions: they mention no bound variable.
  for (const [v, t] of sigma) if ([...termVars(t)].some((x) => bound.has(x))) sigma.set(v, substTerm(t, sigma));
  return sigma;
}

/** The definition t − k·q ≥ 0 ∧ −t + k·q + k − 1 ≥ 0 of a quotient q among `lits`, if there. */
function quotientDef(q: string, lits: readonly Literal[]): { t: Term; k: bigint } | null {
  for (const l of lits) {
    const k = -coeff(l.t, q);
    if (l.kind !== 'ge' || k < 2n) continue;
    const t = without(l.t, q);
    const other = addConst(neg(t), k - 1n).key;
    if (lits.some((m) => m.kind === 'ge' && coeff(m.t, q) === k && without(m.t, q).key === other)) return { t, k };
  }
  return null;
}
