// The MLIR path's glue between the front end (compilers/mlir/), the verifier and the execution
// oracle (compilers/mlir/runner.ts, mlir-cpu-runner):
//
// - `adjustMlirVerdict`: the implementation's annotations are the front end's inference, not the
//   compiler's claim, so a refuted annotation that no run shows in the outputs
//   (annotation-mismatch, value-mismatch) says the inference was wrong, not the compiler:
//   `unknown (unconfirmed)`. An `invalid` that a run shows stands, and is run again under
//   mlir-cpu-runner on the same parameters and inputs (`confirm`).
// - `executionOracle`: the fourth oracle. Both modules run under mlir-cpu-runner on the same
//   inputs (drawn from the SCHED input source, so our runs see the very same values); the source's
//   real outputs are compared with the spec's model (is the spec the source's meaning?), the
//   target's with the big-step run of the implementation (is the translation the target's
//   meaning?), and the two real runs with each other (did the compiler change the result?).

import { checkSource } from '../../core/language/check.ts';
import { MlirSyntaxError, SourceRefused, translateMlir, Unsupported } from '../../compilers/mlir/translate.ts';
import { runPasses } from '../../compilers/mlir/runner.ts';
import { kernelArgNames } from '../../compilers/mlir/corpus-header.ts';
import { verifyImpl, type VerifyOptions } from '../verifier/verify.ts';
import { seededInputs } from '../../semantics/model.ts';
import type { CheckedImpl } from '../../core/language/typecheck.ts';
import type { ValueType } from '../../core/language/ast.ts';
import { familyInputs, type InputOverride, parseOverrideValue, withOverrides } from '../../semantics/inputs.ts';
import type { InputSource } from '../../semantics/model.ts';
import { forEachCell, runImpl, specModel } from '../../semantics/run.ts';
import { getCell } from '../../semantics/memory.ts';
import type { Value } from '../../semantics/values.ts';
import type { Int } from '../../semantics/int.ts';
import { asVar, evalTerm } from '../../core/presburger/index.ts';
import type { MlirTranslation } from '../../compilers/mlir/translate.ts';
import { type KArray, storesOf } from '../../compilers/mlir/kernel.ts';
import { confirmGuarded, type GuardedWording } from './halide-guarded.ts';
import { inputName } from '../../compilers/mlir/spec.ts';
import { type ArgSpec, execute, type Execution, MlirRunError } from '../../compilers/mlir/runner.ts';
import { cellOfNumber, type ElemType, floatOfBits, isElemType, renderCell } from '../../compilers/mlir/cells.ts';
import type { Replay, VerifyResult } from '../verifier/verify.ts';

const MLIR_WORDING: GuardedWording = { code: "the MLIR program", origin: 'an scf.if on data', store: 'if (c) store' };

/** The class of a verdict the inference, not the compiler, may be to blame for. */
const INFERENCE_CLASSES = new Set(['annotation-mismatch', 'value-mismatch']);

export function adjustMlirVerdict(r: VerifyResult): VerifyResult {
  if (r.verdict !== 'invalid' || r.class === null || !INFERENCE_CLASSES.has(r.class)) return r;
  return {
    ...r,
    verdict: 'unknown',
    class: 'unconfirmed',
    reason: `an inferred annotation does not hold and no run shows a wrong output (the front end's inference, not necessarily the compiler): ${r.reason ?? r.class}`,
  };
}

// ---------------------------------------------------------------------------------------------
// The execution oracle

export interface CellDifference {
  readonly array: string;
  readonly index: readonly number[];
  readonly expected: string;
  readonly actual: string;
}

export interface Agreement {
  readonly cells: number;
  readonly differences: number;
  readonly examples: readonly CellDifference[];
}

export interface OracleReport {
  readonly params: Record<string, string>;
  /** Why the oracle did not run (a type the runner's harness has no cells for, a run error). */
  readonly skipped: string | null;
  /** mlir-cpu-runner on the source against the spec's model. */
  readonly source: Agreement | null;
  /** mlir-cpu-runner on the target against the big-step run of the implementation. */
  readonly target: Agreement | null;
  /** mlir-cpu-runner on the source against mlir-cpu-runner on the target. */
  readonly compiler: Agreement | null;
  /** The big-step run of the implementation: match, mismatch (outputs) or error (its message). */
  readonly bigstep: string | null;
  /** A run that faulted under mlir-cpu-runner (which module, and how). */
  readonly runtime: string | null;
  readonly ms: number;
}

function elemOf(a: KArray): ElemType | null {
  const t = a.mtype.kind === 'memref' ? a.mtype.elem : a.mtype;
  const name = t.kind === 'float' ? t.name : t.kind === 'int' && t.signedness === 'signless' ? `i${t.width}` : t.kind === 'index' ? 'index' : '';
  return isElemType(name) ? name : null;
}

function cellOf(e: ElemType, v: Value): bigint | null {
  if (typeof v === 'boolean') return null;
  return cellOfNumber(e, v);
}

function sameCell(e: ElemType, a: bigint, b: bigint): boolean {
  if (a === b) return true;
  return (e === 'f32' || e === 'f64') && Number.isNaN(floatOfBits(e, a)) && Number.isNaN(floatOfBits(e, b));
}

class Tally {
  cells = 0;
  differences = 0;
  readonly examples: CellDifference[] = [];
  see(array: string, index: readonly number[], e: ElemType, expected: bigint | null, actual: bigint | null): void {
    this.cells++;
    if (expected !== null && actual !== null && sameCell(e, expected, actual)) return;
    this.differences++;
    if (this.examples.length < 5) this.examples.push({ array, index: [...index], expected: expected === null ? '⊥' : renderCell(e, expected), actual: actual === null ? '⊥' : renderCell(e, actual) });
  }
  done(): Agreement {
    return { cells: this.cells, differences: this.differences, examples: this.examples };
  }
}

/**
 * Run both modules under mlir-cpu-runner at `params` on `inputs`, and the translations with our
 * semantics on the same values. `source`/`target` are the modules in generic form.
 */
export function executionOracle(tr: MlirTranslation, ci: CheckedImpl, modules: { source: string; target: string }, params: ReadonlyMap<string, bigint>, inputs: InputSource, runs?: { readonly source: Execution; readonly target: Execution }): OracleReport {
  const t0 = performance.now();
  const paramsText = Object.fromEntries([...params].map(([k, v]) => [k, v.toString()]));
  const skip = (why: string): OracleReport => ({ params: paramsText, skipped: why, source: null, target: null, compiler: null, bigstep: null, runtime: null, ms: performance.now() - t0 });
  // A product parameter is what its factors make (the runner is given the factors).
  const env = new Map([...params]);
  for (const p of tr.source.params) if (p.product) env.set(p.name, evalTerm(p.product[0], env) * evalTerm(p.product[1], env));
  const args = tr.source.arrays.filter((a) => a.origin.kind === 'arg' || a.origin.kind === 'scalar');
  // The arguments in signature order: arrays, then the index arguments (parameters) by position.
  const specs: ArgSpec[] = [];
  const shapes = new Map<string, number[]>();
  for (const a of args) {
    const e = elemOf(a);
    if (e === null) return skip(`${a.name} has an element type the runner's harness does not make (${a.elem})`);
    const pos = a.origin.kind === 'arg' || a.origin.kind === 'scalar' ? a.origin.index : -1;
    const sched = a.elem as ValueType;
    if (a.origin.kind === 'scalar') {
      const v = inputs.input(inputName(a), sched, []);
      if (typeof v === 'boolean') return skip(`${a.name} is an i1 scalar`);
      specs[pos] = v;
      continue;
    }
    const shape = a.dims.map((d) => Number(evalTerm(d, env)));
    shapes.set(a.name, shape);
    const cells: bigint[] = [];
    let bad = false;
    forEachCell(shape, (idx) => {
      const c = cellOf(e, inputs.input(inputName(a), sched, idx));
      if (c === null) bad = true;
      cells.push(c ?? 0n);
    });
    if (bad) return skip(`${a.name}: an input value the runner cannot hold`);
    specs[pos] = { shape, cells };
  }
  for (const p of tr.source.params) if (p.arg !== undefined) specs[p.arg] = env.get(p.name)!;
  let src: Execution;
  let tgt: Execution;
  if (runs) {
    // Runs made already, on these very inputs (inputsOfRun).
    src = runs.source;
    tgt = runs.target;
  } else {
  try {
    src = execute(modules.source, tr.func, specs, 0, { generic: true, fileName: 'source' });
  } catch (e) {
    if (e instanceof MlirRunError) return { ...skip(`the source: ${e.message}`), runtime: e.kind === 'runtime' ? `source: ${e.message}` : null };
    throw e;
  }
  try {
    tgt = execute(modules.target, tr.func, specs, 0, { generic: true, fileName: 'target' });
  } catch (e) {
    if (e instanceof MlirRunError) return { ...skip(`the target: ${e.message}`), runtime: e.kind === 'runtime' ? `target: ${e.message}` : null };
    throw e;
  }
  }
  const model = specModel(ci, new Map([...env].map(([k, v]) => [k, Number(v) as Int])), { inputs });
  const run = runImpl(ci, env, { inputs, model });
  const srcT = new Tally();
  const tgtT = new Tally();
  const cmpT = new Tally();
  for (const a of args) {
    const o = a.origin;
    if (o.kind !== 'arg') continue;
    const e = elemOf(a)!;
    const shape = shapes.get(a.name)!;
    const rs = src.memrefs.find((m) => m.arg === o.index)!;
    const rt = tgt.memrefs.find((m) => m.arg === o.index)!;
    const outTensor = `${inputName(a)}_out`;
    const hasOut = ci.spec.tensors.has(outTensor);
    const mem = run.memory.get(a.name);
    forEachCell(shape, (idx, k) => {
      const expected = hasOut ? cellOf(e, model.tensor(outTensor, idx)) : rs.initial[k]!;
      srcT.see(a.name, idx, e, expected, rs.final[k]!);
      cmpT.see(a.name, idx, e, rs.final[k]!, rt.final[k]!);
      const ours = mem ? getCell(mem.cells, a.elem, k) : undefined;
      tgtT.see(a.name, idx, e, ours === undefined ? null : cellOf(e, ours), rt.final[k]!);
    });
    if (rs.guardBytesChanged !== rt.guardBytesChanged) cmpT.see(`${a.name} (guard bytes)`, [], 'i64', BigInt(rs.guardBytesChanged), BigInt(rt.guardBytesChanged));
  }
  // A write past a buffer a pass allocated shows only in the guard zones of the runner's allocator.
  if (src.heapGuardBytesChanged !== tgt.heapGuardBytesChanged) cmpT.see('heap (guard bytes)', [], 'i64', BigInt(src.heapGuardBytesChanged), BigInt(tgt.heapGuardBytesChanged));
  const bigstep = run.report.outcome === 'error' ? `error: ${run.report.error?.message ?? ''}` : run.report.outcome;
  return { params: paramsText, skipped: null, source: srcT.done(), target: tgtT.done(), compiler: cmpT.done(), bigstep, runtime: null, ms: performance.now() - t0 };
}

/**
 * The input values a run under mlir-cpu-runner was given, as the SCHED input source of the
 * translation's input tensors (so our runs see the very same values).
 */
export function inputsOfRun(tr: MlirTranslation, run: Execution): InputSource {
  const byTensor = new Map<string, (point: readonly Int[]) => Value>();
  for (const a of tr.source.arrays) {
    const o = a.origin;
    if (o.kind !== 'arg' && o.kind !== 'scalar') continue;
    const e = elemOf(a);
    if (e === null) continue;
    const value = (cell: bigint): Value => (e === 'f32' || e === 'f64' ? floatOfBits(e, cell) : a.elem === 'i64' ? BigInt.asIntN(64, cell) : Number(BigInt.asIntN(64, cell)));
    if (o.kind === 'scalar') {
      const v = run.inputs[o.index];
      if (v?.kind === 'scalar') byTensor.set(inputName(a), () => value(v.cell));
      continue;
    }
    const m = run.memrefs.find((x) => x.arg === o.index);
    if (!m) continue;
    byTensor.set(inputName(a), (point) => {
      let k = 0;
      m.shape.forEach((d, i) => { k = k * d + Number(point[i]!); });
      return value(m.initial[k]!);
    });
  }
  const base = seededInputs(0);
  return {
    input: (tensor, t, point) => byTensor.get(tensor)?.(point) ?? base.input(tensor, t, point),
    unconstrained: (tensor, t, point) => base.unconstrained(tensor, t, point),
  };
}

/** The inputs a replay names (family, seed, explicit values). */
export function replayInputs(r: Replay, ci: CheckedImpl): InputSource {
  const base = familyInputs(r.inputs, r.seed);
  const overrides: InputOverride[] = [];
  for (const v of r.inputValues) {
    const t = ci.spec.tensors.get(v.tensor);
    if (!t) continue;
    const value = parseOverrideValue(v.value, t.type);
    if (value !== null) overrides.push({ tensor: v.tensor, point: v.point.map((p) => BigInt(p)), value });
  }
  return overrides.length > 0 ? withOverrides(base, overrides) : base;
}

// ---------------------------------------------------------------------------------------------
// One validation: mlir-opt, translation, verification, confirmation

export interface PrepareOptions {
  readonly source: string;
  /** mlir-opt arguments to run on the source, or… */
  readonly passes?: string;
  /** …a target module made elsewhere. */
  readonly target?: string;
  readonly func?: string;
  readonly name?: string;
  readonly sourceFile: string;
  readonly targetFile?: string;
  /** CPU-time limit of each mlir-opt run (ms). */
  readonly limitMs?: number;
  /** Conditions on the parameters the verdict is to hold under (`sched mlir --assume`). */
  readonly assumes?: readonly string[];
  /** The source and target as mlir-opt printed them with locations already (the fuzzer's runs did). */
  readonly modules?: { readonly source: string; readonly target: string };
}

export interface Prepared {
  /** The modules in generic form with locations (what the translation and the runner read). */
  readonly modules: { readonly source: string; readonly target: string };
  readonly translation: MlirTranslation;
  readonly ms: Record<string, number>;
}

/**
 * The source read through mlir-opt, the target made by mlir-opt (or read through it), both
 * translated. Throws what the steps throw: SchedInputError (the input's errors), MlirRunError (the
 * compiler failed), Unsupported / SourceRefused / MlirSyntaxError (no translation).
 */
export async function prepareMlir(o: PrepareOptions): Promise<Prepared> {
  const lim = { debugInfo: true, fileName: o.sourceFile, ...(o.limitMs !== undefined ? { limitMs: o.limitMs } : {}) };
  const src = o.modules ? { output: o.modules.source, ms: 0 } : runPasses(o.source, [], lim);
  const ms: Record<string, number> = { readSource: Math.round(src.ms) };
  let tgt;
  if (o.modules) tgt = { output: o.modules.target };
  else if (o.passes !== undefined) {
    tgt = runPasses(o.source, o.passes, lim);
    ms.passes = Math.round(tgt.ms);
  } else {
    if (o.target === undefined) throw new Error('internal: prepareMlir needs passes or a target');
    tgt = runPasses(o.target, [], { ...lim, fileName: o.targetFile ?? '<target>' });
    ms.readTarget = Math.round(tgt.ms);
  }
  const modules = { source: src.output, target: tgt.output };
  const translation = await translateMlir(modules.source, modules.target, {
    argNames: (f) => kernelArgNames(o.source, f)?.map((a) => a.name) ?? null,
    ...(o.func !== undefined ? { func: o.func } : {}),
    ...(o.name !== undefined ? { name: o.name } : {}),
    ...(o.assumes ? { assumes: o.assumes } : {}),
    sourceFile: o.sourceFile,
    targetFile: o.targetFile ?? `${o.sourceFile} after ${o.passes}`,
  });
  ms.translate = Math.round(translation.ms);
  return { modules, translation, ms };
}

/** Is this error a reason to give no translation (the verdict is then unknown, unsupported)? */
export function untranslatable(e: unknown): string | null {
  if (e instanceof SourceRefused) return `source refused: ${e.message}`;
  if (e instanceof Unsupported || e instanceof MlirSyntaxError) return e.message;
  return null;
}

/**
 * The adjustment of a verdict (adjustMlirVerdict), then, for an invalid one with a replay, the
 * real execution at the counterexample: confirmed when mlir-cpu-runner's outputs of source and
 * target differ there. `params` completes the replay's parameters (defaults for the runner).
 */
export async function confirmInvalid(r0: VerifyResult, ci: CheckedImpl, p: Prepared, defaults: ReadonlyMap<string, bigint>): Promise<{ result: VerifyResult; report: OracleReport | null }> {
  // Conditional stores (an scf.if on data) make accesses MLIR's code does not: an access error is
  // kept only if a run with them read as `if (c) store` shows one.
  const guarded = storesOf(p.translation.target.body).filter((s) => s.guarded).length;
  const r = await confirmGuarded(adjustMlirVerdict(r0), ci, guarded, MLIR_WORDING);
  // A read of ⊥ by a copy that copies an undefined value is no error in MLIR: such a verdict
  // stands only if the real execution shows the outputs differ.
  const undefinedCopy = r.verdict === 'invalid' && r.class === 'uninitialized-read' && p.translation.undefinedCopies.length > 0;
  const notShown = (why: string): VerifyResult => ({ ...r, verdict: 'unknown', class: 'unconfirmed', reason: `${r.reason ?? ''} — the target copies memory no write defined (${p.translation.undefinedCopies.slice(0, 3).join(', ')}), which MLIR allows (an undefined value, not an error until it is used), and ${why}` });
  if (r.verdict !== 'invalid' || r.replay === null) return { result: undefinedCopy ? notShown('there is no run to confirm it') : r, report: null };
  const params = new Map(defaults);
  for (const [k, v] of Object.entries(r.replay.params)) params.set(k, BigInt(v));
  // A product parameter the counterexample chose apart from its factors: factors that make it
  // (a, 1) when the factors are parameters of their own.
  for (const q of p.translation.source.params) {
    if (!q.product) continue;
    const want = params.get(q.name);
    const [a, b] = q.product.map(asVar);
    if (want === undefined || a === null || b === null || a === undefined || b === undefined) continue;
    if ((params.get(a) ?? 0n) * (params.get(b) ?? 0n) !== want) {
      params.set(a, want);
      params.set(b, 1n);
    }
  }
  const rep = executionOracle(p.translation, ci, p.modules, params, replayInputs(r.replay, ci));
  const c = rep.compiler;
  const shows = rep.skipped !== null ? `not run under mlir-cpu-runner (${rep.skipped})`
    : c!.differences > 0 ? `confirmed by mlir-cpu-runner: source and target differ on ${c!.differences} of ${c!.cells} cells (${c!.examples.slice(0, 2).map((x) => `${x.array}[${x.index.join(', ')}]: ${x.expected} vs ${x.actual}`).join('; ')})`
    : 'not observable under mlir-cpu-runner: source and target give the same outputs there (a race or an uninitialised read need not show)';
  if (undefinedCopy && !(rep.skipped === null && c!.differences > 0)) return { result: notShown(shows), report: rep };
  return { result: { ...r, reason: `${r.reason ?? ''} — ${shows}` }, report: rep };
}

/** Default parameter values for runs (dynamic extents and index arguments). */
export function defaultParams(tr: MlirTranslation, value = 6n): Map<string, bigint> {
  return new Map(tr.source.params.map((p) => [p.name, value] as const));
}

export interface MlirValidation {
  readonly prepared: Prepared | null;
  /** The translation's implementation, checked (for further runs). */
  readonly checked: CheckedImpl | null;
  /** Set when there is no translation (unsupported op, refused source). */
  readonly unsupported: string | null;
  readonly result: VerifyResult | null;
  readonly confirmation: OracleReport | null;
}

/**
 * Verifies a translation elsewhere than in this process (the fuzzer: in a worker, against a
 * budget for the case): its text, the file name it is checked under, the implementation's name.
 */
export type TranslationVerifier = (text: string, file: string, impl: string) => Promise<VerifyResult>;

/** prepare + verify + confirm, for programs (the corpus, tests, the fuzzer). */
export async function validateMlir(o: PrepareOptions & { readonly verify?: VerifyOptions; readonly params?: ReadonlyMap<string, bigint>; readonly verifier?: TranslationVerifier }): Promise<MlirValidation> {
  let p: Prepared;
  try {
    p = await prepareMlir(o);
  } catch (e) {
    const why = untranslatable(e);
    if (why === null) throw e;
    return { prepared: null, checked: null, unsupported: why, result: null, confirmation: null };
  }
  const file = `${p.translation.specName}.sched`;
  const ci = await checkedImpl(p.translation, file);
  const r = o.verifier ? await o.verifier(p.translation.text, file, p.translation.implName) : await verifyImpl(ci, o.verify ?? {});
  const defaults = new Map([...defaultParams(p.translation), ...(o.params ?? [])]);
  const c = await confirmInvalid(r, ci, p, defaults);
  return { prepared: p, checked: ci, unsupported: null, result: c.result, confirmation: c.report };
}

/** The oracle at given parameters on seeded inputs. */
export async function oracleRun(p: Prepared, params: ReadonlyMap<string, bigint>, seed: number): Promise<OracleReport> {
  const ci = await checkedImpl(p.translation, `${p.translation.specName}.sched`);
  return executionOracle(p.translation, ci, p.modules, params, seededInputs(seed));
}

/** Check a translation's text (for the oracle outside `sched mlir`'s verification). */
export async function checkedImpl(tr: MlirTranslation, file: string): Promise<CheckedImpl> {
  const prog = await checkSource(file, tr.text);
  return prog.impls.find((i) => i.impl.name === tr.implName)!;
}
