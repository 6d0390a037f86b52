// The results of thesis chapter 5 over random annotated implementations of small specs
// (proofs/metatheory/gen/annotated.ts): prophetic soundness (Thm 5.3.1) — the prophetic evaluation Γ ⊢ c : Δh
// of proofs/verifier/symbolic.ts, evaluated concretely, is the δμ of every run whose annotations all hold —
// and soundness of the verifier (Thm 5.5.4), cross-checked against concrete runs: whenever
// `verifyImpl` says valid, runs on random parameters and inputs match the spec; whenever a run
// mismatches or fails, `verifyImpl` does not say valid.

import fc from 'fast-check';
import type { Assign, Cmd } from '../../../core/language/ast.ts';
import { SchedInputError } from '../../../core/language/diagnostics.ts';
import { heapClauses } from '../../../core/presburger/heap.ts';
import { evalFormula, evalTerm } from '../../../core/presburger/eval.ts';
import type { PRel } from '../../../core/presburger/types.ts';
import type { CheckedImpl } from '../../../core/language/typecheck.ts';
import type { DerivationNode } from '../../../semantics/derivation.ts';
import type { Int } from '../../../semantics/int.ts';
import type { SpecModel } from '../../../semantics/model.ts';
import { runImpl, type RunResult } from '../../../semantics/run.ts';
import { sameValue, showValue, type Value } from '../../../semantics/values.ts';
import { annotatedArb, type AnnotatedCase } from '../gen/annotated.ts';
import { fromProduction, valueOfJson, valueText } from '../ref-eval.ts';
import { SymbolicEvaluator, UnsupportedConstruct } from '../../verifier/symbolic.ts';
import { HOLE_PREFIX, type TemplateTable } from '../../verifier/template.ts';
import { verifyImpl } from '../../verifier/verify.ts';
import { defineProperty, falsified, type NamedProperty, type Stats } from './framework.ts';
import { compile } from './harness.ts';

/** Parameter vectors to run a case on: every combination of 0…4 that satisfies the assumptions. */
function candidateParams(ci: CheckedImpl): Map<string, bigint>[] {
  let out: Map<string, bigint>[] = [new Map()];
  for (const p of ci.spec.params) out = out.flatMap((m) => [0n, 1n, 2n, 3n, 4n].map((v) => new Map([...m, [p, v]])));
  return out;
}

/** Runs of `ci` on `count` parameter vectors (chosen by `seed`) that satisfy the assumptions. */
function runs(ci: CheckedImpl, seed: number, count: number, derivation: boolean): { params: Map<string, bigint>; seed: number; r: RunResult }[] {
  const cands = candidateParams(ci);
  const out: { params: Map<string, bigint>; seed: number; r: RunResult }[] = [];
  let s = Math.abs(seed);
  for (let tries = 0; tries < cands.length && out.length < count; tries++) {
    const params = cands[(s + tries * 7) % cands.length]!;
    try {
      out.push({ params, seed: s % 5, r: runImpl(ci, params, { seed: s % 5, derivation }) });
    } catch (e) {
      if (!(e instanceof SchedInputError)) throw e; // an assumption does not hold
    }
    s = (s * 31 + 7) % 1_000_003;
  }
  return out;
}

function showParams(p: ReadonlyMap<string, bigint>): string {
  return [...p].map(([k, v]) => `${k} = ${v}`).join(', ');
}

// ---------------------------------------------------------------------------------------------
// Thm 5.3.1

/** Assignments of a command by source position (derivation nodes name commands by position). */
function assignsByPos(c: Cmd, out = new Map<string, Assign>()): Map<string, Assign> {
  switch (c.kind) {
    case 'assign':
      out.set(`${c.pos.line}:${c.pos.col}`, c);
      break;
    case 'seq':
      c.cmds.forEach((x) => assignsByPos(x, out));
      break;
    case 'if':
      assignsByPos(c.then, out);
      if (c.else) assignsByPos(c.else, out);
      break;
    case 'let':
    case 'for':
    case 'par':
    case 'allocate':
      assignsByPos(c.body, out);
      break;
    case 'skip':
      break;
  }
  return out;
}

function intOfJson(j: unknown): Int | boolean {
  if (typeof j === 'boolean') return j;
  if (typeof j === 'number') return j;
  return BigInt(j as string) <= BigInt(Number.MAX_SAFE_INTEGER) && BigInt(j as string) >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(j) : BigInt(j as string);
}

/**
 * Does every U-ASSIGN of the derivation write the value its annotation denotes in the model
 * (the hypothesis of Thm 5.3.1)? Returns the first one that does not, or null.
 */
function annotationFailure(ci: CheckedImpl, root: DerivationNode, model: SpecModel, elemOf: (label: string) => string): string | null {
  const assigns = assignsByPos(ci.impl.body);
  const params = new Set(ci.spec.params);
  const compiled = new Map<string, ReturnType<SpecModel['compileProphetic']>>();
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    stack.push(...n.premises);
    if (n.rule !== 'U-ASSIGN') continue;
    const a = assigns.get(`${n.line}:${n.col}`);
    if (!a || a.annot === null) return `no annotated assignment at ${n.line}:${n.col}`;
    const vars = Object.keys(n.env).filter((k) => !params.has(k));
    const key = `${n.line}:${n.col}:${vars.join(',')}`;
    let pe = compiled.get(key);
    if (!pe) compiled.set(key, (pe = model.compileProphetic(a.annot, vars)));
    vars.forEach((v, k) => (pe!.frame[pe!.slots[k]!] = intOfJson(n.env[v])));
    const want = pe.fn(pe.frame);
    const loc = String(n.facts.location);
    const elem = elemOf(loc.slice(0, loc.lastIndexOf('['))) as Parameters<typeof valueOfJson>[1];
    const got = valueOfJson(n.facts.value, elem);
    if (got === null || valueText(got) !== valueText(fromProduction(want, elem))) return `${loc} := ${JSON.stringify(n.facts.value)} but its annotation denotes ${showValue(want)} (line ${n.line})`;
  }
  return null;
}

/** ⟦Δh⟧_{E;M} on the boxes of the global arrays (with a margin): location → values. */
function evalHeap(dh: PRel, params: ReadonlyMap<string, bigint>, dims: ReadonlyMap<string, readonly number[]>, model: SpecModel, table: TemplateTable): Map<string, Value[]> {
  const out = new Map<string, Value[]>();
  const maxParam = Math.max(0, ...[...params.values()].map(Number));
  const W = BigInt(2 * maxParam + 10);
  const opts = { quantRange: [-W, W] as const };
  const templates = new Map<string, ReturnType<SpecModel['compileProphetic']>>();
  for (const cl of heapClauses(dh)) {
    const box = dims.get(cl.array);
    if (!box) falsified(`Δh writes array ${cl.array}, which is not a global array`);
    const t = table.get(cl.ctx);
    if (!t) throw new Error(`no template ${cl.ctx}`);
    let pe = templates.get(cl.ctx);
    if (!pe) templates.set(cl.ctx, (pe = model.compileProphetic(t.expr, Array.from({ length: t.arity }, (_, k) => `${HOLE_PREFIX}${k}`))));
    const env = new Map(params);
    const visitIndex = (k: number): void => {
      if (k === cl.indexVars.length) return visitValue(0);
      for (let x = -2; x < box[k]! + 2; x++) {
        env.set(cl.indexVars[k]!, BigInt(x));
        visitIndex(k + 1);
      }
    };
    const visitValue = (j: number): void => {
      if (j === cl.valueVars.length) {
        if (!evalFormula(cl.guard, env, opts)) return;
        const loc = `${cl.array}[${cl.indexVars.map((v) => String(env.get(v))).join(', ')}]`;
        cl.valueVars.forEach((v, m) => (pe!.frame[pe!.slots[m]!] = Number(env.get(v)!)));
        const vals = out.get(loc) ?? [];
        vals.push(pe!.fn(pe!.frame));
        out.set(loc, vals);
        return;
      }
      const def = cl.args[j];
      if (def) {
        env.set(cl.valueVars[j]!, evalTerm(def, env, opts));
        visitValue(j + 1);
      } else
        for (let y = -W; y <= W; y++) {
          env.set(cl.valueVars[j]!, y);
          visitValue(j + 1);
        }
    };
    visitIndex(0);
  }
  return out;
}

export const thm531 = defineProperty({
  id: 'thm-5.3.1',
  name: 'Thm 5.3.1 (prophetic soundness)',
  statement: 'if Γ ⊢ c : Δh, E ⊨ Γ, E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ and every assignment of the run writes the value of its annotation in the model M, then δμ = ⟦Δh⟧_{E;M}',
  ciRuns: 1000,
  arb: () => fc.tuple(annotatedArb({ mutate: 0.4 }), fc.integer()),
  check: ([c, seed], stats) => {
    const ci = compile(c.src);
    const ev = new SymbolicEvaluator(ci);
    let dh: PRel;
    try {
      dh = ev.propheticOf(ev.body, { facts: [], arrays: new Map(), vars: [] } as unknown as Parameters<SymbolicEvaluator['propheticOf']>[1]);
    } catch (e) {
      if (e instanceof UnsupportedConstruct) return void stats.note('unsupported');
      throw e;
    }
    for (const { params, seed: s, r } of runs(ci, seed, 2, true)) {
      if (!r.result.ok || !r.derivation) {
        stats.note(`vacuous run (${r.report.error?.kind ?? 'no derivation'})`);
        continue;
      }
      const d = r.derivation;
      const failure = annotationFailure(ci, d.root, r.model, (label) => d.arrays[label]?.elem ?? 'i32');
      if (failure !== null) {
        stats.note('vacuous run (an annotation does not hold)');
        continue;
      }
      const dmu = new Map<string, Value>();
      for (const e of r.result.effects!.dmu.values()) dmu.set(e.ref.showLoc(e.k), e.v);
      const dims = new Map([...r.memory].map(([name, { ref }]) => [name, ref.dims] as const));
      const heap = evalHeap(dh, params, dims, r.model, ev.templates);
      const where = `(${showParams(params)}, input seed ${s})`;
      for (const [l, vs] of heap) {
        if (vs.some((v) => !sameValue(v, vs[0]))) falsified(`⟦Δh⟧ is not functional at ${l}: ${vs.map(showValue).join(', ')} ${where}`);
        if (!dmu.has(l)) falsified(`⟦Δh⟧ has ${l} ↦ ${showValue(vs[0])} but the run does not write ${l} ${where}`);
        if (!sameValue(dmu.get(l), vs[0])) falsified(`δμ(${l}) = ${showValue(dmu.get(l))} but ⟦Δh⟧(${l}) = ${showValue(vs[0])} ${where}`);
      }
      for (const l of dmu.keys()) if (!heap.has(l)) falsified(`the run writes ${l} but ⟦Δh⟧ has no value there ${where}`);
      stats.note('runs compared');
      stats.note('locations compared', dmu.size);
    }
    stats.note(`case ${c.intended}`);
  },
});

// ---------------------------------------------------------------------------------------------
// Thm 5.5.4

/** Verification timeout per obligation (ms); `unknown` is always an acceptable answer. */
export const VERIFY_TIMEOUT_MS = 4000;

function soundness(id: string, name: string, ciRuns: number, arb: () => fc.Arbitrary<AnnotatedCase>): NamedProperty {
  return defineProperty<readonly [AnnotatedCase, number]>({
    id,
    name,
    statement: 'whenever verifyImpl says valid, concrete runs on random parameters and inputs match the spec; whenever a concrete run of a well-typed program mismatches or fails, verifyImpl does not say valid',
    ciRuns,
    arb: () => fc.tuple(arb(), fc.integer()),
    check: async ([c, seed], stats: Stats) => {
      const ci = compile(c.src);
      const v = await verifyImpl(ci, { timeoutMs: VERIFY_TIMEOUT_MS, runsFirst: false });
      const rs = runs(ci, seed, 4, false);
      const bad = rs.find((x) => x.r.report.outcome !== 'match');
      stats.note(`verdict ${v.verdict}`);
      stats.note(`${c.intended}: ${v.verdict}${bad ? ', a run fails' : ', runs match'}`);
      if (v.verdict === 'valid' && bad) {
        const rep = bad.r.report;
        falsified(`verifyImpl says valid but the run with ${showParams(bad.params)} (input seed ${bad.seed}) gives ${rep.outcome}: ${rep.error ? rep.error.message : JSON.stringify(rep.mismatches.slice(0, 3))}`);
      }
    },
  });
}

export const thm554 = soundness('thm-5.5.4', 'Thm 5.5.4 (soundness of the verifier, cross-checked)', 500, () => annotatedArb());

/** The same on racy schedules only (parallelised recurrences, in-place parallel updates). */
export const thm554Races = soundness('thm-5.5.4-races', 'Thm 5.5.4 (soundness of the verifier, racy schedules)', 20, () =>
  annotatedArb({ mutate: 0.8, mutations: ['in-place', 'par-recurrence'], families: ['stages', 'reduce'] }),
);

export const CHAPTER5: readonly NamedProperty[] = [thm531, thm554, thm554Races];
