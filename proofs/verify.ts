// `verify`: symbolic evaluation of an implementation (proofs/symbolic.ts), then every proof
// obligation discharged by Z3. `valid` only when every obligation was proved (unsat); `invalid`
// when one is refuted (sat, with a model giving the parameters and loop variables); `unknown`
// otherwise, with the reason. Value obligations under the default `--float ieee` are first tried
// in the uninterpreted encoding (a proof there holds for IEEE too, and is much cheaper).

import type { CheckedImpl } from '../core/typecheck.ts';
import { parseSExprs, type SExpr } from '../smt/sexpr.ts';
import type { FloatMode } from '../smt/values.ts';
import { checkSat, DEFAULT_TIMEOUT_MS, type SolverAnswer } from '../smt/z3.ts';
import { failureClass, type Obligation } from './obligation.ts';
import { type EvaluationLog, type PendingObligation, SymbolicEvaluator, UnsupportedConstruct } from './symbolic.ts';
import { replay, smallParameters } from './replay.ts';

export type Verdict = 'valid' | 'invalid' | 'unknown';

export interface Counterexample {
  /** Parameters and loop variables (source names) of the refuted obligation. */
  readonly values: Record<string, string>;
  readonly line: number;
  readonly col: number;
  readonly obligation: string;
  readonly description: string;
}

export interface ObligationOutcome {
  readonly obligation: Obligation;
  readonly status: 'proved' | 'refuted' | 'unknown';
  readonly ms: number;
  readonly reason: string | null;
}

export interface VerifyResult {
  readonly impl: string;
  readonly spec: string;
  readonly verdict: Verdict;
  readonly class: string | null;
  readonly reason: string | null;
  readonly counterexample: Counterexample | null;
  readonly vcs: number;
  readonly ms: number;
  readonly float: FloatMode;
  /** Every obligation with its outcome (certificates are written from these). */
  readonly outcomes: readonly ObligationOutcome[];
}

export interface VerifyOptions {
  readonly float?: FloatMode;
  readonly timeoutMs?: number;
  readonly log?: EvaluationLog;
}

/** Z3-only options, prepended in-process (certificates stay solver-neutral). */
const FAST = '(set-option :smt.mbqi false)';

function modelValues(out: string): Map<string, string> {
  const m = new Map<string, string>();
  let parsed: SExpr[];
  try {
    parsed = parseSExprs(out);
  } catch {
    return m;
  }
  const show = (e: SExpr): string => (typeof e === 'string' ? e : `(${e.map(show).join(' ')})`);
  const visit = (e: SExpr): void => {
    if (typeof e === 'string') return;
    if (e[0] === 'define-fun' && e.length === 5 && Array.isArray(e[2]) && e[2].length === 0 && typeof e[1] === 'string') {
      const name = e[1].replace(/^\|(.*)\|$/, '$1');
      const v = e[4]!;
      const txt = show(v);
      const neg = /^\(- (\d+)\)$/.exec(txt);
      m.set(name, neg ? `-${neg[1]}` : txt);
      return;
    }
    for (const x of e) visit(x);
  };
  for (const e of parsed) visit(e);
  return m;
}

/**
 * Presburger obligations (no values) are decided with a model on refutation. Value obligations
 * quantify over the spec's equations: without model-based instantiation Z3 proves them fast, and
 * their refutations come from concrete replay instead (proofs/replay.ts).
 */
async function discharge(o: Obligation, timeoutMs: number): Promise<SolverAnswer> {
  if (o.float === null) return checkSat(o.script, { timeoutMs, model: true });
  return checkSat(`${FAST}\n${o.script}`, { timeoutMs, model: true });
}

export async function verifyImpl(ci: CheckedImpl, opts: VerifyOptions = {}): Promise<VerifyResult> {
  const t0 = performance.now();
  const float = opts.float ?? 'ieee';
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const base = { impl: ci.impl.name, spec: ci.spec.spec.name, float };
  const ev = new SymbolicEvaluator(ci, opts.log ?? null);
  try {
    ev.run();
  } catch (e) {
    if (e instanceof UnsupportedConstruct) {
      return { ...base, verdict: 'unknown', class: 'unsupported', reason: e.message, counterexample: null, vcs: 0, ms: performance.now() - t0, outcomes: [] };
    }
    throw e;
  }
  // Evaluation order: an obligation may rely on the annotations checked before it.
  const pending: PendingObligation[] = [...ev.obligations];

  const outcomes: ObligationOutcome[] = [];
  let failure: { o: Obligation; p: PendingObligation; model: Map<string, string> } | null = null;
  let unknownReason: string | null = null;
  /** The first value obligation not proved: replayed concretely at the end. */
  let unproved: { o: Obligation; p: PendingObligation; model: Map<string, string> } | null = null;
  for (let p of pending) {
    let modes: FloatMode[] = p.usesValues ? (float === 'ieee' ? ['uf', 'ieee'] : [float]) : ['ieee'];
    let answer: SolverAnswer | null = null;
    let o: Obligation | null = null;
    for (let attempt = 0; attempt < 2; attempt++) {
      for (const mode of modes) {
        o = p.render(mode);
        answer = await discharge(o, timeoutMs);
        if (answer.status === 'unsat') break;
      }
      if (answer!.status !== 'unsat' && p.fallback && attempt === 0) {
        p = p.fallback();
        modes = float === 'ieee' ? ['uf', 'ieee'] : [float];
        continue;
      }
      break;
    }
    const a = answer!;
    const status = a.status === 'unsat' ? 'proved' : a.status === 'sat' ? 'refuted' : 'unknown';
    outcomes.push({ obligation: o!, status, ms: a.ms, reason: a.reason });
    if (status !== 'proved' && p.usesValues) {
      // Values: a refutation or an unknown is settled by concrete replay below.
      unproved ??= { o: o!, p, model: modelValues(a.output) };
      if (status === 'unknown' && unknownReason === null) unknownReason = `${o!.id} (${o!.description}): ${a.reason ?? 'unknown'}`;
      continue;
    }
    if (status === 'refuted' && failure === null) {
      failure = { o: o!, p, model: modelValues(a.output) };
      break;
    }
    if (status === 'unknown' && unknownReason === null) unknownReason = `${o!.id} (${o!.description}): ${a.reason ?? 'unknown'}`;
  }
  if (failure === null && unproved !== null) {
    const u = unproved;
    const prefer = new Map<string, bigint>();
    for (const p of ci.spec.params) {
      const v = u.model.get(p);
      if (v !== undefined && /^-?\d+$/.test(v)) prefer.set(p, BigInt(v));
    }
    const candidates = await smallParameters(ci, 6, prefer.size === ci.spec.params.length ? prefer : null, u.p.context);
    const found = await replay(ci, candidates, [0, 1, 2, 3, 4]);
    if (found !== null) {
      const ms = performance.now() - t0;
      return {
        ...base,
        verdict: 'invalid',
        class: found.class,
        reason: `${found.detail} (concrete run with ${Object.entries(found.params).map(([k, v]) => `${k} = ${v}`).join(', ')}, input seed ${found.seed}; obligation ${u.o.id}: ${u.o.description})`,
        counterexample: { values: found.params, line: found.line || u.o.line, col: found.line ? found.col : u.o.col, obligation: u.o.id, description: u.o.description },
        vcs: outcomes.length,
        ms,
        outcomes,
      };
    }
    if (outcomes.some((x) => x.obligation === u.o && x.status === 'refuted')) failure = u;
    else unknownReason ??= `${u.o.id} (${u.o.description}): not proved, and no concrete counterexample found`;
  }
  const ms = performance.now() - t0;
  if (failure !== null) {
    const values: Record<string, string> = {};
    for (const v of failure.p.report) {
      const val = failure.model.get(v);
      if (val !== undefined) values[ev.source(v)] = val;
    }
    const o = failure.o;
    return {
      ...base,
      verdict: 'invalid',
      class: failureClass(o.kind),
      reason: `${o.description} fails (line ${o.line})`,
      counterexample: { values, line: o.line, col: o.col, obligation: o.id, description: o.description },
      vcs: outcomes.length,
      ms,
      outcomes,
    };
  }
  if (unknownReason !== null) {
    return { ...base, verdict: 'unknown', class: unknownReason.includes('timeout') ? 'timeout' : null, reason: unknownReason, counterexample: null, vcs: outcomes.length, ms, outcomes };
  }
  return { ...base, verdict: 'valid', class: null, reason: null, counterexample: null, vcs: outcomes.length, ms, outcomes };
}
