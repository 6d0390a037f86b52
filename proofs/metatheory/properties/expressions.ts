// The results of thesis chapter 4 about expressions, over random well-typed expressions of every
// value type (proofs/metatheory/gen/syntax.ts), environments and memories with edge values (NaN, −0, ±∞,
// extreme integers, ⊥): read-set framing (Thm 4.2.2), the evaluation function against the
// independent evaluator of proofs/metatheory/ref-eval.ts (Fig. 4.3/4.4), and type soundness for semantic,
// affine (Thm 4.4.1) and prophetic (Thm 4.4.2) expressions.

import fc from 'fast-check';
import type { ArrayRead, Assign, Cmd, Expr, Program, ValueType } from '../../../core/language/ast.ts';
import { printExpr } from '../../../core/language/printer.ts';
import { typecheckProgram } from '../../../core/language/typecheck.ts';
import { evalExpr, type NamedMemory, readSet } from '../../../semantics/eval.ts';
import { ArrayRef, Cells, setCell } from '../../../semantics/memory.ts';
import { seededInputs, SpecModel } from '../../../semantics/model.ts';
import { hasType, sameValue, showValue, type Value } from '../../../semantics/values.ts';
import { GEN_TYPES, type Scope, skelExprArb, toCond, toIndex, toValue } from '../gen/syntax.ts';
import { evaluate, fromProduction, type RefMemory, valueText } from '../ref-eval.ts';
import { defineProperty, falsified, type NamedProperty } from './framework.ts';
import { type EncodeEnv, ValueEncoder } from '../../verifier/smt-values.ts';
import { checkSat } from '../../../smt/z3.ts';
import { visit } from '../../../core/language/walk.ts';

const P0 = { line: 0, col: 0 };

/** One array and one input tensor per value type, of rank 0, 1 or 2. */
const SHAPES = [[], [4], [3, 4]] as const;
const ARRAYS = GEN_TYPES.map((t, k) => ({ name: `m${k}`, elem: t, rank: k % 3, dims: SHAPES[k % 3] as readonly number[] }));
const TENSORS = GEN_TYPES.map((t, k) => ({ role: 'input' as const, name: `T${k}`, vars: ['i', 'j'].slice(0, k % 3), type: t, pos: P0 }));

/** Edge values of every type (the memory draws from these). */
const EDGE: Record<ValueType, readonly Value[]> = {
  bool: [true, false],
  f32: [0, -0, 1.5, -2.25, 3.4028234663852886e38, NaN, Infinity, 1.401298464324817e-45, 16777217 - 1],
  f64: [0, -0, 1e300, -1.5, NaN, -Infinity, 5e-324, 0.1],
  i8: [0, 1, -1, -128, 127, 7],
  i16: [0, 1, -1, -32768, 32767, 300],
  i32: [0, 1, -1, -2147483648, 2147483647, 46341],
  i64: [0n, 1n, -1n, -(2n ** 63n), 2n ** 63n - 1n, 3037000500n],
  u8: [0, 1, 255, 128, 7],
  u16: [0, 1, 65535, 256],
  u32: [0, 1, 4294967295, 65536],
  u64: [0n, 1n, 2n ** 64n - 1n, 2n ** 32n],
};

const CELLS = 12;
/** Contents: for each array, indices into EDGE of its type (null: ⊥). */
type Pools = Record<string, (number | null)[]>;
const poolsArb: fc.Arbitrary<Pools> = fc.record(
  Object.fromEntries(ARRAYS.map((a) => [a.name, fc.array(fc.oneof({ weight: 6, arbitrary: fc.nat({ max: 20 }) }, { weight: 1, arbitrary: fc.constant(null) }), { minLength: CELLS, maxLength: CELLS })])),
);

function memoryOf(pools: Pools): NamedMemory {
  const m = new Map<string, { ref: ArrayRef; cells: Cells }>();
  ARRAYS.forEach((a, id) => {
    const ref = new ArrayRef(id + 1, a.name, a.elem, a.dims, id * 100, true, P0, 0);
    const cells = Cells.empty(a.elem, ref.size);
    for (let k = 0; k < ref.size; k++) {
      const x = pools[a.name]![k];
      if (x !== null && x !== undefined) setCell(cells, a.elem, k, EDGE[a.elem][x % EDGE[a.elem].length]!);
    }
    m.set(a.name, { ref, cells });
  });
  return m;
}

/** The generator's scope: parameters N, M, loop variables i, j, a condition bq, the arrays. */
function scopeOf(mode: 'semantic' | 'prophetic'): Scope {
  return {
    vars: new Map([
      ['N', 'index'],
      ['M', 'index'],
      ['i', 'index'],
      ['j', 'index'],
      ['bq', 'cond'],
    ]),
    arrays: ARRAYS.map((a) => ({ name: a.name, elem: a.elem, rank: a.rank })),
    tensors: TENSORS,
    mode,
  };
}

/**
 * Type-check e in a program where N, M are parameters, i and j loop variables and bq a condition
 * (`for i < 3 do for j < 3 do let bq = i < j in r[] := e`, or `r[] {e} := …` for a prophetic e);
 * returns e with its types recorded, or null when the generator produced something ill-typed.
 */
function typed(e: Expr, t: ValueType, mode: 'semantic' | 'prophetic' | 'index'): Expr | null {
  const lit: Expr = t === 'bool' ? { kind: 'bool', value: false, pos: P0 } : t === 'f32' || t === 'f64' ? { kind: 'float', value: 0, pos: P0 } : { kind: 'int', value: 0n, pos: P0 };
  const rhs: Expr = mode === 'index' ? { kind: 'call', fn: t, args: [e], pos: P0 } : mode === 'semantic' ? e : lit;
  const assign: Assign = { kind: 'assign', array: 'r', indices: [], annot: mode === 'prophetic' ? e : null, rhs, pos: P0 };
  const v = (name: string): Expr => ({ kind: 'var', name, pos: P0 });
  const body: Cmd = {
    kind: 'for',
    var: 'i',
    bound: { kind: 'int', value: 3n, pos: P0 },
    pos: P0,
    body: { kind: 'for', var: 'j', bound: { kind: 'int', value: 3n, pos: P0 }, pos: P0, body: { kind: 'let', name: 'bq', value: { kind: 'binary', op: '<', left: v('i'), right: v('j'), pos: P0 }, body: assign, pos: P0 } },
  };
  const program: Program = {
    file: 'expr.sched',
    specs: [{ name: 's', params: [{ name: 'N', pos: P0 }, { name: 'M', pos: P0 }], assumes: [], tensors: TENSORS, equations: [], pos: P0 }],
    impls: [
      {
        name: 'p',
        spec: 's',
        assumes: [],
        decls: [
          ...ARRAYS.map((a) => ({ role: 'array' as const, name: a.name, vars: null, elem: a.elem, dims: a.dims.map((d) => ({ kind: 'int' as const, value: BigInt(d), pos: P0 })), value: null, where: null, pos: P0 })),
          { role: 'array' as const, name: 'r', vars: null, elem: t, dims: [], value: null, where: null, pos: P0 },
        ],
        body,
        pos: P0,
      },
    ],
  };
  try {
    typecheckProgram(program);
  } catch {
    return null;
  }
  return e;
}

interface ExprCase {
  readonly e: Expr;
  readonly t: ValueType;
  readonly env: Map<string, number | boolean>;
}

const envArb = fc.record({ N: fc.nat({ max: 3 }), M: fc.nat({ max: 3 }), i: fc.nat({ max: 2 }), j: fc.nat({ max: 2 }) }).map((o) => new Map<string, number | boolean>([...Object.entries(o), ['bq', o.i < o.j]]));

function valueCaseArb(mode: 'semantic' | 'prophetic'): fc.Arbitrary<ExprCase | null> {
  const sc = scopeOf(mode);
  return fc.tuple(skelExprArb({ exprDepth: 4 }), fc.nat({ max: GEN_TYPES.length - 1 }), envArb).map(([s, k, env]) => {
    const t = GEN_TYPES[k]!;
    const e = typed(toValue(s, t, sc), t, mode);
    return e === null ? null : show({ e, t, env });
  });
}

function show(c: ExprCase): ExprCase {
  const text = (): string => `${printed(c.e)} : ${c.t} with ${[...c.env].map(([k, v]) => `${k} = ${v}`).join(', ')}`;
  return Object.assign(Object.create({ [fc.toStringMethod]: text }) as object, c) as ExprCase;
}

function printed(e: Expr): string {
  return printExpr(e);
}

/** The memory as the independent evaluator sees it. */
function refMemory(mem: NamedMemory): RefMemory {
  return {
    cell: (name, idx) => {
      const a = mem.get(name);
      if (!a) throw new Error(`no array ${name}`);
      const k = a.ref.offset(idx.map((x) => Number(x)));
      if (k < 0 || idx.some((x) => x > BigInt(Number.MAX_SAFE_INTEGER) || x < 0n)) return null;
      const raw = cellValue(a.ref, a.cells, k);
      return { loc: a.ref.showLoc(k), cell: raw === undefined ? { kind: 'bot' } : { kind: 'value', v: fromProduction(raw, a.ref.elem) } };
    },
  };
}

function cellValue(ref: ArrayRef, cells: Cells, k: number): Value | undefined {
  if (cells.def[k] === 0) return undefined;
  const v = cells.data[k]!;
  return ref.elem === 'bool' ? v !== 0 : v;
}

// ---------------------------------------------------------------------------------------------

export const thm422 = defineProperty({
  id: 'thm-4.2.2',
  name: 'Thm 4.2.2 (reads determine evaluation)',
  statement: 'if rd_{E;μ}(e) is defined then for every μ′ agreeing with μ on it, rd_{E;μ′}(e) = rd_{E;μ}(e) and ⟦e⟧_{E;μ′} = ⟦e⟧_{E;μ}',
  ciRuns: 2000,
  arb: () => fc.tuple(valueCaseArb('semantic'), poolsArb, poolsArb),
  check: ([c, p1, p2], stats) => {
    if (c === null) return void stats.note('ill-typed (skipped)');
    const mu = memoryOf(p1);
    const env = c.env;
    const rd = readSet(c.e, env, mu);
    const v = evalExpr(c.e, env, mu);
    // μ′: μ on rd(e), the second pool elsewhere.
    const other = memoryOf(p2);
    const mu2 = new Map<string, { ref: ArrayRef; cells: Cells }>();
    const inRd = new Set(rd);
    for (const [name, a] of mu) {
      const o = other.get(name)!;
      const cells = o.cells.clone();
      for (let k = 0; k < a.ref.size; k++) if (inRd.has(a.ref.showLoc(k))) {
        cells.def[k] = a.cells.def[k]!;
        (cells.data as unknown as Value[])[k] = a.cells.data[k]!;
      }
      mu2.set(name, { ref: a.ref, cells });
    }
    const rd2 = readSet(c.e, env, mu2);
    const v2 = evalExpr(c.e, env, mu2);
    if (rd2.join('|') !== rd.join('|')) falsified(`rd differs: {${rd.join(', ')}} in μ, {${rd2.join(', ')}} in μ′`);
    if (!sameValue(v, v2)) falsified(`⟦e⟧ = ${showValue(v)} in μ but ${showValue(v2)} in μ′ (they agree on rd(e) = {${rd.join(', ')}})`);
    stats.note(rd.length > 0 ? 'reads memory' : 'reads nothing');
    stats.note(v === undefined ? '⊥' : 'value');
  },
});

export const fig43 = defineProperty({
  id: 'fig-4.3',
  name: 'Fig. 4.3/4.4 (evaluation and read sets, independent evaluator)',
  statement: '⟦e⟧_{E;μ} and rd_{E;μ}(e) of semantics/ equal those of the independent evaluator proofs/metatheory/ref-eval.ts (value, ⊥, and read set when defined)',
  ciRuns: 2000,
  arb: () => fc.tuple(valueCaseArb('semantic'), poolsArb),
  check: ([c, p], stats) => {
    if (c === null) return void stats.note('ill-typed (skipped)');
    const mu = memoryOf(p);
    const env = c.env;
    const v = evalExpr(c.e, env, mu);
    const ref = evaluate(c.e, new Map([...env].map(([k, x]) => [k, typeof x === 'number' ? BigInt(x) : x])), refMemory(mu));
    if (!ref.ok) {
      if (v !== undefined) falsified(`semantics/ gives ${showValue(v)}, the independent evaluator ⊥ (${ref.bot.bot} ${ref.bot.loc})`);
      return void stats.note('⊥');
    }
    if (v === undefined) falsified(`semantics/ gives ⊥, the independent evaluator ${valueText(ref.v)}`);
    if (valueText(fromProduction(v, c.t)) !== valueText(ref.v)) falsified(`semantics/ gives ${showValue(v)}, the independent evaluator ${valueText(ref.v)}`);
    const rd = readSet(c.e, env, mu);
    const rd2 = [...new Set(ref.reads)].sort();
    if (rd.join('|') !== rd2.join('|')) falsified(`rd(e) is {${rd.join(', ')}} in semantics/, {${rd2.join(', ')}} for the independent evaluator`);
    stats.note('value');
  },
});

export const thm441 = defineProperty({
  id: 'thm-4.4.1',
  name: 'Thm 4.4.1 (type soundness for expressions)',
  statement: 'an affine expression (condition) evaluates to an integer (a Boolean) in every E ⊨ Γ; if Γ ⊢_a e : τ and μ is well-typed over rd_{E;μ}(e), then ⟦e⟧_{E;μ} ∈ ⟦τ⟧',
  ciRuns: 2000,
  arb: () => fc.tuple(valueCaseArb('semantic'), poolsArb, skelExprArb({ exprDepth: 4 }), envArb),
  check: ([c, p, s, env], stats) => {
    // Affine: index expressions and conditions over N, M, i, j, bq.
    const sc = scopeOf('semantic');
    const iota = typed(toIndex(s, sc), 'i64', 'index');
    if (iota !== null) {
      const n = evalExpr(iota, env, new Map());
      if (!(typeof n === 'bigint' || (typeof n === 'number' && Number.isSafeInteger(n)))) falsified(`the index expression ${printed(iota)} evaluates to ${showValue(n)}, not an integer`);
    }
    const beta = toCond(s, sc);
    const cast: Expr = { kind: 'call', fn: 'bool', args: [beta], pos: P0 };
    if (typed(cast, 'bool', 'semantic') !== null) {
      const b = evalExpr(beta, env, new Map());
      if (typeof b !== 'boolean') falsified(`the condition ${printed(beta)} evaluates to ${showValue(b)}, not a Boolean`);
    }
    if (c === null) return void stats.note('ill-typed (skipped)');
    const mu = memoryOf(p);
    // μ well-typed over rd(e): every location read is in bounds and holds a value (the
    // independent evaluator says which; out of bounds means the location is not well-typed).
    const ref = evaluate(c.e, new Map([...c.env].map(([k, x]) => [k, typeof x === 'number' ? BigInt(x) : x])), refMemory(mu));
    if (!ref.ok) return void stats.note(`vacuous (${ref.bot.bot})`);
    const v = evalExpr(c.e, c.env, mu);
    if (v === undefined || !hasType(v, c.t)) falsified(`⟦e⟧ = ${showValue(v)} is not a value of ${c.t}`);
    stats.note(`typed ${c.t}`);
  },
});

export const thm442 = defineProperty({
  id: 'thm-4.4.2',
  name: 'Thm 4.4.2 (type soundness for prophetic expressions)',
  statement: 'if Γ ⊢_A t : τ then ⟦t⟧_{E;M} ∈ ⟦τ⟧ for every E ⊨ Γ and well-typed model M (seeded inputs of every type)',
  ciRuns: 2000,
  arb: () => fc.tuple(valueCaseArb('prophetic'), fc.integer()),
  check: ([c, seed], stats) => {
    if (c === null) return void stats.note('ill-typed (skipped)');
    const spec = typecheckProgram({
      file: 'model.sched',
      specs: [{ name: 's', params: [{ name: 'N', pos: P0 }, { name: 'M', pos: P0 }], assumes: [], tensors: TENSORS, equations: [], pos: P0 }],
      impls: [],
    }).specs.get('s')!;
    const params = new Map([
      ['N', c.env.get('N') as number],
      ['M', c.env.get('M') as number],
    ]);
    const model = new SpecModel(spec, params, seededInputs(seed), 'model.sched');
    const pe = model.compileProphetic(c.e, ['i', 'j', 'bq']);
    pe.frame[pe.slots[0]!] = c.env.get('i') as number;
    pe.frame[pe.slots[1]!] = c.env.get('j') as number;
    pe.frame[pe.slots[2]!] = c.env.get('bq') as boolean;
    const v = pe.fn(pe.frame);
    if (!hasType(v, c.t)) falsified(`⟦t⟧_{E;M} = ${showValue(v)} is not a value of ${c.t}`);
    stats.note(`typed ${c.t}`);
  },
});

/** Does e use an operation whose SMT encoding is uninterpreted (exp, log, pow)? */
function usesUninterpreted(e: Expr): boolean {
  let found = false;
  visit(e, (x) => {
    if (x.kind === 'call' && (x.fn === 'exp' || x.fn === 'log' || x.fn === 'pow')) found = true;
  });
  return found;
}

function zeroOf(t: ValueType): Value {
  return t === 'bool' ? false : t === 'i64' || t === 'u64' ? 0n : 0;
}

export const smtValues = defineProperty({
  id: 'smt-values',
  name: 'SMT value encoding (exact, proofs/verifier/smt-values.ts) against the semantics',
  statement: 'for every expression without uninterpreted operations, its IEEE/bit-vector encoding on the concrete memory and environment denotes exactly ⟦e⟧ (SMT equality: one NaN, +0 ≠ −0); a refutation in this encoding is then a real counterexample',
  ciRuns: 600,
  arb: () => fc.tuple(valueCaseArb('semantic'), poolsArb),
  check: async ([c, p], stats) => {
    if (c === null) return void stats.note('ill-typed (skipped)');
    if (usesUninterpreted(c.e)) return void stats.note('exp/log/pow (inexact by design)');
    const mu = memoryOf(p);
    const v = evalExpr(c.e, c.env, mu);
    if (v === undefined) return void stats.note('⊥');
    const enc = new ValueEncoder('ieee');
    const intVar = (n: string): string => {
      const x = c.env.get(n);
      if (typeof x === 'boolean') return x ? 'true' : 'false';
      if (x === undefined) throw new Error(`unbound ${n}`);
      return x < 0 ? `(- ${-x})` : String(x);
    };
    // Each array as a function of its indices, cell by cell (⊥ cells: any value; a defined
    // expression never reads them). Array reads are then encoded like any other read.
    const arrays: string[] = [];
    const env: EncodeEnv = { intVar, arrayRead: (r: ArrayRead, at: EncodeEnv) => (r.indices.length === 0 ? r.name : `(${r.name} ${r.indices.map((x) => enc.index(x, at)).join(' ')})`) };
    for (const a of ARRAYS) {
      const { ref, cells } = mu.get(a.name)!;
      if (a.rank === 0) {
        const x = cellValue(ref, cells, 0);
        arrays.push(`(define-fun ${a.name} () ${enc.sort(a.elem)} ${enc.literal(x ?? zeroOf(a.elem), a.elem)})`);
        continue;
      }
      const ps = a.dims.map((_, k) => `x${k}`);
      let body = enc.literal(zeroOf(a.elem), a.elem);
      for (let k = ref.size - 1; k >= 0; k--) {
        const x = cellValue(ref, cells, k);
        if (x === undefined) continue;
        const idx = a.dims.length === 1 ? [k] : [Math.floor(k / a.dims[1]!), k % a.dims[1]!];
        body = `(ite (and ${idx.map((d, m) => `(= ${ps[m]} ${d})`).join(' ')}) ${enc.literal(x, a.elem)} ${body})`;
      }
      arrays.push(`(define-fun ${a.name} (${ps.map((x) => `(${x} Int)`).join(' ')}) ${enc.sort(a.elem)} ${body})`);
    }
    const term = enc.value(c.e, env);
    if (enc.inexactReason() !== null) falsified(`the ieee encoding calls itself inexact (${enc.inexactReason()}) without exp/log/pow`);
    const script = ['(set-logic ALL)', ...enc.preamble(), ...arrays, `(assert (not (= ${term} ${enc.literal(v as Value, c.t)})))`].join('\n');
    const a = await checkSat(script, { timeoutMs: 20_000 });
    if (a.status === 'sat') falsified(`the encoding can differ from the semantics' value ${showValue(v)}:\n${script}`);
    if (/solver error/.test(a.reason ?? '')) falsified(`the encoding is not a well-formed script (${a.reason}):\n${script}`);
    stats.note(a.status === 'unsat' ? 'encoding = value' : `solver ${a.status} (${a.reason ?? ''})`);
  },
});

export const EXPRESSIONS: readonly NamedProperty[] = [thm422, fig43, thm441, thm442, smtValues];
