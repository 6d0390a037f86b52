// SMT-LIB text for the trust base: each recorded elimination becomes a standalone script whose
// `(check-sat)` must answer `unsat` (the original quantified formula and its replacement differ
// nowhere).

import type { Formula } from './types.ts';
import type { ElimEntry } from './elimlog.ts';
import { declarations, formulaToSmt } from './smtlib.ts';
import { printFormula } from './print.ts';

/** `(assert (not (= original result)))`, expected `unsat`. */
export function equivalenceScript(original: Formula, result: Formula, comment = ''): string {
  const head = comment ? `${comment.split('\n').map((l) => `; ${l}`).join('\n')}\n` : '';
  const decls = declarations([original, result]);
  return `${head}${decls}${decls ? '\n' : ''}(assert (not (= ${formulaToSmt(original)} ${formulaToSmt(result)})))\n(check-sat)\n`;
}

/** The equivalence certificate of one logged elimination. */
export function eliminationCertificate(e: ElimEntry): string {
  const comment = [
    `quantifier elimination (${e.method}); expected: unsat`,
    `original: ${printFormula(e.original)}`,
    `result:   ${printFormula(e.result)}`,
  ].join('\n');
  return equivalenceScript(e.original, e.result, comment);
}
