// Affine index expressions (𝔸) and conditions (𝔹) of the AST as Presburger terms and formulas,
// so that the symbolic evaluator can compute with them. Variables map through `env` (unique names
// after renaming; `let` bindings substitute their term).

import type { Expr } from '../../core/language/ast.ts';
import type { Formula, Term } from '../../core/presburger/types.ts';
import { and, bool, eqT, geT, gtT, leT, ltT, neT, not, or } from '../../core/presburger/formula.ts';
import { add, constant, floorT, maxT, minT, modT, neg, scale, selectT, sub, variable } from '../../core/presburger/term.ts';

export type AffineEnv = (name: string) => Term | undefined;

export const identityEnv: AffineEnv = (n) => variable(n);

function constOf(t: Term): bigint | null {
  return t.parts.length === 0 ? t.c : null;
}

export function termOf(e: Expr, env: AffineEnv = identityEnv): Term {
  const go = (x: Expr): Term => termOf(x, env);
  switch (e.kind) {
    case 'int':
      return constant(e.value);
    case 'var': {
      const t = env(e.name);
      if (t === undefined) throw new Error(`termOf: unbound variable ${e.name}`);
      return t;
    }
    case 'unary':
      if (e.op === '-') return neg(go(e.arg));
      break;
    case 'binary': {
      const a = go(e.left);
      const b = go(e.right);
      switch (e.op) {
        case '+':
          return add(a, b);
        case '-':
          return sub(a, b);
        case '*': {
          const ca = constOf(a);
          const cb = constOf(b);
          if (ca !== null) return scale(b, ca);
          if (cb !== null) return scale(a, cb);
          throw new Error('termOf: non-affine product');
        }
        case '/':
        case '%': {
          const c = constOf(b);
          if (c === null || c <= 0n) throw new Error('termOf: division by a non-constant');
          return e.op === '/' ? floorT(a, c) : modT(a, c);
        }
        default:
          break;
      }
      break;
    }
    case 'call':
      if (e.fn === 'min') return minT(go(e.args[0]!), go(e.args[1]!));
      if (e.fn === 'max') return maxT(go(e.args[0]!), go(e.args[1]!));
      break;
    case 'select':
      return selectT(formulaOf(e.cond, env), go(e.then), go(e.else));
    case 'let': {
      const v = go(e.value);
      return termOf(e.body, (n) => (n === e.name ? v : env(n)));
    }
    default:
      break;
  }
  throw new Error(`termOf: not an affine index expression (${e.kind})`);
}

export function formulaOf(e: Expr, env: AffineEnv = identityEnv): Formula {
  const go = (x: Expr): Formula => formulaOf(x, env);
  switch (e.kind) {
    case 'bool':
      return bool(e.value);
    case 'unary':
      if (e.op === '!') return not(go(e.arg));
      break;
    case 'binary': {
      switch (e.op) {
        case '&&':
          return and(go(e.left), go(e.right));
        case '||':
          return or(go(e.left), go(e.right));
        default: {
          const a = termOf(e.left, env);
          const b = termOf(e.right, env);
          switch (e.op) {
            case '==':
              return eqT(a, b);
            case '!=':
              return neT(a, b);
            case '<':
              return ltT(a, b);
            case '<=':
              return leT(a, b);
            case '>':
              return gtT(a, b);
            case '>=':
              return geT(a, b);
            default:
              break;
          }
        }
      }
      break;
    }
    case 'select': {
      const c = go(e.cond);
      return or(and(c, go(e.then)), and(not(c), go(e.else)));
    }
    case 'let': {
      const v = termOf(e.value, env);
      return formulaOf(e.body, (n) => (n === e.name ? v : env(n)));
    }
    case 'var':
      // A `let`-bound affine condition is substituted by the caller; a bare Boolean variable
      // cannot occur in a well-typed program otherwise.
      break;
    default:
      break;
  }
  throw new Error(`formulaOf: not an affine condition (${e.kind})`);
}
