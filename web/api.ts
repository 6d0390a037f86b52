// The playground's engine façade: one function per view, JSON in and JSON out (web/protocol.ts),
// calling the same modules as the command line (core/check, semantics/run, semantics/explore,
// proofs/verify). It holds no state between calls and no node: imports (the server adds HTTP,
// certificate files and cost measurement around it). Input errors — bad text, unknown impl,
// missing or bad parameters, violated assumptions — come back as diagnostics, never as throws.

import { checkSource } from '../core/language/check.ts';
import { diag, type Diagnostic, SchedInputError } from '../core/language/diagnostics.ts';
import { printCmd, printExpr } from '../core/language/printer.ts';
import type { CheckedImpl, CheckedProgram } from '../core/language/typecheck.ts';
import type { ElimEntry } from '../core/presburger/elimlog.ts';
import { eliminationLog } from '../core/presburger/elimlog.ts';
import type { DerivationNode } from '../semantics/derivation.ts';
import type { RunError as EngineRunError } from '../semantics/errors.ts';
import { runError } from '../semantics/errors.ts';
import type { NamedMemory } from '../semantics/eval.ts';
import { explore, finalMemory, memoryKey, namedMemoryKey, type ScheduleStep, smallSetup, stateKey } from '../semantics/explore.ts';
import { familyInputs, INPUT_FAMILIES, type InputFamily, type InputOverride, parseOverrideValue, withOverrides } from '../semantics/inputs.ts';
import { type ArrayRef, type Cells, getCell } from '../semantics/memory.ts';
import { compareOutputs, runImpl, specModel, checkParams } from '../semantics/run.ts';
import { describeStep, type RedexInfo, showEnv, showRules, SmallStep, type SmallState, type Term } from '../semantics/smallstep.ts';
import { valueToJson } from '../semantics/values.ts';
import { checkInterface } from '../proofs/verifier/interface.ts';
import { smallParameters } from '../proofs/verifier/replay.ts';
import { startFromScratch } from '../proofs/verifier/fresh-state.ts';
import { verifyImpl, type VerifyResult } from '../proofs/verifier/verify.ts';
import { FLOAT_MODES, type FloatMode } from '../proofs/verifier/smt-values.ts';
import type * as P from './protocol.ts';

/** Limits that keep one answer within seconds (the page says when one is reached). */
export const LIMITS = {
  runSteps: 20_000_000,
  maxCells: 1 << 22,
  tableCells: 4096,
  derivationNodes: 4000,
  stepChoices: 5000,
  exploreStates: 200_000,
  graphNodes: 400,
  verifyTimeoutMs: 10_000,
  logLines: 4000,
} as const;

export type NoCost<T> = Omit<T, 'cost'>;

// ---------------------------------------------------------------------------------------------
// Loading

function diagView(d: Diagnostic): P.Diag {
  return { line: d.line, col: d.col, phase: d.phase, message: d.expected !== null || d.found !== null ? `${d.message}${d.expected !== null ? ` (expected ${d.expected}` : ' ('}${d.found !== null ? `${d.expected !== null ? ', ' : ''}found ${d.found}` : ''})` : d.message };
}

function refused(diags: readonly Diagnostic[]): P.Refused {
  return { refused: true, diagnostics: diags.map(diagView) };
}

function refusal(line: number, col: number, message: string): P.Refused {
  return { refused: true, diagnostics: [{ line, col, phase: 'io', message }] };
}

/** Run `f`, turning an input error into diagnostics. */
async function guarded<T>(f: () => Promise<T> | T): Promise<T | P.Refused> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof SchedInputError) return refused(e.diagnostics);
    if (e instanceof RangeError && /call stack/.test(e.message)) return refusal(1, 1, 'the input is too deeply nested for the available stack');
    throw e;
  }
}

async function loadImpl(req: { source: string; file: string; impl: string }): Promise<{ checked: CheckedProgram; ci: CheckedImpl } | P.Refused> {
  const checked = await guarded(() => checkSource(req.file, req.source));
  if ('refused' in checked) return checked;
  const ci = checked.impls.find((i) => i.impl.name === req.impl);
  if (ci === undefined) {
    const names = checked.impls.map((i) => i.impl.name);
    return refusal(1, 1, names.length === 0 ? 'this file has no impl block' : `no impl named '${req.impl}' (the file has ${names.join(', ')})`);
  }
  return { checked, ci };
}

function paramValues(ci: CheckedImpl, given: Readonly<Record<string, string>>): Map<string, bigint> | P.Refused {
  const out = new Map<string, bigint>();
  for (const p of ci.spec.params) {
    const v = (given[p] ?? '').trim();
    if (!/^-?\d+$/.test(v)) return refusal(ci.spec.spec.pos.line, ci.spec.spec.pos.col, `parameter ${p} needs an integer value, got '${v}'`);
    out.set(p, BigInt(v));
  }
  return out;
}

function seedOf(s: string | undefined): bigint {
  return s !== undefined && /^-?\d+$/.test(s.trim()) ? BigInt(s.trim()) : 0n;
}

// ---------------------------------------------------------------------------------------------
// check

const DIRECTIVE = /^\/\/\s*(RUN|EXPLORE|EXPECT)(?:\s+([A-Za-z_][A-Za-z0-9_]*))?\s*:\s*(.*)$/;

/** The corpus lines of a file (`// RUN impl: --param N=4 => match`, `// EXPECT impl: valid`). */
function directives(source: string): { kind: string; impl: string | null; text: string }[] {
  const out: { kind: string; impl: string | null; text: string }[] = [];
  for (const line of source.split('\n')) {
    const m = DIRECTIVE.exec(line.trim());
    if (m) out.push({ kind: m[1]!, impl: m[2] ?? null, text: m[3]!.trim() });
  }
  return out;
}

/** Least parameter values by assumptions (the page re-checks the text at every pause in typing). */
const leastCache = new Map<string, Record<string, string>>();

/** The least parameter values the assumptions allow (the replay's search, proofs/verifier/replay.ts). */
async function leastParameters(ci: CheckedImpl): Promise<Record<string, string>> {
  const key = JSON.stringify([ci.spec.params, [...ci.spec.spec.assumes, ...ci.impl.assumes].map(printExpr)]);
  const hit = leastCache.get(key);
  if (hit) return hit;
  const least = (await smallParameters(ci, 1, null).catch(() => []))[0];
  const out = Object.fromEntries(ci.spec.params.map((p) => [p, (least?.get(p) ?? 1n).toString()]));
  if (leastCache.size > 500) leastCache.clear();
  if (least !== undefined) leastCache.set(key, out);
  return out;
}

/** Diagnostics and the implementations of a text, with parameter values to start from. */
export async function check(source: string, file: string): Promise<NoCost<P.CheckAnswer>> {
  const t0 = performance.now();
  const checked = await guarded(() => checkSource(file, source));
  if ('refused' in checked) return { diagnostics: checked.diagnostics, impls: [], ms: performance.now() - t0 };
  const dirs = directives(source);
  const expects = dirs.filter((d) => d.kind === 'EXPECT');
  const impls: P.ImplInfo[] = [];
  for (const [k, ci] of checked.impls.entries()) {
    const name = ci.impl.name;
    const mine = (kind: string) => dirs.filter((d) => d.kind === kind && (d.impl === name || (d.impl === null && checked.impls.length === 1)));
    const defaults: Record<string, string> = {};
    for (const d of [...mine('RUN'), ...mine('EXPLORE')]) {
      const ps = [...d.text.matchAll(/--param\s+([A-Za-z_][A-Za-z0-9_]*)=(-?\d+)/g)];
      if (ci.spec.params.every((p) => ps.some((m) => m[1] === p))) {
        for (const m of ps) defaults[m[1]!] = m[2]!;
        break;
      }
    }
    if (ci.spec.params.some((p) => defaults[p] === undefined)) Object.assign(defaults, await leastParameters(ci));
    const named = expects.find((e) => e.impl === name);
    const positional = expects.filter((e) => e.impl === null)[k];
    impls.push({ name, spec: ci.spec.spec.name, line: ci.impl.pos.line, params: ci.spec.params, defaults, expect: named?.text ?? positional?.text ?? null });
  }
  return { diagnostics: [], impls, ms: performance.now() - t0 };
}

// ---------------------------------------------------------------------------------------------
// Memories

function cellsJson(ref: ArrayRef, cells: Cells): { cells: P.JsonValue[]; truncated: boolean } {
  const n = Math.min(ref.size, LIMITS.tableCells);
  const out: P.JsonValue[] = new Array(n);
  for (let k = 0; k < n; k++) out[k] = valueToJson(getCell(cells, ref.elem, k));
  return { cells: out, truncated: ref.size > n };
}

function tables(ci: CheckedImpl, mem: NamedMemory): P.MemoryTable[] {
  const out: P.MemoryTable[] = [];
  for (const [name, { ref, cells }] of mem) {
    const role = ci.arrays.get(name)?.decl.role ?? 'array';
    out.push({ name, role, elem: ref.elem, dims: [...ref.dims], ...cellsJson(ref, cells) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// run

function errorView(e: EngineRunError): P.RunError {
  return {
    kind: e.kind, rule: e.rule, message: e.message, line: e.line, col: e.col, location: e.location, other: e.other,
    iterations: e.iterations ? { loop: e.iterations.loop, line: e.iterations.line, first: e.iterations.first, second: e.iterations.second } : null,
    env: e.env,
  };
}

function showFacts(f: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof f.location === 'string') parts.push(`${f.location} := ${String(f.value)}`);
  for (const [k, v] of Object.entries(f)) {
    if (k === 'location' || k === 'value' || k === 'reads' || k === 'rhs') continue;
    parts.push(`${k} = ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  }
  return parts.join('; ');
}

/** The derivation tree, breadth-first up to a node budget (the rest counted as omitted). */
function derivationView(root: DerivationNode): { tree: P.DerivNode; nodes: number } {
  let budget = LIMITS.derivationNodes;
  type Mutable = { -readonly [K in keyof P.DerivNode]: P.DerivNode[K] } & { premises: Mutable[] };
  const make = (n: DerivationNode): Mutable => {
    budget--;
    const env = Object.entries(n.env).map(([k, v]) => `${k} = ${v}`).join(', ');
    const dmu = n.dmu.slice(0, 6).map(([l, v]) => `${l} ↦ ${v === null ? '⊥' : v}`).join(', ') + (n.dmu.length > 6 ? ', …' : '');
    return { rule: n.rule, line: n.line, col: n.col, env, facts: showFacts(n.facts), dmu, dmuSize: n.dmu.length, rhoSize: n.rho.length, premises: [], omitted: n.premises.length };
  };
  const top = make(root);
  const queue: [DerivationNode, Mutable][] = [[root, top]];
  let count = 1;
  for (let q = 0; q < queue.length; q++) {
    const [n, v] = queue[q]!;
    for (const p of n.premises) {
      if (budget <= 0) break;
      const pv = make(p);
      count++;
      v.premises.push(pv);
      v.omitted--;
      queue.push([p, pv]);
    }
  }
  return { tree: top, nodes: count };
}

async function interfaceRefusal(ci: CheckedImpl, params: ReadonlyMap<string, bigint>): Promise<EngineRunError | null> {
  const r = await checkInterface(ci, { params });
  const v = r.violations[0];
  return v === undefined ? null : runError('interface', v.rule, { line: v.line, col: v.col }, null, v.message);
}

function overrides(ci: CheckedImpl, given: P.RunRequest['inputValues']): InputOverride[] | P.Refused {
  const out: InputOverride[] = [];
  for (const g of given ?? []) {
    const t = ci.spec.tensors.get(g.tensor);
    const v = t === undefined ? null : parseOverrideValue(g.value, t.type);
    if (t === undefined || v === null || !g.point.every((x) => /^-?\d+$/.test(x))) return refusal(1, 1, `input value ${g.tensor}(${g.point.join(',')}) = ${g.value} does not fit spec '${ci.spec.spec.name}'`);
    out.push({ tensor: g.tensor, point: g.point.map((x) => BigInt(x)), value: v });
  }
  return out;
}

/** The impl, its parameter values and the seed of an engine request. */
async function loadRun(req: P.EngineRequest): Promise<{ ci: CheckedImpl; params: Map<string, bigint>; seed: bigint } | P.Refused> {
  const l = await loadImpl(req);
  if ('refused' in l) return l;
  const params = paramValues(l.ci, req.params);
  if ('refused' in params) return params;
  return { ci: l.ci, params, seed: seedOf(req.seed) };
}

export async function run(req: P.RunRequest): Promise<NoCost<P.RunAnswer> | P.Refused> {
  const l = await loadRun(req);
  if ('refused' in l) return l;
  const { ci, params, seed } = l;
  const family = (INPUT_FAMILIES as readonly string[]).includes(req.family ?? '') ? (req.family as InputFamily) : 'default';
  const given = overrides(ci, req.inputValues);
  if ('refused' in given) return given;
  return guarded(async () => {
    const bad = await interfaceRefusal(ci, params);
    if (bad !== null) {
      return { impl: ci.impl.name, outcome: 'error' as const, error: errorView(bad), summary: `not run: the impl's interface breaks rule ${bad.rule}`, mismatches: [], before: [], after: [], derivation: null, derivationNodes: 0 };
    }
    const inputs = given.length > 0 ? withOverrides(familyInputs(family, seed), given) : undefined;
    const r = runImpl(ci, params, { seed, family, inputs, file: req.file, derivation: true, checkAnnotations: req.checkAnnotations === true, maxSteps: LIMITS.runSteps, maxCells: LIMITS.maxCells });
    let error = r.report.error;
    let outcome = r.report.outcome;
    if (req.checkAnnotations && outcome === 'match') {
      const a = r.annotations;
      if (a !== null) {
        outcome = 'error';
        error = runError('annotation', 'U-ASSIGN', { line: a.line, col: a.col }, a.location, `the assignment writes ${a.written} to ${a.location} where its annotation gives ${a.annotated}${a.at ? ` (${a.at})` : ''}; the outputs are right`);
      }
    }
    const rep = r.report;
    const stats = `${rep.writes} writes, ${rep.reads} reads`;
    const summary =
      outcome === 'error' && error ? `error (${error.kind}): ${error.message} — rule ${error.rule}; ${stats}`
      : outcome === 'mismatch' ? `mismatch: ${rep.mismatchCount} of ${rep.checked} output cells differ from the spec; ${stats}`
      : `match: ${rep.checked} output cells equal the spec; ${stats}`;
    const d = r.derivation ? derivationView(r.derivation.root) : null;
    return { impl: ci.impl.name, outcome, error: error ? errorView(error) : null, summary, mismatches: rep.mismatches, before: tables(ci, r.initial), after: tables(ci, r.memory), derivation: d?.tree ?? null, derivationNodes: d?.nodes ?? 0 };
  });
}

// ---------------------------------------------------------------------------------------------
// Small steps

/** The thread of a step: the path of ‖ sides from the root (`R·R·L`, compressed `R×2·L`). */
function threadOf(rules: readonly string[]): string {
  const sides = rules.filter((r) => r === 'PAR-L' || r === 'PAR-R').map((r) => (r === 'PAR-L' ? 'L' : 'R'));
  if (sides.length === 0) return '·';
  return showRules(sides).replace(/ ▸ /g, '·');
}

function stepInfo(rules: readonly string[], line: number | null, text: string): P.StepInfo {
  return { rules: showRules(rules), rule: rules[rules.length - 1] ?? '', thread: threadOf(rules), line, text };
}

function scheduleInfo(s: ScheduleStep): P.StepInfo {
  return stepInfo(s.rules.split(' ▸ '), s.line, s.text);
}

type Setup = ReturnType<typeof smallSetup>;

/** A right-nested chain of `seq` (c1; (c2; …)) or `par` (c1 ‖ (c2 ‖ …)) as a list. */
function spine(t: Term, k: 'seq' | 'par'): Term[] {
  const out: Term[] = [];
  let x = t;
  for (; x.k === k; x = x.k === 'seq' ? x.second : (x as Extract<Term, { k: 'par' }>).right) out.push(x.k === 'seq' ? x.first : (x as Extract<Term, { k: 'par' }>).left);
  out.push(x);
  return out;
}

function termView(setup: Setup, t: Term): P.TermView {
  switch (t.k) {
    case 'skip':
      return { k: 'skip' };
    case 'code':
      return { k: 'code', text: printCmd(t.cmd, 0), env: showEnv(setup.prog, t.cmd, t.env), line: t.cmd.pos.line };
    case 'loop': {
      const env = showEnv(setup.prog, t.cmd, t.env);
      return { k: 'loop', text: printCmd(t.cmd.body, 0), env: `${env ? `${env}, ` : ''}${t.cmd.var} = ${t.from} … ${t.n - 1}`, line: t.cmd.pos.line, from: t.from, n: t.n };
    }
    case 'seq':
      return { k: 'seq', items: spine(t, 'seq').map((x) => termView(setup, x)) };
    case 'par':
      return { k: 'par', threads: spine(t, 'par').map((x) => termView(setup, x)) };
    case 'inalloc':
      return { k: 'inalloc', array: t.ref.label(), body: termView(setup, t.body) };
  }
}

/** The local array instances of a term (their cells live in the store beside the globals). */
function locals(t: Term, out: ArrayRef[] = []): ArrayRef[] {
  if (t.k === 'inalloc') {
    out.push(t.ref);
    locals(t.body, out);
  } else if (t.k === 'seq') {
    locals(t.first, out);
    locals(t.second, out);
  } else if (t.k === 'par') {
    locals(t.left, out);
    locals(t.right, out);
  }
  return out;
}

function stateTables(ci: CheckedImpl, setup: Setup, s: SmallState): P.MemoryTable[] {
  const g = tables(ci, finalMemory(s, setup.globals));
  for (const ref of locals(s.term)) g.push({ name: ref.label(), role: 'local', elem: ref.elem, dims: [...ref.dims], ...cellsJson(ref, s.store.get(ref)) });
  return g;
}

function redexInfo(setup: Setup, r: RedexInfo & { access?: Parameters<typeof describeStep>[1]['access'] }): P.StepInfo {
  return stepInfo(r.rules, r.cmd?.pos.line ?? null, describeStep(setup.prog, r));
}

async function smallStart(req: P.EngineRequest): Promise<{ ci: CheckedImpl; params: Map<string, bigint>; setup: Setup; model: ReturnType<typeof specModel> } | P.Refused | { interfaceError: EngineRunError; ci: CheckedImpl }> {
  const l = await loadRun(req);
  if ('refused' in l) return l;
  const { ci, params, seed } = l;
  return guarded(async () => {
    const bad = await interfaceRefusal(ci, params);
    if (bad !== null) return { interfaceError: bad, ci };
    const model = specModel(ci, checkParams(ci.spec, params, req.file), { seed, file: req.file });
    return { ci, params, setup: smallSetup(ci, params, model, { mutable: false, file: req.file, maxCells: LIMITS.maxCells }), model };
  });
}

/** The configuration reached by taking the chosen enabled steps from the initial one. */
export async function step(req: P.StepRequest): Promise<NoCost<P.StepAnswer> | P.Refused> {
  const st = await smallStart(req);
  if ('refused' in st) return st;
  if ('interfaceError' in st) return refusal(st.interfaceError.line, st.interfaceError.col, `not run: ${st.interfaceError.message} (${st.interfaceError.rule})`);
  const { ci, setup, model } = st;
  if (req.choices.length > LIMITS.stepChoices) return refusal(1, 1, `at most ${LIMITS.stepChoices} steps in the stepper (use explore or run for longer executions)`);
  const machine = new SmallStep(setup.prog, setup.space);
  let s = setup.init;
  const taken: P.StepInfo[] = [];
  for (const c of req.choices) {
    const { steps } = machine.steps(s);
    const chosen = steps[c];
    if (chosen === undefined) break; // the text changed under the page: stop where the choices stop fitting
    taken.push(redexInfo(setup, chosen));
    s = chosen.next;
  }
  const { steps, blocked } = s.term.k === 'skip' ? { steps: [], blocked: [] } : machine.steps(s);
  const status = s.term.k === 'skip' ? 'final' : steps.length === 0 ? 'stuck' : 'running';
  let comparison: string | null = null;
  if (status === 'final') {
    const cmp = compareOutputs(ci, model, finalMemory(s, setup.globals));
    comparison = cmp.mismatchCount > 0 ? `mismatch: ${cmp.mismatchCount} of ${cmp.checked} output cells differ from the spec` : `match: ${cmp.checked} output cells equal the spec`;
  }
  return {
    impl: ci.impl.name, taken, term: termView(setup, s.term), memory: stateTables(ci, setup, s), initial: stateTables(ci, setup, setup.init),
    enabled: steps.map((x) => redexInfo(setup, x)), blocked: blocked.map((b) => errorView(b.error)), status, comparison,
  };
}

/** Every interleaving, with the state graph (up to LIMITS.graphNodes nodes) and the witnesses. */
export async function exploreStates(req: P.ExploreRequest): Promise<NoCost<P.ExploreAnswer> | P.Refused> {
  const st = await smallStart(req);
  if ('refused' in st) return st;
  if ('interfaceError' in st) return refusal(st.interfaceError.line, st.interfaceError.col, `not run: ${st.interfaceError.message} (${st.interfaceError.rule})`);
  const { ci, params, setup, model } = st;
  const ids = new Map<string, number>();
  const finalOf = new Map<number, number>();
  const finalKeys = new Map<string, number>();
  const outgoing = new Set<number>();
  const edges: P.GraphEdge[] = [];
  let truncated = false;
  const idOf = (key: string): number | null => {
    const id = ids.get(key);
    if (id !== undefined) return id;
    if (ids.size >= LIMITS.graphNodes) {
      truncated = true;
      return null;
    }
    ids.set(key, ids.size);
    return ids.size - 1;
  };
  ids.set(stateKey(setup.prog, setup.init, setup.globals), 0);
  const res = explore(setup.prog, setup.space, setup.init, setup.globals, {
    maxStates: Math.min(req.maxStates ?? LIMITS.exploreStates, LIMITS.exploreStates),
    por: req.por,
    onTransition: (from, to, s) => {
      const a = ids.get(from);
      if (a === undefined) return;
      outgoing.add(a);
      const fresh = !ids.has(to);
      const b = idOf(to);
      if (b === null) return;
      if (fresh && s.next.term.k === 'skip') {
        const mk = memoryKey(s.next.store, setup.globals);
        if (!finalKeys.has(mk)) finalKeys.set(mk, finalKeys.size);
        finalOf.set(b, finalKeys.get(mk)!);
      }
      edges.push({ from: a, to: b, rule: s.rules[s.rules.length - 1] ?? '', thread: threadOf(s.rules), text: describeStep(setup.prog, s) });
    },
  });
  // Depths: shortest schedules (the explorer goes depth first).
  const depth = new Array<number>(ids.size).fill(-1);
  const adj = new Map<number, number[]>();
  for (const e of edges) adj.set(e.from, [...(adj.get(e.from) ?? []), e.to]);
  depth[0] = 0;
  const queue = [0];
  for (let q = 0; q < queue.length; q++) {
    const n = queue[q]!;
    for (const m of adj.get(n) ?? []) if (depth[m] === -1) {
      depth[m] = depth[n]! + 1;
      queue.push(m);
    }
  }
  const nodes: P.GraphNode[] = [];
  for (let id = 0; id < ids.size; id++) {
    const fin = finalOf.get(id) ?? (id === 0 && setup.init.term.k === 'skip' ? 0 : undefined);
    const kind: P.GraphNode['kind'] = fin !== undefined ? 'final' : id === 0 ? 'initial' : outgoing.has(id) ? 'inner' : res.limit !== null || truncated ? 'unexplored' : 'stuck';
    nodes.push({ id, depth: Math.max(depth[id]!, 0), kind, final: fin ?? null });
  }
  // The big-step run on the same inputs (Thm 4.3.7: a deterministic exploration ends in μ ▷ δμ).
  const big = runImpl(ci, params, { seed: seedOf(req.seed), model, file: req.file, maxSteps: LIMITS.runSteps, maxCells: LIMITS.maxCells });
  let bigStep: string;
  if (!big.result.ok) bigStep = `the big-step semantics has no derivation: ${big.result.error.message} (rule ${big.result.error.rule})`;
  else if (res.outcome === 'deterministic' && res.witnesses.length === 1) bigStep = namedMemoryKey(big.memory, setup.globals) === res.witnesses[0]!.key ? 'a big-step derivation exists; its final memory is the one explored' : 'a big-step derivation exists, but ITS FINAL MEMORY DIFFERS (a bug: Thm 4.3.7)';
  else bigStep = 'a big-step derivation exists';
  const memTables = (arrays: Record<string, (string | number | boolean | null)[]>): P.MemoryTable[] =>
    setup.globals.map((g) => {
      const cells = arrays[g.name] ?? [];
      return { name: g.name, role: ci.arrays.get(g.name)?.decl.role ?? 'array', elem: g.elem, dims: [...g.dims], cells: cells.slice(0, LIMITS.tableCells), truncated: cells.length > LIMITS.tableCells };
    });
  return {
    impl: ci.impl.name, outcome: res.outcome, por: res.por, states: res.states, transitions: res.transitions, finals: res.finals, stuckStates: res.stuckStates, limit: res.limit,
    graph: { nodes, edges, truncated },
    witnesses: res.witnesses.map((w) => ({ memory: memTables(w.arrays), schedule: w.schedule.map(scheduleInfo) })),
    stuck: res.stuck ? { schedule: res.stuck.schedule.map(scheduleInfo), blocked: res.stuck.blocked.map(errorView) } : null,
    bigStep,
  };
}

// ---------------------------------------------------------------------------------------------
// verify

export interface Verified {
  readonly answer: NoCost<P.VerifyAnswer>;
  /** What a certificate bundle is written from (proofs/certificates/certificates.ts). */
  readonly result: VerifyResult;
  readonly eliminations: readonly ElimEntry[];
}

export async function verify(req: P.VerifyRequest): Promise<Verified | P.Refused> {
  const l = await loadImpl(req);
  if ('refused' in l) return l;
  const float = (FLOAT_MODES as readonly string[]).includes(req.float ?? '') ? (req.float as FloatMode) : 'ieee';
  const timeoutMs = Math.max(100, Math.min(req.timeoutMs ?? LIMITS.verifyTimeoutMs, 60_000));
  const log: { depth: number; text: string }[] = [];
  // A bundle holds exactly this verification's eliminations, byte-identically (as verify --certs).
  startFromScratch();
  const r = await verifyImpl(l.ci, {
    float,
    timeoutMs,
    log: (depth, text) => {
      if (log.length < LIMITS.logLines) log.push({ depth, text });
    },
  });
  const eliminations = [...eliminationLog()];
  const answer: NoCost<P.VerifyAnswer> = {
    impl: r.impl, spec: r.spec, verdict: r.verdict, class: r.class, reason: r.reason, assumptions: r.assumptions, float: r.float,
    counterexample: r.counterexample,
    replay: r.replay ? { params: r.replay.params, seed: r.replay.seed, inputs: r.replay.inputs, annotations: r.replay.annotations, inputValues: r.replay.inputValues, class: r.replay.class, shows: r.replay.shows } : null,
    obligations: r.outcomes.map((o) => ({ id: o.obligation.id, kind: o.obligation.kind, rule: o.obligation.rule, line: o.obligation.line, col: o.obligation.col, description: o.obligation.description, status: o.status, ms: o.ms, reason: o.reason })),
    log,
    timings: r.timings,
    bundle: null,
  };
  return { answer, result: r, eliminations };
}

export { diag };
