// Counterexample replay (ARCHITECTURE decision 5): an obligation the solver could not prove is
// turned into a concrete counterexample by running the implementation with the big-step
// semantics on small parameter values (the solver's model first, then small models of the
// assumptions) and seeded inputs. A run error is a race, out-of-bounds or uninitialized read; a
// wrong output is an `output-mismatch`; right outputs with an assignment whose value differs from
// its annotation (evaluated in the spec's model at that instance) is an `annotation-mismatch`.
// Only a concrete run makes an `invalid` verdict out of a value obligation.

import type { Assign, Cmd } from '../core/ast.ts';
import type { CheckedImpl } from '../core/typecheck.ts';
import { SchedInputError } from '../core/diagnostics.ts';
import { formulaOf } from './affine.ts';
import { formulaToSmt, smtSymbol } from '../core/presburger/smtlib.ts';
import { andAll, geT, leT } from '../core/presburger/formula.ts';
import { constant, variable } from '../core/presburger/term.ts';
import { formulaVars } from '../core/presburger/vars.ts';
import type { Formula } from '../core/presburger/types.ts';
import { checkSat } from '../smt/z3.ts';
import { runImpl } from '../semantics/run.ts';
import { type Value, valueToJson } from '../semantics/values.ts';
import { type InputSource, seededInputs } from '../semantics/model.ts';
import type { ValueType } from '../core/ast.ts';
import type { DerivationNode } from '../semantics/derivation.ts';

export interface ReplayFinding {
  readonly class: string;
  readonly params: Record<string, string>;
  readonly seed: number;
  readonly line: number;
  readonly col: number;
  readonly detail: string;
}

/**
 * Small parameter values satisfying the assumptions (spec and impl) and `context` (the facts of
 * a failed obligation: loop bounds, branch conditions — so that the failing assignment runs),
 * smallest sums first.
 */
export async function smallParameters(ci: CheckedImpl, count: number, prefer: Map<string, bigint> | null, context: readonly Formula[] = []): Promise<Map<string, bigint>[]> {
  const params = ci.spec.params;
  const facts = [...[...ci.spec.spec.assumes, ...ci.impl.assumes].map((a) => formulaOf(a)), ...context];
  const out: Map<string, bigint>[] = [];
  const seen = new Set<string>();
  const push = (m: Map<string, bigint>): void => {
    const k = params.map((p) => m.get(p)).join(',');
    if (!seen.has(k)) {
      seen.add(k);
      out.push(m);
    }
  };
  // The solver's model of the failing context comes first when it is small; a large one
  // (M = 11798) comes last, after the minimal models: cheaper runs and a counterexample a user
  // can read.
  const preferred = prefer && params.every((p) => prefer.has(p)) ? prefer : null;
  const small = preferred !== null && params.every((p) => preferred.get(p)! >= -16n && preferred.get(p)! <= 16n);
  if (preferred && small) push(preferred);
  const others = new Set<string>();
  for (const f of context) for (const v of formulaVars(f)) if (!params.includes(v)) others.add(v);
  const decl = [...params, ...others].map((p) => `(declare-const ${smtSymbol(p)} Int)`);
  const bounds = params.map((p) => andAll([geT(variable(p), constant(0n)), leT(variable(p), constant(4096n))]));
  const base = [...decl, ...[...facts, ...bounds].map((f) => `(assert ${formulaToSmt(f)})`)].join('\n');
  const sum = params.length === 0 ? '0' : params.length === 1 ? smtSymbol(params[0]!) : `(+ ${params.map(smtSymbol).join(' ')})`;
  const model = async (extra: string): Promise<Map<string, bigint> | null> => {
    const r = await checkSat(`${base}\n${extra}\n(minimize ${sum})`, { timeoutMs: 5000, model: true });
    if (r.status !== 'sat') return null;
    const m = new Map<string, bigint>();
    for (const p of params) {
      const re = new RegExp(`\\(define-fun ${smtSymbol(p).replace(/[|]/g, '\\|')} \\(\\) Int\\s+(\\(- \\d+\\)|-?\\d+)\\)`);
      const x = re.exec(r.output);
      if (!x) return null;
      m.set(p, BigInt(x[1]!.replace(/\(- (\d+)\)/, '-$1')));
    }
    return m;
  };
  // The model of least sum; then the least with every parameter at least 2 (minimal models
  // often set a size to 0 or 1, where nothing or one iteration runs: a c written inside a k loop
  // is only wrong from P = 2 on); then models of sum at least the least plus 1, 2, 4, …: a few
  // distinct, still small, parameter values.
  const least = await model('');
  if (least !== null) {
    push(least);
    if (params.length > 0) {
      const wide = await model(params.map((p) => `(assert (>= ${smtSymbol(p)} 2))`).join('\n'));
      if (wide !== null) push(wide);
      const floor = params.reduce((a, p) => a + least.get(p)!, 0n);
      for (let step = 1n; out.length < count && step <= 64n; step *= 2n) {
        const m = await model(`(assert (>= ${sum} ${floor + step}))`);
        if (m === null) break;
        push(m);
      }
    }
  }
  if (preferred && !small) push(preferred);
  return out;
}

function assignments(c: Cmd, out: Assign[] = []): Assign[] {
  switch (c.kind) {
    case 'assign':
      out.push(c);
      break;
    case 'seq':
      for (const x of c.cmds) assignments(x, out);
      break;
    case 'if':
      assignments(c.then, out);
      if (c.else) assignments(c.else, out);
      break;
    case 'let':
    case 'allocate':
    case 'for':
    case 'par':
      assignments(c.body, out);
      break;
    case 'skip':
      break;
  }
  return out;
}

function* assignNodes(n: DerivationNode): Generator<DerivationNode> {
  if (n.rule === 'U-ASSIGN') yield n;
  for (const p of n.premises) yield* assignNodes(p);
}

/** Inputs that expose corner cases on about half of the points: IEEE specials (NaN, infinities,
 *  signed zeros, large values) for floats, the extremes of the range for integers. */
const SPECIAL = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 0, 1, -1, 16777217, 3.4e38, 1e-45];

function intExtremes(t: ValueType): Value[] | null {
  switch (t) {
    case 'i8':
      return [-128, 127, 0, -1, 1, -127];
    case 'i16':
      return [-32768, 32767, 0, -1, 1, -32767];
    case 'i32':
      return [-2147483648, 2147483647, 0, -1, 1, -2147483647];
    case 'u8':
      return [0, 255, 1, 254];
    case 'u16':
      return [0, 65535, 1, 65534];
    case 'u32':
      return [0, 4294967295, 1, 4294967294];
    case 'i64':
      return [-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n, 1n];
    case 'u64':
      return [0n, 2n ** 64n - 1n, 1n];
    default:
      return null;
  }
}

export function specialInputs(seed: number): InputSource {
  const base = seededInputs(seed);
  const coin = seededInputs(seed + 1000);
  const pick = (v: Value, t: ValueType, point: readonly unknown[], tensor: string): Value => {
    if (t === 'f32' || t === 'f64') {
      if (typeof v !== 'number' || v >= 0) return v;
      const x = SPECIAL[Math.floor(-v * SPECIAL.length) % SPECIAL.length]!;
      return t === 'f32' ? Math.fround(x) : x;
    }
    const ext = intExtremes(t);
    if (ext === null) return v;
    const c = coin.input(tensor, 'f64', point as never) as number;
    return c < 0 ? ext[Math.floor(-c * ext.length) % ext.length]! : v;
  };
  return {
    input: (tensor, t, point) => pick(base.input(tensor, t, point), t, point, tensor),
    unconstrained: (tensor, t, point) => pick(base.unconstrained(tensor, t, point), t, point, tensor),
  };
}

/** Inputs whose float magnitudes spread over 2^-30 … 2^30 (no specials): reordered sums and
 *  reassociated products round differently on them, where the default inputs (multiples of
 *  2^-23 in [-1, 1)) often sum exactly. Integers keep the default values. */
export function spreadInputs(seed: number): InputSource {
  const base = seededInputs(seed);
  const scale = seededInputs(seed + 2000);
  const spread = (v: Value, t: ValueType, point: readonly unknown[], tensor: string): Value => {
    if ((t !== 'f32' && t !== 'f64') || typeof v !== 'number') return v;
    const c = scale.input(tensor, 'f64', point as never) as number;
    const x = v * 2 ** (Math.floor(Math.abs(c) * 61) - 30);
    return t === 'f32' ? Math.fround(x) : x;
  };
  return {
    input: (tensor, t, point) => spread(base.input(tensor, t, point), t, point, tensor),
    unconstrained: (tensor, t, point) => spread(base.unconstrained(tensor, t, point), t, point, tensor),
  };
}

/** The seeds a verdict's replay tries: 0–2 default inputs, 3–4 corner cases, 5 spread magnitudes. */
export const REPLAY_SEEDS: readonly number[] = [0, 1, 2, 3, 4, 5];

function inputsFor(seed: number): { seed: number } | { inputs: InputSource } {
  if (seed < 3) return { seed };
  return { inputs: seed < 5 ? specialInputs(seed) : spreadInputs(seed) };
}

const RUN_CLASS: Record<string, string> = { race: 'race', 'out-of-bounds': 'out-of-bounds', uninitialized: 'uninitialized-read' };

/**
 * Look for a concrete counterexample over the candidate parameters and `seeds`. Returns the
 * first run-time error or output mismatch, else the first annotation mismatch, else null.
 */
/** Budget of a replay run with derivation recording (annotations are checked from it). */
const SMALL_STEPS = 300_000;

export async function replay(ci: CheckedImpl, candidates: readonly Map<string, bigint>[], seeds: readonly number[], maxCells = 1 << 20): Promise<ReplayFinding | null> {
  const annotated = new Map<string, Assign>();
  for (const a of assignments(ci.impl.body)) if (a.annot) annotated.set(`${a.pos.line}:${a.pos.col}`, a);
  // Kernels whose sizes the assumptions fix (N = 1024) do not fit: the spec's model alone would
  // memoise N³ points. Their value obligations stay unknown unless the solver refutes them.
  // An annotation mismatch with right outputs on one input is the weakest finding: the same
  // program may compute wrong outputs on another input, which is the class users need to see.
  // So it is kept as a fallback while the remaining runs look for an output or run-time error.
  let weakest: ReplayFinding | null = null;
  for (const params of candidates) {
    for (const seed of seeds) {
      const r = attempt(ci, params, seed, annotated, { derivation: true, maxCells, maxSteps: SMALL_STEPS });
      if (r === 'too-large') break;
      if (r === null) continue;
      if (r.class !== 'annotation-mismatch') return r;
      weakest ??= r;
    }
  }
  return weakest;
}

/** One run: a finding, null (nothing wrong seen), or 'too-large' (over the budget). */
function attempt(ci: CheckedImpl, params: Map<string, bigint>, seed: number, annotated: ReadonlyMap<string, Assign>, budget: { derivation: boolean; maxCells: number; maxSteps: number }): ReplayFinding | null | 'too-large' {
  let res;
  try {
    res = runImpl(ci, params, { ...inputsFor(seed), ...budget });
  } catch (e) {
    if (e instanceof SchedInputError) return 'too-large'; // arrays over the memory cap
    throw e;
  }
  const ps = Object.fromEntries([...params].map(([k, v]) => [k, v.toString()]));
  const rep = res.report;
  if (rep.outcome === 'error' && rep.error?.kind === 'limit') return 'too-large';
  if (rep.outcome === 'error' && rep.error) {
    return { class: RUN_CLASS[rep.error.kind] ?? rep.error.kind, params: ps, seed, line: rep.error.line, col: rep.error.col, detail: rep.error.message };
  }
  if (rep.outcome === 'mismatch') {
    const m = rep.mismatches[0]!;
    return { class: 'output-mismatch', params: ps, seed, line: 0, col: 0, detail: `${m.array}[${m.index.join(', ')}] = ${JSON.stringify(m.actual)}, the spec gives ${JSON.stringify(m.expected)} (${rep.mismatchCount} cell${rep.mismatchCount === 1 ? ' differs' : 's differ'})` };
  }
  // Outputs right: check every annotation against the value actually written (one compiled
  // annotation per assignment site).
  if (!res.derivation) return null;
  const compiled = new Map<string, ReturnType<typeof res.model.compileProphetic>>();
  for (const n of assignNodes(res.derivation.root)) {
    const site = `${n.line}:${n.col}`;
    const a = annotated.get(site);
    if (!a) continue;
    const vars = Object.keys(n.env).filter((v) => !ci.spec.params.includes(v));
    const key = `${site}|${vars.join(',')}`;
    let pe = compiled.get(key);
    if (pe === undefined) {
      pe = res.model.compileProphetic(a.annot!, vars);
      compiled.set(key, pe);
    }
    vars.forEach((v, k) => {
      const x = n.env[v];
      pe.frame[pe.slots[k]!] = typeof x === 'string' ? BigInt(x) : (x as number);
    });
    const expected = JSON.stringify(valueToJson(pe.fn(pe.frame)));
    const actual = JSON.stringify(n.facts['value']);
    if (expected !== actual) {
      const at = vars.map((v) => `${v} = ${n.env[v]}`).join(', ');
      return { class: 'annotation-mismatch', params: ps, seed, line: n.line, col: n.col, detail: `the assignment at line ${n.line} writes ${actual} to ${String(n.facts['location'])} where its annotation gives ${expected}${at ? ` (${at})` : ''}; the outputs are right on every input tried` };
    }
  }
  return null;
}
