// SMT-LIB encoding of affine index expressions (𝔸) and conditions (𝔹) of the AST, in the theory
// of integers: `/` and `%` by a positive constant are SMT-LIB `div` and `mod`, which agree with
// SCHED's floor division and Euclidean remainder for positive divisors.

import type { Expr } from './ast.ts';
import { smtSymbol } from '../presburger/smtlib.ts';

/** An SMT-LIB symbol for a SCHED name (one definition for every script the toolkit writes). */
export { smtSymbol };

export function smtInt(v: bigint): string {
  return v < 0n ? `(- ${(-v).toString()})` : v.toString();
}

/** Encode an affine expression; `rename` maps variable names to SMT terms (default: symbols). */
export function affineToSmt(e: Expr, rename: (name: string) => string = smtSymbol): string {
  const go = (x: Expr): string => affineToSmt(x, rename);
  switch (e.kind) {
    case 'int':
      return smtInt(e.value);
    case 'bool':
      return e.value ? 'true' : 'false';
    case 'var':
      return rename(e.name);
    case 'unary':
      return e.op === '-' ? `(- ${go(e.arg)})` : `(not ${go(e.arg)})`;
    case 'binary': {
      const a = go(e.left);
      const b = go(e.right);
      switch (e.op) {
        case '+':
          return `(+ ${a} ${b})`;
        case '-':
          return `(- ${a} ${b})`;
        case '*':
          return `(* ${a} ${b})`;
        case '/':
          return `(div ${a} ${b})`;
        case '%':
          return `(mod ${a} ${b})`;
        case '==':
          return `(= ${a} ${b})`;
        case '!=':
          return `(not (= ${a} ${b}))`;
        case '<':
          return `(< ${a} ${b})`;
        case '<=':
          return `(<= ${a} ${b})`;
        case '>':
          return `(> ${a} ${b})`;
        case '>=':
          return `(>= ${a} ${b})`;
        case '&&':
          return `(and ${a} ${b})`;
        case '||':
          return `(or ${a} ${b})`;
      }
      break;
    }
    case 'call':
      if ((e.fn === 'min' || e.fn === 'max') && e.args.length === 2) {
        const a = go(e.args[0]!);
        const b = go(e.args[1]!);
        return e.fn === 'min' ? `(ite (<= ${a} ${b}) ${a} ${b})` : `(ite (>= ${a} ${b}) ${a} ${b})`;
      }
      break;
    case 'select':
      return `(ite ${go(e.cond)} ${go(e.then)} ${go(e.else)})`;
    case 'let': {
      // Bind under a name the renaming cannot capture.
      const inner = (n: string): string => (n === e.name ? smtSymbol(`${e.name}!let`) : rename(n));
      return `(let ((${smtSymbol(`${e.name}!let`)} ${go(e.value)})) ${affineToSmt(e.body, inner)})`;
    }
    default:
      break;
  }
  throw new Error(`affineToSmt: not an affine expression (${e.kind})`);
}
