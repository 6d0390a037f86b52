// The fallback for quantifiers the exact method leaves: Z3's `qe` tactic through the one solver
// queue. Its output is parsed back, and used only after a second Z3 call has proved it equivalent
// to the original (so a parsing slip can never make a result unsound); each use is logged.

import type { Formula } from './types.ts';
import { runZ3 } from '../../smt/z3.ts';
import { parseSExprs, type SExpr } from '../../smt/sexpr.ts';
import { andAll, exists, forall, orAll } from './formula.ts';
import { purifyQuantifiers } from './purify.ts';
import { eliminate } from './qe.ts';
import { simplify } from './simplify.ts';
import { formulaVars, hasQuantifier } from './vars.ts';
import { declarations, formulaToSmt, smtSymbol, smtToFormula, SmtConversionError } from './smtlib.ts';
import { equivalenceScript } from './certificate.ts';
import { logElimination } from './elimlog.ts';

export interface Z3QeOptions {
  readonly timeoutMs?: number;
  /** Send every quantifier to Z3, even those the exact method eliminates (cross-checks, tests). */
  readonly skipExact?: boolean;
}

const cache = new Map<string, Formula | null>();

export function clearZ3QeCache(): void {
  cache.clear();
}

/** Parse `(goals (goal f… :precision … :depth …) …)` into a formula (goals disjoined). */
function goalsToFormula(out: string, names: ReadonlyMap<string, string>): Formula | null {
  let exprs: SExpr[];
  try {
    exprs = parseSExprs(out);
  } catch {
    return null;
  }
  const goals = exprs.find((e) => Array.isArray(e) && e[0] === 'goals');
  if (!Array.isArray(goals)) return null;
  const disj: Formula[] = [];
  for (const g of goals.slice(1)) {
    if (!Array.isArray(g) || g[0] !== 'goal') return null;
    const conj: Formula[] = [];
    for (let i = 1; i < g.length; i++) {
      const x = g[i]!;
      if (typeof x === 'string' && x.startsWith(':')) { i++; continue; }
      try {
        conj.push(smtToFormula(x, names));
      } catch (e) {
        if (e instanceof SmtConversionError) return null;
        throw e;
      }
    }
    disj.push(andAll(conj));
  }
  return orAll(disj);
}

/** One quantifier node (quantifier-free body) through Z3's qe, checked; null if not usable. */
async function qeNode(q: Formula, opts: Z3QeOptions): Promise<Formula | null> {
  // (The cache also holds failures, as null.)
  const ck = `${opts.timeoutMs ?? ''}|${q.key}`;
  const hit = cache.get(ck);
  if (hit !== undefined) return hit;
  const names = new Map<string, string>();
  for (const v of formulaVars(q)) names.set(smtSymbol(v), v);
  const script = `${declarations([q])}\n(assert ${formulaToSmt(purifyQuantifiers(q))})\n(apply (then simplify qe simplify))\n`;
  const ans = await runZ3(script, { timeoutMs: opts.timeoutMs });
  let r = goalsToFormula(ans.output, names);
  if (r !== null) {
    r = simplify(r);
    if (hasQuantifier(r)) r = null;
  }
  if (r !== null) {
    const check = await runZ3(equivalenceScript(q, r), { timeoutMs: opts.timeoutMs });
    if (check.status !== 'unsat') r = null;
  }
  if (r !== null) logElimination({ original: q, result: r, method: 'z3-qe' });
  cache.set(ck, r);
  return r;
}

/**
 * Eliminate the quantifiers left by the exact method with Z3's qe, innermost first. Quantifiers
 * that Z3 cannot eliminate (or whose result cannot be confirmed) are kept: the result is always
 * equivalent to the input.
 */
export async function eliminateWithZ3(f: Formula, opts: Z3QeOptions = {}): Promise<Formula> {
  const g = opts.skipExact ? f : eliminate(f);
  if (!hasQuantifier(g)) return g;
  switch (g.kind) {
    case 'and': return simplify(andAll(await Promise.all(g.args.map((a) => eliminateWithZ3(a, opts)))));
    case 'or': return simplify(orAll(await Promise.all(g.args.map((a) => eliminateWithZ3(a, opts)))));
    case 'exists': case 'forall': {
      const body = await eliminateWithZ3(g.body, opts);
      const node = g.kind === 'exists' ? exists(g.vars, body) : forall(g.vars, body);
      if (hasQuantifier(body)) return node;
      if (!opts.skipExact) {
        const exact = eliminate(node);
        if (!hasQuantifier(exact)) return exact;
      }
      return (await qeNode(node, opts)) ?? node;
    }
    default: return g;
  }
}
