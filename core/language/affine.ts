// Affine index expressions (𝔸) and conditions (𝔹) of the AST as Presburger terms and formulas,
// so that the symbolic evaluator can compute with them, and back (a simplified term printed as
// SCHED). Variables map through `env` (unique names after renaming; `let` bindings substitute
// their term).

import { type Expr, NO_POS } from './ast.ts';
import type { Atom, Formula, Term } from '../presburger/types.ts';
import { and, bool, eqT, geT, gtT, leT, ltT, neT, not, or } from '../presburger/formula.ts';
import { add, addConst, atomTerm, constant, floorT, linear, linearPart, maxT, minT, modT, neg, scale, selectT, sub, variable } from '../presburger/term.ts';

/** An index expression or condition that is not affine (or a quantified formula). */
export class IndexError extends Error {}

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

// ---------------------------------------------------------------------------------------------
// Term / Formula → AST: the inverse of termOf / formulaOf (termOf(termToExpr(t)) has t's key), as
// a person writes it: positive parts first, `s % d` for a remainder.

const P = NO_POS;
const num = (v: bigint): Expr => (v < 0n ? { kind: 'unary', op: '-', arg: { kind: 'int', value: -v, pos: P }, pos: P } : { kind: 'int', value: v, pos: P });
const bin = (op: '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||', left: Expr, right: Expr): Expr => ({ kind: 'binary', op, left, right, pos: P });

/** Split a term's parts into (mod pieces, other parts): `m·s − m·d·⌊s/d⌋` is printed `m * (s % d)`. */
function modPieces(t: Term): { mods: [Term, bigint, bigint][]; rest: Term } {
  let rest = t;
  const mods: [Term, bigint, bigint][] = [];
  for (const [a, k] of t.parts) {
    if (a.kind !== 'floor' || k % a.div !== 0n) continue;
    const m = -k / a.div;
    // Only when every atom of m·s occurs in t with exactly that coefficient (nothing is borrowed).
    const present = a.arg.parts.every(([b, kb]) => rest.parts.some(([c, kc]) => c.key === b.key && kc === m * kb));
    if (!present) continue;
    mods.push([a.arg, a.div, m]);
    rest = sub(rest, linear([[a.arg, m], [atomTerm(a), -m * a.div]]));
  }
  return { mods, rest };
}

function atomExpr(a: Atom): Expr {
  switch (a.kind) {
    case 'var':
      return { kind: 'var', name: a.name, pos: P };
    case 'floor':
      return bin('/', termToExpr(a.arg), num(a.div));
    case 'min':
    case 'max':
      return a.args.map(termToExpr).reduce((x, y) => ({ kind: 'call', fn: a.kind, args: [x, y], pos: P }));
    case 'select':
      return { kind: 'select', cond: formulaToExpr(a.cond), then: termToExpr(a.then), else: termToExpr(a.else), pos: P };
  }
}

/** A term as an index expression: positive parts first, then subtractions, then the constant. */
export function termToExpr(t: Term): Expr {
  const { mods, rest } = modPieces(t);
  const items: [Expr, bigint][] = [];
  for (const [s, d, m] of mods) items.push([bin('%', termToExpr(s), num(d)), m]);
  for (const [a, k] of rest.parts) items.push([atomExpr(a), k]);
  items.sort((x, y) => (x[1] > 0n ? 0 : 1) - (y[1] > 0n ? 0 : 1));
  let out: Expr | null = null;
  const scaled = (e: Expr, k: bigint): Expr => (k === 1n ? e : bin('*', num(k), e));
  for (const [e, k] of items) {
    if (out === null) out = k > 0n ? scaled(e, k) : k === -1n ? { kind: 'unary', op: '-', arg: e, pos: P } : scaled(e, k);
    else out = k > 0n ? bin('+', out, scaled(e, k)) : bin('-', out, scaled(e, -k));
  }
  if (out === null) return num(rest.c);
  if (rest.c > 0n) return bin('+', out, num(rest.c));
  if (rest.c < 0n) return bin('-', out, num(-rest.c));
  return out;
}

/** `t ≥ 0` printed as `pos >= neg` (moving negative parts to the right). */
function cmpExpr(op: '>=' | '==', t: Term, lessThan: boolean): Expr {
  const pos: [Atom, bigint][] = [];
  const negs: [Atom, bigint][] = [];
  for (const [a, k] of t.parts) (k > 0n ? pos : negs).push([a, k > 0n ? k : -k]);
  const l = linear(pos.map(([a, k]) => [atomTerm(a), k] as const), t.c > 0n ? t.c : 0n);
  const r = linear(negs.map(([a, k]) => [atomTerm(a), k] as const), t.c < 0n ? -t.c : 0n);
  // Prefer `x < c` to `c >= x + 1` for readability when the left side is a constant.
  if (op === '>=' && l.parts.length === 0 && r.parts.length > 0) return lessThan ? bin('<', termToExpr(r), termToExpr(addConst(l, 1n))) : bin('<=', termToExpr(linearPart(r)), { kind: 'int', value: t.c, pos: P });
  // A bound written with its constant alone on one side: `x >= -2147483648`, not `x + 2147483648 >= 0`.
  if (!lessThan && r.parts.length === 0 && l.parts.length > 0) return bin(op, termToExpr(linearPart(l)), { kind: 'int', value: -t.c, pos: P });
  return bin(op, termToExpr(l), termToExpr(r));
}

/** `lessThan`: a bound with a constant side is written `x < c + 1` (the default, generated code's
 *  loop guards) or `x <= c` (assumptions). */
export function formulaToExpr(f: Formula, opts: { lessThan?: boolean } = {}): Expr {
  switch (f.kind) {
    case 'true':
      return { kind: 'bool', value: true, pos: P };
    case 'false':
      return { kind: 'bool', value: false, pos: P };
    case 'ge':
      return cmpExpr('>=', f.t, opts.lessThan ?? true);
    case 'eq':
      return cmpExpr('==', f.t, opts.lessThan ?? true);
    case 'cong':
      return bin('==', bin('%', termToExpr(f.t), num(f.m)), num(0n));
    case 'and':
    case 'or':
      return f.args.map((g) => formulaToExpr(g, opts)).reduce((x, y) => bin(f.kind === 'and' ? '&&' : '||', x, y));
    case 'exists':
    case 'forall':
      throw new IndexError('quantified condition in generated code');
  }
}

