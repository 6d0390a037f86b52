// Models printed by Z3 (`(get-model)`), evaluated: the interpretation of a function symbol at given
// arguments. This turns a solver's counterexample into concrete input values that a run of the
// big-step semantics can use, so that a refutation is shown on the machine's semantics, not only
// in the encoding. Only what Z3 prints for the sorts we declare is understood (Int, Bool, bit
// vectors, FloatingPoint 8 24 / 11 53, `ite`, Boolean connectives, comparisons, linear
// arithmetic, `let`, references to other definitions); anything else makes `evaluate` give null,
// which callers treat as "no concrete replay", never as a value. Floating-point values come in
// every literal form of the SMT-LIB FloatingPoint theory (smt/fp-literal.ts): `(fp s e m)`, the
// specials `(_ +zero 8 24)`, `(_ -zero …)`, `(_ +oo …)`, `(_ -oo …)`, `(_ NaN …)`, and conversions
// `((_ to_fp 8 24) RM r)` from reals, integers, bit vectors and other floats: a refutation that
// hinges on -0 or ∞ is a model of exactly these.

import { bitVector, fpApplication, fpConstant, isFpHead } from './fp-literal.ts';
import { parseSExprs, type SExpr } from './sexpr.ts';

/** A model value: Int and bit vectors (unsigned) as bigints, floats as numbers, Bool. */
export type ModelValue = bigint | number | boolean;

interface Definition {
  readonly params: readonly string[];
  readonly body: SExpr;
}

class Unsupported extends Error {}

function unbar(s: string): string {
  return s.startsWith('|') && s.endsWith('|') ? s.slice(1, -1) : s;
}

/** The definitions of a model text (`sat` first or not; `(model …)` wrapper or not). */
export class SolverModel {
  private readonly defs = new Map<string, Definition>();

  constructor(text: string) {
    let exprs: SExpr[];
    try {
      exprs = parseSExprs(text);
    } catch {
      return;
    }
    const visit = (e: SExpr): void => {
      if (typeof e === 'string') return;
      if (e[0] === 'define-fun' && e.length === 5 && typeof e[1] === 'string' && Array.isArray(e[2])) {
        const params = e[2].map((p) => (Array.isArray(p) && typeof p[0] === 'string' ? unbar(p[0]) : ''));
        this.defs.set(unbar(e[1]), { params, body: e[4]! });
        return;
      }
      for (const x of e) visit(x);
    };
    for (const e of exprs) visit(e);
  }

  has(name: string): boolean {
    return this.defs.has(name);
  }

  /** The value of `name` applied to `args`, or null when the model does not say (or we cannot read it). */
  evaluate(name: string, args: readonly ModelValue[] = []): ModelValue | null {
    const d = this.defs.get(name);
    if (d === undefined || d.params.length !== args.length) return null;
    try {
      return this.eval(d.body, new Map(d.params.map((p, k) => [p, args[k]!] as const)), 0);
    } catch (e) {
      if (e instanceof Unsupported || e instanceof RangeError) return null;
      throw e;
    }
  }

  /**
   * The arguments at which the model's constants (the goal, the reads, …) apply function `name`,
   * evaluated in the model: the points of an input tensor the refuted formula is about. An
   * application whose arguments the model does not determine (a bound variable) is left out.
   */
  applications(name: string): ModelValue[][] {
    const d = this.defs.get(name);
    if (d === undefined) return [];
    const out = new Map<string, ModelValue[]>();
    const walk = (e: SExpr, env: ReadonlyMap<string, ModelValue>, depth: number): void => {
      if (typeof e === 'string' || depth > 2000) return;
      if (e[0] === 'let' && Array.isArray(e[1])) {
        const inner = new Map(env);
        for (const b of e[1]) {
          if (!Array.isArray(b) || typeof b[0] !== 'string') continue;
          walk(b[1]!, env, depth + 1);
          try {
            inner.set(unbar(b[0]), this.eval(b[1]!, env, depth + 1));
          } catch (x) {
            if (!(x instanceof Unsupported || x instanceof RangeError)) throw x;
            inner.delete(unbar(b[0])); // shadowed by a binding the model does not determine
          }
        }
        walk(e[2]!, inner, depth + 1);
        return;
      }
      if (typeof e[0] === 'string' && unbar(e[0]) === name && e.length - 1 === d.params.length) {
        try {
          const args = e.slice(1).map((a) => this.eval(a, env, depth + 1));
          out.set(args.map(String).join(','), args);
        } catch (x) {
          if (!(x instanceof Unsupported || x instanceof RangeError)) throw x;
        }
      }
      for (const x of e) walk(x, env, depth + 1);
    };
    for (const [n, def] of this.defs) if (n !== name && def.params.length === 0) walk(def.body, new Map(), 0);
    return [...out.values()];
  }

  private eval(e: SExpr, env: ReadonlyMap<string, ModelValue>, depth: number): ModelValue {
    if (depth > 2000) throw new Unsupported('too deep');
    if (typeof e === 'string') return this.atom(e, env, depth);
    const [head, ...args] = e;
    const ev = (x: SExpr): ModelValue => this.eval(x, env, depth + 1);
    if (Array.isArray(head)) {
      // ((_ to_fp 8 24) RNE 1.5) and the other indexed conversions; `((_ bv5 8))` as a constant.
      if (args.length === 0) return indexedConstant(head);
      if (isFpHead(head)) return fromFp(() => fpApplication(head, args, ev));
      throw new Unsupported(`indexed operator ${JSON.stringify(head)}`);
    }
    switch (head) {
      case '_':
        // (_ bv5 8), (_ +zero 8 24), (_ -zero 11 53), (_ +oo …), (_ -oo …), (_ NaN …).
        return indexedConstant(e);
      case 'ite':
        return ev(args[0]!) === true ? ev(args[1]!) : ev(args[2]!);
      case 'and':
        return args.every((a) => ev(a) === true);
      case 'or':
        return args.some((a) => ev(a) === true);
      case 'not':
        return ev(args[0]!) !== true;
      case '=>':
        return ev(args[0]!) !== true || ev(args[1]!) === true;
      case '=': {
        const vs = args.map(ev);
        return vs.every((v) => sameModelValue(v, vs[0]!));
      }
      case 'distinct': {
        const vs = args.map(ev);
        return vs.every((v, k) => vs.every((w, l) => l === k || !sameModelValue(v, w)));
      }
      case '<=':
      case '<':
      case '>=':
      case '>': {
        const [a, b] = args.map(ev) as [bigint, bigint];
        if (typeof a !== 'bigint' || typeof b !== 'bigint') throw new Unsupported('comparison of non-integers');
        return head === '<=' ? a <= b : head === '<' ? a < b : head === '>=' ? a >= b : a > b;
      }
      case '+':
      case '*': {
        const vs = args.map(ev);
        if (!vs.every((v) => typeof v === 'bigint')) throw new Unsupported('arithmetic on non-integers');
        return (vs as bigint[]).reduce((x, y) => (head === '+' ? x + y : x * y));
      }
      case '-': {
        const vs = args.map(ev);
        if (!vs.every((v) => typeof v === 'bigint')) throw new Unsupported('arithmetic on non-integers');
        const ns = vs as bigint[];
        return ns.length === 1 ? -ns[0]! : ns.slice(1).reduce((x, y) => x - y, ns[0]!);
      }
      case 'let': {
        const bs = args[0];
        if (!Array.isArray(bs)) throw new Unsupported('let');
        const inner = new Map(env);
        for (const b of bs) {
          if (!Array.isArray(b) || typeof b[0] !== 'string') throw new Unsupported('let binding');
          inner.set(unbar(b[0]), ev(b[1]!));
        }
        return this.eval(args[1]!, inner, depth + 1);
      }
      case 'fp':
      case 'fp.neg':
      case 'fp.abs':
        return fromFp(() => fpApplication(head, args, ev));
      default: {
        if (typeof head !== 'string') throw new Unsupported('application');
        const name = unbar(head);
        const d = this.defs.get(name);
        if (d === undefined || d.params.length !== args.length) throw new Unsupported(`function ${name}`);
        const vals = args.map(ev);
        return this.eval(d.body, new Map(d.params.map((p, k) => [p, vals[k]!] as const)), depth + 1);
      }
    }
  }

  private atom(a: string, env: ReadonlyMap<string, ModelValue>, depth: number): ModelValue {
    if (a === 'true') return true;
    if (a === 'false') return false;
    if (/^\d+$/.test(a)) return BigInt(a);
    const bv = bitVector(a);
    if (bv) return bv.value;
    const name = unbar(a);
    const v = env.get(name);
    if (v !== undefined) return v;
    const d = this.defs.get(name);
    if (d !== undefined && d.params.length === 0) return this.eval(d.body, new Map(), depth + 1);
    throw new Unsupported(`symbol ${a}`);
  }
}

function indexedConstant(h: readonly SExpr[]): ModelValue {
  if (h[0] !== '_' || typeof h[1] !== 'string') throw new Unsupported('indexed constant');
  const k = h[1];
  if (/^bv\d+$/.test(k)) return BigInt(k.slice(2));
  return fromFp(() => fpConstant(h));
}

/** A floating-point form's value, or Unsupported when smt/fp-literal.ts does not read it. */
function fromFp(f: () => number | null): number {
  const v = f();
  if (v === null) throw new Unsupported('floating-point form');
  return v;
}

function sameModelValue(a: ModelValue, b: ModelValue): boolean {
  // SMT-LIB equality: identity of values (one NaN; +0 and -0 distinct).
  return Object.is(a, b) || (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b));
}
