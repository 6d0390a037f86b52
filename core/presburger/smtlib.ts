// Terms and formulas as SMT-LIB 2.6 (QF_LIA / LIA with div and mod, which agree with the thesis's
// floor and Euclidean remainder for positive divisors), and back from Z3's output.

import type { Formula, Term } from './types.ts';
import type { SExpr } from '../../smt/sexpr.ts';
import { formulaVars } from './vars.ts';
import {
  FALSE, TRUE, andAll, eqT, exists, forall, geT, gtT, iff, implies, leT, ltT, not, orAll,
} from './formula.ts';
import { add, constant, floorT, isConst, modT, neg, scale, selectT, sub, termFromParts, variable } from './term.ts';

const SIMPLE = /^[A-Za-z~!@$%^&*_+=<>.?/-][A-Za-z0-9~!@$%^&*_+=<>.?/-]*$/;
const RESERVED = new Set(['xor', '=>', 'ite', 'select', 'store', 'bv2nat', 'and', 'or', 'not', 'ite', 'div', 'mod', 'abs', 'let', 'exists', 'forall', 'true', 'false',
  'assert', 'declare-const', 'Int', 'Bool', 'distinct', 'par', '_', '!', 'as', 'match', 'NUMERAL', 'DECIMAL', 'STRING', 'to_int', 'to_real', 'is_int']);

/**
 * The SMT-LIB symbol of a variable. Reserved words get a `!` suffix rather than quotes: Z3 refuses
 * to declare `|and|`, `|or|`, `|distinct|`, `|true|`… even quoted, and no SCHED identifier
 * contains `!`, so the suffixed name cannot collide with another variable.
 */
export function smtSymbol(v: string): string {
  if (RESERVED.has(v)) return `${v}!`;
  return SIMPLE.test(v) ? v : `|${v.replace(/[|\\]/g, '_')}|`;
}

function num(n: bigint): string {
  return n < 0n ? `(- ${-n})` : String(n);
}

export function termToSmt(t: Term): string {
  const items: string[] = [];
  for (const [a, kk] of t.parts) {
    let s: string;
    switch (a.kind) {
      case 'var': s = smtSymbol(a.name); break;
      case 'floor': s = `(div ${termToSmt(a.arg)} ${a.div})`; break;
      case 'min': case 'max': {
        const op = a.kind === 'min' ? '<=' : '>=';
        s = a.args.map(termToSmt).reduce((x, y) => `(ite (${op} ${x} ${y}) ${x} ${y})`);
        break;
      }
      case 'select': s = `(ite ${formulaToSmt(a.cond)} ${termToSmt(a.then)} ${termToSmt(a.else)})`; break;
    }
    items.push(kk === 1n ? s : kk === -1n ? `(- ${s})` : `(* ${num(kk)} ${s})`);
  }
  if (t.c !== 0n || items.length === 0) items.push(num(t.c));
  return items.length === 1 ? items[0]! : `(+ ${items.join(' ')})`;
}

/** t ≥ 0 printed as `(<= Q P)` with both sides having positive coefficients. */
function sidesSmt(t: Term): [string, string] {
  const p = termFromParts(t.parts.filter(([, kk]) => kk > 0n), t.c > 0n ? t.c : 0n);
  const q = termFromParts(t.parts.filter(([, kk]) => kk < 0n).map(([a, kk]) => [a, -kk] as const), t.c < 0n ? -t.c : 0n);
  return [termToSmt(q), termToSmt(p)];
}

export function formulaToSmt(f: Formula): string {
  switch (f.kind) {
    case 'true': return 'true';
    case 'false': return 'false';
    case 'ge': { const [q, p] = sidesSmt(f.t); return `(<= ${q} ${p})`; }
    case 'eq': { const [q, p] = sidesSmt(f.t); return `(= ${p} ${q})`; }
    case 'cong': return `(= (mod ${termToSmt(f.t)} ${f.m}) 0)`;
    case 'and': return `(and ${f.args.map(formulaToSmt).join(' ')})`;
    case 'or': return `(or ${f.args.map(formulaToSmt).join(' ')})`;
    case 'exists': case 'forall':
      return `(${f.kind} (${f.vars.map((v) => `(${smtSymbol(v)} Int)`).join(' ')}) ${formulaToSmt(f.body)})`;
  }
}

/** `(declare-const v Int)` for every free variable, sorted. */
export function declarations(fs: readonly Formula[]): string {
  const vs = new Set<string>();
  for (const f of fs) for (const v of formulaVars(f)) vs.add(v);
  return [...vs].sort().map((v) => `(declare-const ${smtSymbol(v)} Int)`).join('\n');
}

export class SmtConversionError extends Error {}

type Val = { readonly kind: 'int'; readonly t: Term } | { readonly kind: 'bool'; readonly f: Formula };

/** Convert an SMT-LIB Int/Bool expression back into a term or formula. Symbols are looked up in
 *  `names` (SMT symbol → variable); unknown operators throw SmtConversionError. */
export function smtToFormula(e: SExpr, names: ReadonlyMap<string, string>): Formula {
  const v = conv(e, names, new Map());
  if (v.kind !== 'bool') throw new SmtConversionError('expected a Boolean expression');
  return v.f;
}

function asInt(v: Val): Term {
  if (v.kind !== 'int') throw new SmtConversionError('expected an Int expression');
  return v.t;
}

function asBool(v: Val): Formula {
  if (v.kind !== 'bool') throw new SmtConversionError('expected a Bool expression');
  return v.f;
}

function conv(e: SExpr, names: ReadonlyMap<string, string>, lets: ReadonlyMap<string, Val>): Val {
  if (typeof e === 'string') {
    if (/^[0-9]+$/.test(e)) return { kind: 'int', t: constant(BigInt(e)) };
    if (e === 'true') return { kind: 'bool', f: TRUE };
    if (e === 'false') return { kind: 'bool', f: FALSE };
    const l = lets.get(e);
    if (l) return l;
    const sym = e.startsWith('|') && e.endsWith('|') ? e.slice(1, -1) : e;
    const n = names.get(e) ?? names.get(sym);
    if (n === undefined) throw new SmtConversionError(`unknown symbol ${e}`);
    return { kind: 'int', t: variable(n) };
  }
  if (e.length === 0) throw new SmtConversionError('empty application');
  const [head, ...args] = e;
  if (typeof head !== 'string') throw new SmtConversionError('higher-order application');
  const ints = () => args.map((a) => asInt(conv(a, names, lets)));
  const bools = () => args.map((a) => asBool(conv(a, names, lets)));
  const B = (f: Formula): Val => ({ kind: 'bool', f });
  const I = (t: Term): Val => ({ kind: 'int', t });
  switch (head) {
    case 'let': {
      const binds = args[0];
      if (!Array.isArray(binds)) throw new SmtConversionError('bad let');
      const inner = new Map(lets);
      for (const b of binds) {
        if (!Array.isArray(b) || typeof b[0] !== 'string') throw new SmtConversionError('bad let binding');
        inner.set(b[0], conv(b[1]!, names, lets));
      }
      return conv(args[1]!, names, inner);
    }
    case 'and': return B(andAll(bools()));
    case 'or': return B(orAll(bools()));
    case 'not': return B(not(bools()[0]!));
    case '=>': { const bs = bools(); return B(bs.slice(0, -1).reduceRight((acc, x) => implies(x, acc), bs[bs.length - 1]!)); }
    case '=': {
      const vs = args.map((a) => conv(a, names, lets));
      const out: Formula[] = [];
      for (let i = 0; i + 1 < vs.length; i++) {
        const x = vs[i]!;
        const y = vs[i + 1]!;
        out.push(x.kind === 'bool' ? iff(x.f, asBool(y)) : eqT(x.t, asInt(y)));
      }
      return B(andAll(out));
    }
    case 'distinct': {
      const xs = ints();
      const out: Formula[] = [];
      for (let i = 0; i < xs.length; i++) for (let j = i + 1; j < xs.length; j++) out.push(not(eqT(xs[i]!, xs[j]!)));
      return B(andAll(out));
    }
    case '<=': case '<': case '>=': case '>': {
      const xs = ints();
      const rel = head === '<=' ? leT : head === '<' ? ltT : head === '>=' ? geT : gtT;
      const out: Formula[] = [];
      for (let i = 0; i + 1 < xs.length; i++) out.push(rel(xs[i]!, xs[i + 1]!));
      return B(andAll(out));
    }
    case '+': return I(add(...ints()));
    case '-': { const xs = ints(); return I(xs.length === 1 ? neg(xs[0]!) : xs.slice(1).reduce((a, b) => sub(a, b), xs[0]!)); }
    case '*': {
      const xs = ints();
      let acc = constant(1n);
      for (const x of xs) {
        if (isConst(acc)) acc = scale(x, acc.c);
        else if (isConst(x)) acc = scale(acc, x.c);
        else throw new SmtConversionError('non-linear product');
      }
      return I(acc);
    }
    case 'div': case 'mod': {
      const [x, d] = ints();
      if (!d || !isConst(d) || d.c === 0n) throw new SmtConversionError(`${head} by a non-constant`);
      const m = d.c < 0n ? -d.c : d.c;
      if (head === 'mod') return I(modT(x!, m));
      // SMT-LIB: x = d·q + r with 0 ≤ r < |d|, so q = ⌊x/d⌋ for d > 0 and −⌊x/|d|⌋ for d < 0.
      return I(d.c > 0n ? floorT(x!, m) : neg(floorT(x!, m)));
    }
    case 'abs': { const [x] = ints(); return I(selectT(geT(x!, constant(0n)), x!, neg(x!))); }
    case 'ite': {
      const c = asBool(conv(args[0]!, names, lets));
      const a = conv(args[1]!, names, lets);
      const b = conv(args[2]!, names, lets);
      if (a.kind === 'bool') { const bb = asBool(b); return B(orAll([andAll([c, a.f]), andAll([not(c), bb])])); }
      return I(selectT(c, a.t, asInt(b)));
    }
    case 'exists': case 'forall': {
      const binds = args[0];
      if (!Array.isArray(binds)) throw new SmtConversionError('bad binder');
      const inner = new Map(names);
      const vs: string[] = [];
      for (const b of binds) {
        if (!Array.isArray(b) || typeof b[0] !== 'string' || b[1] !== 'Int') throw new SmtConversionError('bad binder');
        const v = `${b[0].replace(/\|/g, '')}$q${vs.length}`;
        inner.set(b[0], v);
        vs.push(v);
      }
      const body = asBool(conv(args[1]!, inner, lets));
      return B(head === 'exists' ? exists(vs, body) : forall(vs, body));
    }
    default: {
      if (head === '_' ) throw new SmtConversionError('indexed identifier');
      throw new SmtConversionError(`unsupported operator ${head}`);
    }
  }
}

