// SMT-LIB text for the trust base: each recorded elimination becomes standalone scripts whose
// `(check-sat)` must answer `unsat` (the original quantified formula and its replacement differ
// nowhere).

import type { Formula } from './types.ts';
import { andAll, orAll } from './formula.ts';
import { renameFormula } from './subst.ts';
import { hasQuantifier } from './vars.ts';
import type { ElimEntry } from './elimlog.ts';
import { declarations, formulaToSmt } from './smtlib.ts';
import { printFormula } from './print.ts';
import { purifyFree, purifyQuantifiers } from './purify.ts';
import { deniedInstances } from './hints.ts';

function script(comment: string, decls: string, assertion: string, defs = '', hints = ''): string {
  const head = comment ? `${comment.split('\n').map((l) => `; ${l}`).join('\n')}\n` : '';
  // Definitions in their own assertion: cvc5 1.0.3 times out on the same conjunct inside the claim.
  return `${head}${decls}${decls ? '\n' : ''}${defs ? `(assert ${defs})\n` : ''}(assert ${assertion})\n${hints ? `(assert ${hints})\n` : ''}(check-sat)\n`;
}

/** `(assert (not (= original result)))`, expected `unsat`. */
export function equivalenceScript(original: Formula, result: Formula, comment = ''): string {
  return script(comment, declarations([original, result]), `(not (= ${formulaToSmt(original)} ${formulaToSmt(result)}))`);
}

/**
 * The certificates of one logged elimination: `original ∧ ¬result` and `¬original ∧ result`, each
 * expected `unsat`, each with its `(set-logic …)`. Two directions, not one `(not (= …))`: under `=` a quantifier occurs with both
 * polarities, which keeps cvc5 from skolemising it (it times out on equivalences it proves in
 * milliseconds one direction at a time). Under each quantifier, div and mod are named
 * (purify.ts), which z3 4.8 needs; outside them too, which cvc5 1.0 needs. In each direction the
 * existential quantifiers (∃ asserted, ∀ denied) are replaced by constants (`sk!n`): cvc5 1.0.3
 * times out on `∃l. φ` asserted beside a linear claim that it refutes at once with `l` a constant.
 */
export function eliminationCertificates(e: ElimEntry): readonly [string, string] {
  const [po, pr] = [purifyQuantifiers(e.original), purifyQuantifiers(e.result)];
  // Direction 2 denies the original; when it is `∃v. ψ`, instances ¬ψ[v := w] of the denial
  // (hints.ts) go beside the claim.
  const hints = po.kind === 'exists' ? deniedInstances(po.vars, po.body) : [];
  const one = purifyFree([po, pr]);
  // The instances are named apart (quot!hintN), their definitions inside their own assertion:
  // without that last assertion, `.2` is the claim exactly as it was before instances (cvc5
  // 1.0.3 answers partial_sums' elim010.2 in 0.3 s that way, and not in 50 s once the claim's
  // definitions are re-sorted among the instances').
  const named = purifyFree(hints, 'hint');
  const comment = (dir: string, defs: Formula, skolem: boolean, instances: number): string => [
    `quantifier elimination (${e.method}), ${dir}; expected: unsat`,
    `original: ${printFormula(e.original)}`,
    `result:   ${printFormula(e.result)}`,
    'under each quantifier, quot!n names a quotient: q = t div k written 0 <= t - k*q <= k - 1',
    ...(defs.kind === 'true' ? [] : ['outside them, quot!topN names one of free variables, its definition asserted beside the claim']),
    ...(skolem ? ['sk!n: a constant for an existential quantifier of the claim (asserted exists, denied forall)'] : []),
    ...(instances > 0 ? [`the last assertion: ${instances} instance${instances > 1 ? 's' : ''} (not psi[v := w]) of the denied (exists v. psi), implied by the claim (with the definitions of the quot!hintN they name); they only guide the solver to its witnesses`] : []),
  ].join('\n');
  const direction = (dir: string, defs: Formula, holds: Formula, denied: Formula, instances: readonly Formula[]): string => {
    let n = 0;
    const fresh = (): string => `sk!${++n}`;
    const [h, d] = [skolemize(holds, true, fresh), skolemize(denied, false, fresh)];
    // The narrowest logic: cvc5 1.0.3 times out under ALL on quantifier-free claims it refutes
    // at once under QF_LIA.
    const logic = hasQuantifier(h) || hasQuantifier(d) ? 'LIA' : 'QF_LIA';
    const ds = defs.kind === 'true' ? '' : formulaToSmt(defs);
    const hint = instances.length === 0 ? [] : [named.defs, ...instances];
    const hs = hint.length === 0 ? '' : formulaToSmt(andAll(hint));
    return `(set-logic ${logic})\n${script(comment(dir, defs, n > 0, instances.length), declarations([defs, h, d, ...hint]), `(and ${formulaToSmt(h)} (not ${formulaToSmt(d)}))`, ds, hs)}`;
  };
  const [o1, r1] = one.formulas;
  return [direction('original implies result', one.defs, o1!, r1!, []), direction('result implies original', one.defs, r1!, o1!, named.formulas)];
}

/**
 * `f` with the quantifiers that are existential where `f` stands (`positive`: asserted; else
 * denied) replaced by fresh constants, through `and` and `or`: satisfiable exactly when `f` is.
 * Bound names are unique, but the constants are fresh anyway (the two formulas of a certificate
 * may reuse `quot!1`).
 */
function skolemize(f: Formula, positive: boolean, fresh: () => string): Formula {
  switch (f.kind) {
    case 'and': return andAll(f.args.map((g) => skolemize(g, positive, fresh)));
    case 'or': return orAll(f.args.map((g) => skolemize(g, positive, fresh)));
    case 'exists': case 'forall':
      if ((f.kind === 'exists') !== positive) return f;
      return skolemize(renameFormula(f.body, new Map(f.vars.map((v) => [v, fresh()]))), positive, fresh);
    default: return f;
  }
}
