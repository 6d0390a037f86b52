// Running the Halide 14 front end: find Debian's Halide for Python, lower a pipeline script with the
// driver (driver.py), translate it (translate.ts), compare the traced and untraced lowerings, and
// the JIT oracle: Halide's own `realize` on seeded inputs against our big-step run of the
// translation on the same inputs.

import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckedImpl } from '../../core/language/typecheck.ts';
import type { ValueType } from '../../core/language/ast.ts';
import { getCell } from '../../semantics/memory.ts';
import { runImpl, type RunReport } from '../../semantics/run.ts';
import { closeValue, isBigType, showValue, type Value } from '../../semantics/values.ts';
import { fastMathReason } from './fast-math.ts';
import { compareStripped, HirParseError } from './hir.ts';
import { type DriverOutput, translate, type TranslateOptions, type Translation } from './translate.ts';
import { type Simplified, simplifyTranslation } from './simplify.ts';
import type { ExampleValue } from './funcs.ts';

/**
 * Relative tolerance of the JIT oracle's float comparisons for pipelines Halide compiles with
 * fast-math flags (fast-math.ts; all others are compared bit for bit), and of the big-step run
 * against the spec.
 */
export const TOLERANCE = 1e-5;

export const INSTALL_HINT = 'apt-get install -y python3-halide libhalide14-0-dev';
const HERE = dirname(fileURLToPath(import.meta.url));
export const DRIVER = join(HERE, 'driver.py');

/** The Python that has Debian's `halide` module (only Debian's own python3 finds it). */
export function halidePython(): string {
  return process.env['SCHED_HALIDE_PYTHON'] ?? '/usr/bin/python3';
}

/** An error of the Halide path that is the input's or the set-up's, not sched's. */
export class HalideError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HalideError';
  }
}

let available: string | null | undefined;
/** null when `import halide` works; otherwise what is missing and how to install it. */
export function halideMissing(): string | null {
  if (available !== undefined) return available;
  const py = halidePython();
  const r = spawnSync(py, ['-c', 'import halide'], { encoding: 'utf8', timeout: 60_000 });
  if (r.error) available = `${py} not found: the Halide front end needs Debian's python3 with Halide 14 (${INSTALL_HINT})`;
  else if (r.status !== 0) available = `${py} cannot import halide: the Halide front end needs the Debian packages python3-halide and libhalide14-0-dev (${INSTALL_HINT})`;
  else available = null;
  return available;
}

/** Debian's python3 or its Halide is not installed (the message says which and how to install it). */
export class HalideMissing extends HalideError {}

function runDriver(args: readonly string[], input?: string): unknown {
  // The driver first; only when it fails is `import halide` tried alone (halideMissing): a separate
  // start of Python and import of Halide before every lowering cost 0.5 s of each `sched halide`.
  const r = spawnSync(halidePython(), [DRIVER, ...args], { encoding: 'utf8', timeout: 300_000, maxBuffer: 1 << 28, input });
  const missingOnFailure = (): void => {
    const missing = halideMissing();
    if (missing !== null) throw new HalideMissing(missing);
  };
  if (r.error) {
    missingOnFailure();
    throw new HalideError(`the Halide driver did not run: ${r.error.message}`);
  }
  let out: { error?: string } | null = null;
  try {
    // The document is the last line: Halide prints its warnings on stdout before it.
    out = JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as { error?: string };
  } catch {
    missingOnFailure();
    const err = r.stderr.split('\n').filter((l) => !/^Section: |^Debugging sections/.test(l)).join('\n').trim();
    throw new HalideError(`the Halide driver failed (exit ${r.status}): ${err.slice(-3000) || r.stdout.slice(-2000)}`);
  }
  if (out && typeof out.error === 'string') throw new HalideError(out.error);
  return out;
}

/** Lower SCRIPT with real Halide (traced and untraced). */
export function lowerScript(script: string): DriverOutput {
  return runDriver([script]) as DriverOutput;
}

export interface TracingComparison {
  /** The IR that is translated (after bounding small realizations). */
  readonly pass21: { readonly same: boolean; readonly onlyTraced: string[]; readonly onlyPlain: string[] };
  /** The final IR (after final simplification, where custom lowering passes run). */
  readonly final: { readonly same: boolean; readonly onlyTraced: string[]; readonly onlyPlain: string[] } | { readonly error: string };
}

export interface HalideCase {
  readonly script: string;
  readonly name: string;
  readonly driver: DriverOutput;
  readonly translation: Translation;
  readonly tracing: TracingComparison;
  /** The translation's assumptions (Halide's asserts) before and after simplification (simplify.ts). */
  readonly assumptions: Pick<Simplified, 'assumptions' | 'asserts' | 'sizeFacts'>;
  readonly ms: { readonly lower: number; readonly lowerPlain: number; readonly driver: number; readonly translate: number; readonly simplify: number };
}

/** Lower SCRIPT and translate it to a `.sched` text (throws Unsupported, HalideError). */
export function halideCase(script: string, name: string, opts: TranslateOptions = {}): HalideCase {
  const t0 = performance.now();
  const driver = lowerScript(script);
  const t1 = performance.now();
  const translated = translate(driver, name, opts);
  const t2 = performance.now();
  const simplified = simplifyTranslation(translated, `${name}.sched`);
  const translation = simplified.translation;
  const t3 = performance.now();
  const cmp = (a: string | null, b: string | null): TracingComparison['pass21'] => {
    if (a === null || b === null) return { same: false, onlyTraced: [], onlyPlain: ['(no IR printed)'] };
    try {
      const c = compareStripped(a, b);
      return { same: c.same, onlyTraced: c.onlyTraced, onlyPlain: c.onlyPlain };
    } catch (e) {
      if (!(e instanceof HirParseError)) throw e;
      return { same: false, onlyTraced: [], onlyPlain: [`(not compared: ${e.message})`] };
    }
  };
  let final: TracingComparison['final'];
  try {
    final = cmp(driver.traced.final, driver.plain.final);
  } catch (e) {
    final = { error: (e as Error).message };
  }
  return {
    script,
    name,
    driver,
    translation,
    tracing: { pass21: cmp(driver.traced.pass21, driver.plain.pass21), final },
    assumptions: { assumptions: simplified.assumptions, asserts: simplified.asserts, sizeFacts: simplified.sizeFacts },
    ms: { lower: driver.ms.traced, lowerPlain: driver.ms.plain, driver: t1 - t0, translate: t2 - t1, simplify: t3 - t2 },
  };
}

// ---------------------------------------------------------------------------------------------
// The JIT oracle

export interface JitReport {
  readonly params: Record<string, string>;
  readonly seed: number;
  /** Our big-step run of the translation against the spec. */
  readonly bigstep: RunReport['outcome'];
  readonly bigstepError: string | null;
  readonly cells: number;
  /** Output cells where Halide's JIT and the big-step run differ, bit for bit (every NaN is one value). */
  readonly differences: number;
  /**
   * The relative tolerance the comparison allows, or null when it is exact: only for pipelines
   * that Halide compiles with fast-math flags (`fastMath`).
   */
  readonly tolerance: number | null;
  /** Why the pipeline's floats may differ from their IEEE reading (fast-math.ts), or null. */
  readonly fastMath: string | null;
  /** Cells that differ beyond the tolerance (all that differ when the comparison is exact). */
  readonly beyondTolerance: number;
  readonly examples: { readonly index: number[]; readonly halide: string; readonly bigstep: string }[];
  readonly jitMs: number;
  /** Halide's realize failed (its message): no values to compare. */
  readonly realizeError?: string;
}

/** A value as the driver's JIT protocol writes it (driver.py, decode()): no JSON double in between. */
export function toWire(v: Value | undefined, t: ValueType): string {
  if (v === undefined) return '0'; // an input cell the run left ⊥ (outside an input's `where`): any value
  if (t === 'bool') return v ? '1' : '0';
  if (t === 'f32' || t === 'f64') {
    const b = new DataView(new ArrayBuffer(8));
    if (t === 'f32') {
      b.setFloat32(0, v as number);
      return b.getUint32(0).toString(16);
    }
    b.setFloat64(0, v as number);
    return b.getBigUint64(0).toString(16);
  }
  return (typeof v === 'bigint' ? v : BigInt(v as number)).toString();
}

export function fromWire(s: string, t: ValueType): Value {
  if (t === 'bool') return s === '1';
  if (t === 'f32' || t === 'f64') {
    const b = new DataView(new ArrayBuffer(8));
    if (t === 'f32') {
      b.setUint32(0, Number.parseInt(s, 16));
      return b.getFloat32(0);
    }
    b.setBigUint64(0, BigInt(`0x${s}`));
    return b.getFloat64(0);
  }
  const big = BigInt(s);
  return isBigType(t) ? big : Number(big);
}

/** SCHED's type of a Halide type name (as the driver prints them: i32, u8, f32, bool). */
function wireType(t: string): ValueType {
  return t as ValueType;
}

/**
 * Parameter values for the oracle from the script's `example` ({"output": [W, H], "<input>": [w, h],
 * "<input>.min": [x0, y0] (default 0), "<param>": v}).
 */
export function exampleParams(c: HalideCase): Map<string, bigint> {
  const ex = typeof c.driver.example === 'object' && c.driver.example !== null ? c.driver.example : {};
  const out = new Map<string, bigint>();
  for (const { sched, halide } of c.translation.params) {
    const m = /^(.+)\.extent\.(\d+)$/.exec(halide);
    let v: ExampleValue | undefined;
    const mm = /^(.+)\.min\.(\d+)$/.exec(halide);
    if (m) {
      const key = m[1] === c.driver.output ? 'output' : m[1]!;
      const e = ex[key];
      v = Array.isArray(e) ? e[Number(m[2])] : undefined;
    } else if (mm) {
      const e = ex[`${mm[1]!}.min`];
      v = Array.isArray(e) ? e[Number(mm[2])] : '0';
    } else {
      const e = ex[halide];
      v = Array.isArray(e) ? undefined : e;
    }
    if (v === undefined) throw new HalideError(`pipeline(): 'example' gives no value for ${halide} (the JIT oracle needs one)`);
    // Integers come as decimal text (driver.py: exact_ints); a number here is a float.
    if (typeof v === 'number' || !/^-?\d+$/.test(v)) throw new HalideError(`pipeline(): 'example' gives ${String(v)} for ${halide}, which is not an integer`);
    out.set(sched, BigInt(v));
  }
  return out;
}

/**
 * Where the JIT oracle runs when not at the script's `example`: the parameters of `ci`, the mins
 * of every input buffer, and the values of Halide's Params by Halide name.
 */
export interface JitAt {
  readonly params: ReadonlyMap<string, bigint>;
  readonly inputMins: Readonly<Record<string, readonly number[]>>;
  readonly halideParams: Readonly<Record<string, number>>;
}

/** Run the translation (big-step) and Halide's JIT on the same seeded inputs; compare the outputs. */
export function jitOracle(c: HalideCase, ci: CheckedImpl, seed = 0, where?: JitAt | ReadonlyMap<string, bigint>): JitReport {
  const at = where instanceof Map ? undefined : (where as JitAt | undefined);
  const params = at?.params ?? (where instanceof Map ? (where as ReadonlyMap<string, bigint>) : exampleParams(c));
  const fastMath = fastMathReason(c.driver);
  const tolerance = fastMath === null ? null : TOLERANCE;
  const run = runImpl(ci, params, { seed, tolerance: TOLERANCE });
  const inputs: Record<string, { extents: number[]; mins: number[]; data: string[] }> = {};
  for (const i of c.translation.inputs) {
    const m = run.initial.get(i.array);
    if (!m) throw new HalideError(`internal: no input array ${i.array}`);
    const dims = m.ref.dims;
    // Halide's buffers are x-fastest: the flat list runs over the first index first.
    const data: string[] = [];
    const n = dims.reduce((a, b) => a * b, 1);
    for (let k = 0; k < n; k++) {
      let rest = k;
      let off = 0;
      for (let d = 0; d < dims.length; d++) {
        off += (rest % dims[d]!) * m.ref.strides[d]!;
        rest = Math.floor(rest / dims[d]!);
      }
      data.push(toWire(getCell(m.cells, m.ref.elem, off), m.ref.elem));
    }
    const mins = at ? [...(at.inputMins[i.name] ?? dims.map(() => 0))] : dims.map((_, k) => Number(params.get(c.translation.params.find((p) => p.halide === `${i.name}.min.${k}`)?.sched ?? '') ?? 0n));
    inputs[i.name] = { extents: [...dims], mins, data };
  }
  const paramTypes = new Map(c.driver.params.map((p) => [p.name, wireType(p.type)] as const));
  const paramValues: Record<string, string> = {};
  for (const p of c.translation.scalarInputs) {
    const m = run.initial.get(p.array);
    if (!m) throw new HalideError(`internal: no input array ${p.array}`);
    paramValues[p.name] = toWire(getCell(m.cells, m.ref.elem, 0), m.ref.elem);
  }
  if (at) for (const [k, v] of Object.entries(at.halideParams)) paramValues[k] = toWire(BigInt(v), paramTypes.get(k) ?? 'i32');
  else for (const p of c.translation.params) if (!/\.(extent|min)\.\d+$/.test(p.halide)) paramValues[p.halide] = toWire(params.get(p.sched)!, paramTypes.get(p.halide) ?? 'i32');
  const outRef = run.memory.get(c.translation.outputArray);
  if (!outRef) throw new HalideError('internal: no output array');
  const dims = [...outRef.ref.dims];
  const jit = runDriver([c.script, '--jit', '-'], JSON.stringify({ output: dims, inputs, params: paramValues })) as { values?: string[]; realizeError?: string; ms: number };
  const rep = run.report;
  const shown = { params: Object.fromEntries([...params].map(([k, v]) => [k, v.toString()])), seed, bigstep: rep.outcome, bigstepError: rep.error ? `${rep.error.kind}: ${rep.error.message ?? ''}` : null, tolerance, fastMath };
  const n = dims.reduce((a, b) => a * b, 1);
  // Our run stopped on an error (a race, undefined behaviour on these inputs): its outputs are
  // not the program's, and are not compared (the error is the verifier's to report).
  if (rep.outcome === 'error' && jit.values !== undefined) return { ...shown, cells: n, differences: 0, beyondTolerance: 0, examples: [], jitMs: jit.ms };
  if (jit.values === undefined) {
    // Halide's realize refused the inputs or could not run (no device runtime): nothing compared.
    return { ...shown, cells: n, differences: 0, beyondTolerance: 0, examples: [], jitMs: jit.ms, realizeError: jit.realizeError ?? 'no values' };
  }
  const elem = outRef.ref.elem;
  let differences = 0;
  let beyond = 0;
  const examples: { index: number[]; halide: string; bigstep: string; close: boolean }[] = [];
  for (let k = 0; k < n; k++) {
    let rest = k;
    let off = 0;
    const index: number[] = [];
    for (let d = 0; d < dims.length; d++) {
      index.push(rest % dims[d]!);
      off += (rest % dims[d]!) * outRef.ref.strides[d]!;
      rest = Math.floor(rest / dims[d]!);
    }
    const ours = getCell(outRef.cells, elem, off);
    const theirs = fromWire(jit.values[k]!, elem);
    // Bit for bit; SCHED has one NaN (JavaScript keeps no payloads), so every NaN is the same value.
    const same = ours !== undefined && (Object.is(ours, theirs) || (typeof ours === 'number' && typeof theirs === 'number' && Number.isNaN(ours) && Number.isNaN(theirs)));
    if (same) continue;
    differences++;
    const close = tolerance !== null && ours !== undefined && closeValue(ours, theirs, tolerance);
    if (!close) beyond++;
    examples.push({ index, halide: showValue(theirs), bigstep: showValue(ours), close });
  }
  // The cells shown: those beyond the tolerance first.
  examples.sort((a, b) => Number(a.close) - Number(b.close));
  return { ...shown, cells: n, differences, beyondTolerance: beyond, examples: examples.slice(0, 5).map(({ index, halide, bigstep }) => ({ index, halide, bigstep })), jitMs: jit.ms };
}
