// Running the Halide 14 front end: find Debian's Halide for Python, lower a pipeline script with the
// driver (driver.py), translate it (translate.ts), compare the traced and untraced lowerings, and
// the JIT oracle: Halide's own `realize` on seeded inputs against our big-step run of the
// translation on the same inputs.

import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckedImpl } from '../../core/language/typecheck.ts';
import { fromBig } from '../../semantics/int.ts';
import { getCell } from '../../semantics/memory.ts';
import { runImpl, type RunReport } from '../../semantics/run.ts';
import { valueToJson } from '../../semantics/values.ts';
import { compareStripped } from './hir.ts';
import { type DriverOutput, translate, type TranslateOptions, type Translation } from './translate.ts';

/** Relative tolerance of the JIT oracle's float comparisons (and of the big-step run against the spec). */
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

function runDriver(args: readonly string[], input?: string): unknown {
  const missing = halideMissing();
  if (missing !== null) throw new HalideError(missing);
  const r = spawnSync(halidePython(), [DRIVER, ...args], { encoding: 'utf8', timeout: 300_000, maxBuffer: 1 << 28, input });
  if (r.error) throw new HalideError(`the Halide driver did not run: ${r.error.message}`);
  let out: { error?: string } | null = null;
  try {
    // The document is the last line: Halide prints its warnings on stdout before it.
    out = JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as { error?: string };
  } catch {
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
  readonly ms: { readonly lower: number; readonly lowerPlain: number; readonly driver: number; readonly translate: number };
}

/** Lower SCRIPT and translate it to a `.sched` text (throws Unsupported, HalideError). */
export function halideCase(script: string, name: string, opts: TranslateOptions = {}): HalideCase {
  const t0 = performance.now();
  const driver = lowerScript(script);
  const t1 = performance.now();
  const translation = translate(driver, name, opts);
  const t2 = performance.now();
  const cmp = (a: string | null, b: string | null): TracingComparison['pass21'] => {
    if (a === null || b === null) return { same: false, onlyTraced: [], onlyPlain: ['(no IR printed)'] };
    const c = compareStripped(a, b);
    return { same: c.same, onlyTraced: c.onlyTraced, onlyPlain: c.onlyPlain };
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
    ms: { lower: driver.ms.traced, lowerPlain: driver.ms.plain, driver: t1 - t0, translate: t2 - t1 },
  };
}

// ---------------------------------------------------------------------------------------------
// The JIT oracle

export interface JitReport {
  readonly params: Record<string, number>;
  readonly seed: number;
  /** Our big-step run of the translation against the spec. */
  readonly bigstep: RunReport['outcome'];
  readonly bigstepError: string | null;
  readonly cells: number;
  /** Output cells where Halide's JIT and the big-step run differ (bit for bit). */
  readonly differences: number;
  /** … by more than the relative tolerance TOLERANCE. */
  readonly beyondTolerance: number;
  readonly examples: { readonly index: number[]; readonly halide: unknown; readonly bigstep: unknown }[];
  readonly jitMs: number;
  /** Halide's realize failed (its message): no values to compare. */
  readonly realizeError?: string;
}

/**
 * Parameter values for the oracle from the script's `example` ({"output": [W, H], "<input>": [w, h],
 * "<input>.min": [x0, y0] (default 0), "<param>": v}).
 */
export function exampleParams(c: HalideCase): Map<string, bigint> {
  const ex = c.driver.example ?? {};
  const out = new Map<string, bigint>();
  for (const { sched, halide } of c.translation.params) {
    const m = /^(.+)\.extent\.(\d+)$/.exec(halide);
    let v: number | undefined;
    const mm = /^(.+)\.min\.(\d+)$/.exec(halide);
    if (m) {
      const key = m[1] === c.driver.output ? 'output' : m[1]!;
      const e = ex[key];
      v = Array.isArray(e) ? e[Number(m[2])] : undefined;
    } else if (mm) {
      const e = ex[`${mm[1]!}.min`];
      v = Array.isArray(e) ? e[Number(mm[2])] : 0;
    } else {
      const e = ex[halide];
      v = typeof e === 'number' ? e : undefined;
    }
    if (v === undefined) throw new HalideError(`pipeline(): 'example' gives no value for ${halide} (the JIT oracle needs one)`);
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
export function jitOracle(c: HalideCase, ci: CheckedImpl, seed = 0, at?: JitAt): JitReport {
  const params = at?.params ?? exampleParams(c);
  // Halide's simplifier reassociates float sums and its IR printer rounds float constants to 6
  // decimals: float outputs are compared with a relative tolerance too (exact differences counted).
  const run = runImpl(ci, params, { seed, tolerance: TOLERANCE });
  const inputs: Record<string, { extents: number[]; mins: number[]; data: unknown[] }> = {};
  for (const i of c.translation.inputs) {
    const m = run.initial.get(i.array);
    if (!m) throw new HalideError(`internal: no input array ${i.array}`);
    const dims = m.ref.dims;
    // Halide's buffers are x-fastest: the flat list runs over the first index first.
    const data: unknown[] = [];
    const n = dims.reduce((a, b) => a * b, 1);
    for (let k = 0; k < n; k++) {
      let rest = k;
      let off = 0;
      for (let d = 0; d < dims.length; d++) {
        off += (rest % dims[d]!) * m.ref.strides[d]!;
        rest = Math.floor(rest / dims[d]!);
      }
      const v = getCell(m.cells, m.ref.elem, off);
      data.push(typeof v === 'bigint' ? Number(v) : v ?? 0);
    }
    const mins = at ? [...(at.inputMins[i.name] ?? dims.map(() => 0))] : dims.map((_, k) => Number(params.get(c.translation.params.find((p) => p.halide === `${i.name}.min.${k}`)?.sched ?? '') ?? 0n));
    inputs[i.name] = { extents: [...dims], mins, data };
  }
  const paramValues: Record<string, unknown> = {};
  for (const p of c.translation.scalarInputs) {
    const m = run.initial.get(p.array);
    if (!m) throw new HalideError(`internal: no input array ${p.array}`);
    paramValues[p.name] = getCell(m.cells, m.ref.elem, 0);
  }
  if (at) Object.assign(paramValues, at.halideParams);
  else for (const p of c.translation.params) if (!/\.(extent|min)\.\d+$/.test(p.halide)) paramValues[p.halide] = Number(params.get(p.sched)!);
  const outRef = run.memory.get(c.translation.outputArray);
  if (!outRef) throw new HalideError('internal: no output array');
  const dims = [...outRef.ref.dims];
  const jit = runDriver([c.script, '--jit', '-'], JSON.stringify({ output: dims, inputs, params: paramValues })) as { values?: unknown[]; realizeError?: string; ms: number };
  const rep0 = run.report;
  if (jit.values === undefined) {
    // Halide's realize refused the inputs or failed: every output cell counts as different.
    const n0 = dims.reduce((a, b) => a * b, 1);
    return { params: Object.fromEntries([...params].map(([k, v]) => [k, Number(fromBig(v))])), seed, bigstep: rep0.outcome, bigstepError: rep0.error ? `${rep0.error.kind}: ${rep0.error.message ?? ''}` : null, cells: n0, differences: n0, beyondTolerance: n0, examples: [], jitMs: jit.ms, realizeError: jit.realizeError ?? 'no values' };
  }
  const values = jit.values;
  let differences = 0;
  let beyond = 0;
  const examples: JitReport['examples'] = [];
  const n = dims.reduce((a, b) => a * b, 1);
  for (let k = 0; k < n; k++) {
    let rest = k;
    let off = 0;
    const index: number[] = [];
    for (let d = 0; d < dims.length; d++) {
      index.push(rest % dims[d]!);
      off += (rest % dims[d]!) * outRef.ref.strides[d]!;
      rest = Math.floor(rest / dims[d]!);
    }
    const ours = valueToJson(getCell(outRef.cells, outRef.ref.elem, off));
    const theirs = values[k];
    const same = ours === theirs || (typeof theirs === 'number' && typeof ours === 'number' && Object.is(Math.fround(theirs), Math.fround(ours)) && outRef.ref.elem === 'f32') || (theirs === 'nan' && ours === 'NaN');
    if (!same) {
      differences++;
      const close = typeof theirs === 'number' && typeof ours === 'number' && Math.abs(theirs - ours) <= TOLERANCE * Math.max(Math.abs(theirs), Math.abs(ours), 1);
      if (!close) beyond++;
      if (examples.length < 5 && (!close || beyond === 0)) examples.push({ index, halide: theirs, bigstep: ours });
    }
  }
  const rep = run.report;
  return {
    params: Object.fromEntries([...params].map(([k, v]) => [k, Number(fromBig(v))])),
    seed,
    bigstep: rep.outcome,
    bigstepError: rep.error ? `${rep.error.kind}: ${rep.error.message ?? ''}` : null,
    cells: n,
    differences,
    beyondTolerance: beyond,
    examples,
    jitMs: jit.ms,
  };
}
