// Decisions (thesis Defs. 3.3.2, 3.3.4, 3.5.2): each is one satisfiability
// question "Γ ∧ (a counter-example exists)", asked after exact elimination and simplification —
// often answered without Z3 at all — and otherwise as one `check-sat` through the solver queue.
// Universal quantifiers that remain are first handed to Z3's qe (checked), else to
// `(check-sat-using (then qe smt))`. A satisfiable query gives a counter-model (a second call with
// `get-value`). `unknown` stays unknown: it never counts as "holds". Answers are cached by script.

import type { Formula, PRel, PSet, RelPiece, SetPiece, Tuple } from './types.ts';
import { TRUE, and, andAll, eqT, not, orAll } from './formula.ts';
import { variable } from './term.ts';
import { eliminate } from './qe.ts';
import { simplify } from './simplify.ts';
import { formulaVars, hasQuantifier } from './vars.ts';
import { canonicalize } from './canon.ts';
import { declarations, formulaToSmt, smtSymbol } from './smtlib.ts';
import { eliminateWithZ3 } from './z3qe.ts';
import { purifyQuantifiers } from './purify.ts';
import { logElimination } from './elimlog.ts';
import { runZ3, type SolverAnswer } from '../../smt/z3.ts';
import { parseSExprs } from '../../smt/sexpr.ts';
import { alignment, renameTuple, sameSpace, tupleVars } from './tuple.ts';
import { fresh } from './names.ts';
import { renameFormula } from './subst.ts';
import { evalFormula, tupleText } from './eval.ts';

export type Model = ReadonlyMap<string, bigint>;

export type Decision =
  | { readonly status: 'holds' }
  /** `model`: values of the parameters (and of the witness tuple variables); `witness`: the
   *  offending tuple(s) as text, e.g. `a[3] -> A[5]`, when one was identified. */
  | { readonly status: 'fails'; readonly model: Model; readonly witness?: string }
  | { readonly status: 'unknown'; readonly reason: string };

export interface DecideOptions {
  /** Γ: assumptions on the parameters (loop bounds, `assume`s). */
  readonly context?: Formula;
  readonly timeoutMs?: number;
}

type Sat = { readonly status: 'sat'; readonly model: Model } | { readonly status: 'unsat' } | { readonly status: 'unknown'; readonly reason: string };

const answers = new Map<string, SolverAnswer>();
let queries = 0;
let solverCalls = 0;

/** Counters: decisions asked, and how many needed a solver call (others were decided syntactically or cached). */
export function decisionStats(): { queries: number; solverCalls: number } {
  return { queries, solverCalls };
}

/** Forget cached solver answers (benchmarks measure cold decisions). */
export function clearDecisionCache(): void {
  answers.clear();
}

/**
 * A query's answer, remembered by its script and budget when it is decided: what asking again
 * would answer (a fresh solver context each time), so that a remembered answer never makes a
 * decision differ from the one a fresh process makes.
 */
async function ask(script: string, timeoutMs?: number): Promise<SolverAnswer> {
  const key = `${timeoutMs ?? ''}\n${script}`;
  const hit = answers.get(key);
  if (hit) return hit;
  solverCalls++;
  const a = await runZ3(script, { timeoutMs });
  if (a.status !== 'unknown') {
    if (answers.size >= 50_000) answers.clear();
    answers.set(key, a);
  }
  return a;
}

function hasForall(f: Formula): boolean {
  if (!hasQuantifier(f)) return false;
  switch (f.kind) {
    case 'forall': return true;
    case 'exists': return hasForall(f.body);
    case 'and': case 'or': return f.args.some(hasForall);
    default: return true; // quantifiers inside select conditions: let qe handle them
  }
}

function parseModel(out: string, names: ReadonlyMap<string, string>): Map<string, bigint> {
  const m = new Map<string, bigint>();
  const value = (e: unknown): bigint | null => {
    if (typeof e === 'string' && /^[0-9]+$/.test(e)) return BigInt(e);
    if (Array.isArray(e) && e[0] === '-' && e.length === 2) { const v = value(e[1]); return v === null ? null : -v; }
    return null;
  };
  for (const top of parseSExprs(out)) {
    if (!Array.isArray(top)) continue;
    for (const pairE of top) {
      if (!Array.isArray(pairE) || pairE.length !== 2 || typeof pairE[0] !== 'string') continue;
      const v = value(pairE[1]);
      const name = names.get(pairE[0]);
      if (v !== null && name !== undefined) m.set(name, v);
    }
  }
  return m;
}

/** Is φ ∧ Γ satisfiable (over all free variables)? */
export async function satisfiable(phi: Formula, opts: DecideOptions = {}): Promise<Sat> {
  queries++;
  const full = and(opts.context ?? TRUE, phi);
  const e = eliminate(full);
  let f = simplify(e);
  if (hasQuantifier(e) && f.key !== e.key) logElimination({ original: e, result: f, method: 'exact' });
  if (f.kind === 'false') return { status: 'unsat' };
  if (f.kind === 'true') return { status: 'sat', model: new Map([...formulaVars(full)].map((v) => [v, 0n])) };
  if (hasForall(f)) f = simplify(await eliminateWithZ3(f, { timeoutMs: opts.timeoutMs }));
  if (f.kind === 'false') return { status: 'unsat' };
  const { formula: cf, names } = canonicalize(hasQuantifier(f) ? purifyQuantifiers(f) : f);
  const back = new Map<string, string>();
  for (const v of formulaVars(f)) back.set(smtSymbol(names.get(v) ?? v), v);
  const check = hasForall(cf) ? '(check-sat-using (then simplify qe smt))' : '(check-sat)';
  const base = `${declarations([cf])}\n(assert ${formulaToSmt(cf)})\n${check}\n`;
  const a = await ask(base, opts.timeoutMs);
  if (a.status === 'unsat') return { status: 'unsat' };
  if (a.status === 'unknown') return { status: 'unknown', reason: a.reason ?? 'unknown' };
  const syms = [...back.keys()];
  let model = new Map<string, bigint>();
  if (syms.length > 0) {
    const b = await ask(`${base}(get-value (${syms.join(' ')}))\n`, opts.timeoutMs);
    if (b.status === 'sat') model = parseModel(b.output, back);
  }
  return { status: 'sat', model };
}

function params(m: Model): Map<string, bigint> {
  return new Map([...m]);
}

function witnessOf(tuples: readonly Tuple[], m: Model): string | undefined {
  const vs = tuples.flatMap(tupleVars);
  if (!vs.every((v) => m.has(v))) return undefined;
  return tuples.map((t) => tupleText(t, m)).join(' -> ');
}

/** The first piece whose guard holds in the model (for the witness text). */
function firstHolding<T>(items: readonly T[], guard: (x: T) => Formula, m: Model): T | undefined {
  return items.find((x) => {
    try {
      return evalFormula(guard(x), m);
    } catch {
      return false;
    }
  });
}

/** A property's refutation: it fails iff some case's `bad` formula is satisfiable (with Γ). */
export interface Refutation {
  readonly cases: readonly { readonly tuples: readonly Tuple[]; readonly bad: Formula }[];
}

/** The formula whose satisfiability refutes the property (free: parameters and tuple variables). */
export function refutationFormula(r: Refutation): Formula {
  return orAll(r.cases.map((c) => c.bad));
}

async function refute(ref: Refutation | Refutation['cases'], opts: DecideOptions): Promise<Decision> {
  const cases = 'cases' in ref ? ref.cases : ref;
  const r = await satisfiable(orAll(cases.map((c) => c.bad)), opts);
  if (r.status === 'unsat') return { status: 'holds' };
  if (r.status === 'unknown') return { status: 'unknown', reason: r.reason };
  const hit = firstHolding(cases, (c) => c.bad, r.model);
  const witness = hit ? witnessOf(hit.tuples, r.model) : undefined;
  return witness === undefined ? { status: 'fails', model: params(r.model) } : { status: 'fails', model: params(r.model), witness };
}

type Piece = SetPiece | RelPiece;

function tuplesOf(p: Piece): Tuple[] {
  return 'tuple' in p ? [p.tuple] : [p.dom, p.ran];
}

/** ∄(S) (Def. 3.3.2): empty for every parameter value satisfying Γ. Works on relations too. */
export async function isEmpty(s: PSet | PRel, opts: DecideOptions = {}): Promise<Decision> {
  return refute(emptinessRefutation(s), opts);
}

export function emptinessRefutation(s: PSet | PRel): Refutation {
  const pieces: readonly Piece[] = s.pieces;
  return { cases: pieces.map((p) => ({ tuples: tuplesOf(p), bad: p.guard })) };
}

function samePieceSpace(p: Piece, q: Piece): boolean {
  if ('tuple' in p) return 'tuple' in q && sameSpace(p.tuple, q.tuple);
  return 'dom' in q && sameSpace(p.dom, q.dom) && sameSpace(p.ran, q.ran);
}

function guardOn(q: Piece, onto: Piece): Formula {
  const from = tuplesOf(q);
  const to = tuplesOf(onto);
  const m = new Map<string, string>();
  from.forEach((t, i) => { for (const [a, b] of alignment(t, to[i]!)) m.set(a, b); });
  return renameFormula(q.guard, m);
}

/** A ⊆ B (sets, or relations as sets of pairs). */
export async function isSubset(a: PSet | PRel, b: PSet | PRel, opts: DecideOptions = {}): Promise<Decision> {
  return refute(inclusionRefutation(a, b), opts);
}

export function inclusionRefutation(a: PSet | PRel, b: PSet | PRel): Refutation {
  const as: readonly Piece[] = a.pieces;
  const bs: readonly Piece[] = b.pieces;
  return {
    cases: as.map((pa) => ({
      tuples: tuplesOf(pa),
      bad: and(pa.guard, not(orAll(bs.filter((pb) => samePieceSpace(pa, pb)).map((pb) => guardOn(pb, pa))))),
    })),
  };
}

/** A = B. */
export async function isEqual(a: PSet | PRel, b: PSet | PRel, opts: DecideOptions = {}): Promise<Decision> {
  const l = await isSubset(a, b, opts);
  if (l.status !== 'holds') return l;
  return isSubset(b, a, opts);
}

/** A ∩ B = ∅. */
export async function isDisjoint(a: PSet | PRel, b: PSet | PRel, opts: DecideOptions = {}): Promise<Decision> {
  return refute(disjointnessRefutation(a, b), opts);
}

export function disjointnessRefutation(a: PSet | PRel, b: PSet | PRel): Refutation {
  const as: readonly Piece[] = a.pieces;
  const bs: readonly Piece[] = b.pieces;
  const cases: { tuples: Tuple[]; bad: Formula }[] = [];
  for (const pa of as) for (const pb of bs) if (samePieceSpace(pa, pb)) cases.push({ tuples: tuplesOf(pa), bad: and(pa.guard, guardOn(pb, pa)) });
  return { cases };
}

/** Two elements at once: for pieces p, q (q after p or p itself), φp ∧ φq ∧ (they differ),
 *  q's tuple variables renamed apart except those `shared` maps onto p's. */
function pairCases<P extends Piece>(
  ps: readonly P[],
  shared: (p: P, q: P) => Map<string, string> | null,
  differ: (p: P, qTuples: readonly Tuple[]) => Formula,
): { tuples: Tuple[]; bad: Formula }[] {
  const cases: { tuples: Tuple[]; bad: Formula }[] = [];
  ps.forEach((p, i) => {
    for (const q of ps.slice(i)) {
      const m = shared(p, q);
      if (m === null) continue;
      for (const t of tuplesOf(q)) for (const v of tupleVars(t)) if (!m.has(v)) m.set(v, fresh(v));
      const qTuples = tuplesOf(q).map((t) => renameTuple(t, m));
      cases.push({ tuples: tuplesOf(p), bad: andAll([p.guard, renameFormula(q.guard, m), differ(p, qTuples)]) });
    }
  });
  return cases;
}

function tuplesDiffer(a: Tuple, b: Tuple): Formula {
  if (!sameSpace(a, b)) return TRUE;
  const av = tupleVars(a);
  const bv = tupleVars(b);
  return not(andAll(av.map((v, i) => eqT(variable(v), variable(bv[i]!)))));
}

/** sv(R) (Def. 3.5.2): at most one image per domain point. Different range spaces conflict. */
export async function isSingleValued(r: PRel, opts: DecideOptions = {}): Promise<Decision> {
  return refute(svRefutation(r), opts);
}

export function svRefutation(r: PRel): Refutation {
  return {
    cases: pairCases(
      r.pieces,
      (p, q) => (sameSpace(p.dom, q.dom) ? alignment(q.dom, p.dom) : null),
      (p, [, qRan]) => tuplesDiffer(p.ran, qRan!),
    ),
  };
}

/** singleton(S) (Def. 3.3.4): at most one element (the empty set is a singleton). */
export async function isSingleton(s: PSet, opts: DecideOptions = {}): Promise<Decision> {
  return refute(singletonRefutation(s), opts);
}

export function singletonRefutation(s: PSet): Refutation {
  return { cases: pairCases(s.pieces, () => new Map(), (p, [qt]) => tuplesDiffer(p.tuple, qt!)) };
}

/** Γ ⊢ φ: φ holds for every parameter value satisfying Γ. */
export async function isValid(phi: Formula, opts: DecideOptions = {}): Promise<Decision> {
  const r = await satisfiable(not(phi), opts);
  if (r.status === 'unsat') return { status: 'holds' };
  if (r.status === 'unknown') return { status: 'unknown', reason: r.reason };
  return { status: 'fails', model: r.model };
}

