// The exact float constants of the Func definitions. The driver reads a definition with Python's
// str(), which rounds every float constant to 6 decimals (0.1234567f and 0.1234568f both print
// 0.123457f, 1e-9f prints 0.000000f), so the text alone does not say which constant Halide
// compiles. The driver also lowers the definitions with every Func at the root, printing through
// a stream whose precision it raised (driver.py, exact_floats()): in the first pass ("creating
// initial loop nests") each definition is a Provide with its constants printed exactly. A
// definition is paired with such a Provide node by node (the same tree, names aside), and each of
// its float constants takes the exact value at the same place. Nothing is matched by value alone:
// two constants that print alike are told apart by where they stand.

import { type HExpr, type HStmt, parseHStmt, stripExpr } from './hir.ts';
import { onlyF32Printing } from '../../core/language/float-literal.ts';

type FloatNode = Extract<HExpr, { k: 'float' }>;

/** The Provides and `if` conditions (RDom predicates) of each Func, with their stage when a loop names it. */
export interface LoweredDefinitions {
  readonly provides: ReadonlyMap<string, readonly { readonly stage: number | null; readonly value: HExpr }[]>;
  readonly conds: ReadonlyMap<string, readonly { readonly stage: number | null; readonly cond: HExpr }[]>;
}

export function loweredDefinitions(initial: string): LoweredDefinitions {
  const provides = new Map<string, { stage: number | null; value: HExpr }[]>();
  const conds = new Map<string, { stage: number | null; cond: HExpr }[]>();
  const stageOf = (func: string, loops: readonly string[]): number | null => {
    for (let k = loops.length - 1; k >= 0; k--) {
      const l = loops[k]!;
      if (!l.startsWith(`${func}.s`)) continue;
      const m = /^\.s(\d+)\./.exec(l.slice(func.length));
      if (m) return Number(m[1]);
    }
    return null;
  };
  const walk = (ss: readonly HStmt[], producing: string | null, loops: readonly string[]): void => {
    for (const s of ss) {
      switch (s.k) {
        case 'pc':
          walk(s.body, s.produce ? s.name : producing, loops);
          break;
        case 'for':
          walk(s.body, producing, [...loops, s.name]);
          break;
        case 'if':
          if (producing !== null) {
            const list = conds.get(producing) ?? [];
            list.push({ stage: stageOf(producing, loops), cond: stripExpr(s.cond) });
            conds.set(producing, list);
          }
          walk(s.then, producing, loops);
          if (s.else) walk(s.else, producing, loops);
          break;
        case 'provide': {
          const list = provides.get(s.name) ?? [];
          // Lets (CSE'd constants) inlined and trace calls removed: the definition's own tree.
          list.push({ stage: stageOf(s.name, loops), value: stripExpr(s.value) });
          provides.set(s.name, list);
          break;
        }
        case 'realize':
        case 'unknown':
          walk(s.body, producing, loops);
          break;
        default:
          break;
      }
    }
  };
  walk(parseHStmt(initial), null, []);
  return { provides, conds };
}

/** A name of the definitions' text against the lowered one: `a_im` is input a's wrapper, `f$1` a renamed f. */
function sameCallee(py: string, ir: string): boolean {
  const base = (n: string): string => n.replace(/\$\d+$/, '').replace(/_im$/, '');
  return py === ir || base(py) === base(ir);
}

/** Does `exact` print as `printed` at 6 decimals (or the same infinity or NaN)? */
function printsAs(printed: FloatNode, exact: FloatNode): boolean {
  if (printed.t !== exact.t) return false;
  if (!Number.isFinite(exact.v) || !Number.isFinite(printed.v)) return Object.is(exact.v, printed.v) || (Number.isNaN(exact.v) && Number.isNaN(printed.v));
  return Math.abs(exact.v - printed.v) <= 5e-7 + Math.abs(exact.v) * 1e-15 && (Object.is(exact.v, -0) || exact.v < 0) === (Object.is(printed.v, -0) || printed.v < 0);
}

/** The pairs (printed, exact) of float constants when `py` and `ir` are the same tree, else null. */
function pair(py: HExpr, ir: HExpr, out: [FloatNode, FloatNode][]): boolean {
  // The printer types a call of a type other than int32 (`(float32)conv(…)`) unless it knows the
  // name's type from an enclosing Realize: the same call, printed with or without its type.
  // With the target feature strict_float, lowering wraps every float operation in
  // `strict_float(…)` (typed by the printer as a call) before the first pass: the same tree.
  const strict = (e: HExpr): e is Extract<HExpr, { k: 'call' }> => e.k === 'call' && e.name === 'strict_float' && e.args.length === 1;
  if (!strict(py) && !(py.k === 'cast' && strict(py.a))) {
    if (ir.k === 'cast' && strict(ir.a)) return pair(py, ir.a.args[0]!, out);
    if (strict(ir)) return pair(py, ir.args[0]!, out);
  }
  if (py.k === 'cast' && py.a.k === 'call' && ir.k === 'call') return pair(py.a, ir, out);
  // Subtrees without float constants say nothing about them: the first pass may have rewritten an
  // index or a condition ((x + 2) >= 0 as -2 <= f.s0.x).
  if (!hasFloat(py) && !hasFloat(ir)) return true;
  // A variable of the definition is a loop variable there, or the expression of a fused or split
  // loop (`b` as `output.s0.y.y.b / output.s0.y.y.loop_extent + …`).
  if (py.k === 'var') return true;
  if (ir.k === 'cast' && ir.a.k === 'call' && py.k === 'call') return pair(py, ir.a, out);
  if (py.k !== ir.k) return false;
  switch (py.k) {
    case 'int': {
      const b = ir as typeof py;
      return py.v === b.v && py.t === b.t;
    }
    case 'float': {
      const b = ir as FloatNode;
      if (!printsAs(py, b)) return false;
      out.push([py, b]);
      return true;
    }
    case 'str':
      return py.v === (ir as typeof py).v;
    case 'bin': {
      const b = ir as typeof py;
      return py.op === b.op && pair(py.a, b.a, out) && pair(py.b, b.b, out);
    }
    case 'not':
    case 'neg':
      return pair(py.a, (ir as typeof py).a, out);
    case 'cast': {
      const b = ir as typeof py;
      return py.t === b.t && pair(py.a, b.a, out);
    }
    case 'call': {
      const b = ir as typeof py;
      return sameCallee(py.name, b.name) && py.args.length === b.args.length && py.args.every((a, k) => pair(a, b.args[k]!, out));
    }
    case 'load': {
      const b = ir as typeof py;
      return py.name === b.name && pair(py.index, b.index, out);
    }
    case 'let': {
      const b = ir as typeof py;
      return pair(py.value, b.value, out) && pair(py.body, b.body, out);
    }
  }
}

function hasFloat(e: HExpr): boolean {
  switch (e.k) {
    case 'float':
      return true;
    case 'bin':
      return hasFloat(e.a) || hasFloat(e.b);
    case 'not':
    case 'neg':
    case 'cast':
      return hasFloat(e.a);
    case 'call':
      return e.args.some(hasFloat);
    case 'load':
      return hasFloat(e.index);
    case 'let':
      return hasFloat(e.value) || hasFloat(e.body);
    default:
      return false;
  }
}

/** `e` with its float constants replaced (by node identity). */
function substitute(e: HExpr, by: ReadonlyMap<FloatNode, FloatNode>): HExpr {
  switch (e.k) {
    case 'float':
      return by.get(e) ?? e;
    case 'bin':
      return { ...e, a: substitute(e.a, by), b: substitute(e.b, by) };
    case 'not':
    case 'neg':
    case 'cast':
      return { ...e, a: substitute(e.a, by) };
    case 'call':
      return { ...e, args: e.args.map((a) => substitute(a, by)) };
    case 'load':
      return { ...e, index: substitute(e.index, by) };
    case 'let':
      return { ...e, value: substitute(e.value, by), body: substitute(e.body, by) };
    default:
      return e;
  }
}

/**
 * The definition `py` (as Python printed it) with its float constants exact: taken from the
 * candidates of the same stage (those without a stage when no loop names one) that are the same
 * tree. Candidates that disagree on a constant, or none that matches, leave it as printed: `why`
 * then says so, and the translator refuses a constant printed with 6 decimals.
 */
export function exactDefinition(printed: HExpr, candidates: readonly { readonly stage: number | null; readonly e: HExpr }[], stage: number): { e: HExpr; why: string | null } {
  if (!hasFloat(printed)) return { e: printed, why: null };
  // Python's Exprs may hold lets of their own (CSE): compared with them inlined, as the IR's are.
  const py = stripExpr(printed);
  const staged = candidates.filter((c) => c.stage === stage);
  const pool = staged.length > 0 ? staged : candidates.filter((c) => c.stage === null);
  let found: Map<FloatNode, FloatNode> | null = null;
  for (const c of pool) {
    const pairs: [FloatNode, FloatNode][] = [];
    if (!pair(py, c.e, pairs)) continue;
    const m = new Map(pairs);
    if (found === null) found = m;
    else for (const [k, v] of m) if (!Object.is(found.get(k)?.v, v.v)) return { e: py, why: 'two lowered copies of the definition disagree on it' };
  }
  if (found === null) return { e: py, why: pool.length === 0 ? 'the definition is not in the lowering of the definitions' : 'no lowered copy of the definition has the same shape' };
  return { e: substitute(py, found), why: null };
}

/**
 * The float32 a constant printed with 6 decimals must be, when only one can print so: Halide
 * prints a FloatImm's exact value rounded to 6 decimals, so the value lies within 5·10⁻⁷ of the
 * printed decimal (at most: 123456.7890625 is a tie, which a printer may round either way). Where
 * float32s are more than 10⁻⁶ apart (|x| ≥ 16, and some points below) that interval holds one:
 * `-128.000000f` is −128 exactly. Null where it may hold two or more (`0.000000f` is every float
 * smaller than 5·10⁻⁷ in magnitude).
 */
export function onlyFloat32(text: string): number | null {
  return /^-?\d+\.\d{6}$/.test(text) ? onlyF32Printing(text, 6) : null;
}
