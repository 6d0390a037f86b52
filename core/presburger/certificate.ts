// SMT-LIB text for the trust base: each recorded elimination becomes standalone scripts whose
// `(check-sat)` must answer `unsat` (the original quantified formula and its replacement differ
// nowhere).

import type { Formula } from './types.ts';
import type { ElimEntry } from './elimlog.ts';
import { declarations, formulaToSmt } from './smtlib.ts';
import { printFormula } from './print.ts';
import { purifyQuantifiers } from './purify.ts';

function script(comment: string, decls: string, assertion: string): string {
  const head = comment ? `${comment.split('\n').map((l) => `; ${l}`).join('\n')}\n` : '';
  return `${head}${decls}${decls ? '\n' : ''}(assert ${assertion})\n(check-sat)\n`;
}

/** `(assert (not (= original result)))`, expected `unsat`. */
export function equivalenceScript(original: Formula, result: Formula, comment = ''): string {
  return script(comment, declarations([original, result]), `(not (= ${formulaToSmt(original)} ${formulaToSmt(result)}))`);
}

/**
 * The certificates of one logged elimination: `original ∧ ¬result` and `¬original ∧ result`, each
 * expected `unsat`. Two directions, not one `(not (= …))`: under `=` a quantifier occurs with both
 * polarities, which keeps cvc5 from skolemising it (it times out on equivalences it proves in
 * milliseconds one direction at a time). Under each quantifier, div and mod are named
 * (purify.ts), which z3 4.8 needs.
 */
export function eliminationCertificates(e: ElimEntry): readonly [string, string] {
  const o = purifyQuantifiers(e.original);
  const r = purifyQuantifiers(e.result);
  const decls = declarations([o, r]);
  const comment = (dir: string): string => [
    `quantifier elimination (${e.method}), ${dir}; expected: unsat`,
    `original: ${printFormula(e.original)}`,
    `result:   ${printFormula(e.result)}`,
    'under each quantifier, quot!n names a quotient: q = t div k written 0 <= t - k*q <= k - 1',
  ].join('\n');
  // Printed as written, not through the smart constructors, which may simplify.
  const [os, rs] = [formulaToSmt(o), formulaToSmt(r)];
  return [
    script(comment('original implies result'), decls, `(and ${os} (not ${rs}))`),
    script(comment('result implies original'), decls, `(and (not ${os}) ${rs})`),
  ];
}
