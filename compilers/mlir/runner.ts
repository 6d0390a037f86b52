// The execution oracle of the MLIR path: Debian's mlir-opt 16 runs a pass pipeline on a module,
// and both modules, lowered to the LLVM dialect, run under mlir-cpu-runner on the same seeded
// inputs; the final contents of every memref argument come back exact (floats as bit patterns)
// and are compared cell by cell. Failures are kept apart: the input's own errors (MlirInputError,
// exit 3), a limit hit, a crash of the tools, a pass that failed, a module the runner cannot lower,
// a program that faulted (MlirRunError with its kind).

import { diag, type Diagnostic, SchedInputError } from '../../core/language/diagnostics.ts';
import { type ElemType, generator, renderCell, seededCell, cellOfNumber, cellFromPrinted } from './cells.ts';
import { type ArgValue, HARNESS_MAIN, HarnessError, harnessText, kernelSignature, MARKER, type Signature, withHarness } from './harness.ts';
import { checkPipelineArgs, PipelineArgsError, splitArgs } from './pipeline-args.ts';
import { crashed, limitMessage, mlirTools, MlirRunError, runTool, type ToolLimits, type ToolRun } from './tools.ts';

export { MlirRunError } from './tools.ts';

/** The input's own error: unparsable or invalid MLIR, an unknown pass or option, an argument the harness cannot make. */
export class MlirInputError extends SchedInputError {
  constructor(diagnostics: readonly Diagnostic[]) {
    super(diagnostics);
    this.name = 'MlirInputError';
  }
}

/** The lowering to the LLVM dialect for mlir-cpu-runner (vector transfers, affine, scf, subviews, math). */
export const LOWERING: readonly string[] = [
  '--convert-vector-to-scf',
  '--lower-affine',
  '--convert-scf-to-cf',
  '--arith-expand',
  '--expand-strided-metadata',
  '--lower-affine',
  '--convert-vector-to-llvm',
  '--convert-math-to-llvm',
  '--convert-memref-to-llvm=use-generic-functions',
  '--convert-func-to-llvm',
  '--convert-arith-to-llvm',
  '--convert-cf-to-llvm',
  '--reconcile-unrealized-casts',
];

export interface RunOptions extends ToolLimits {
  /** The name diagnostics give the input (default `<input>`). */
  readonly fileName?: string;
  /** Print locations (`--mlir-print-debuginfo`, naming fileName where the input had none): the front end follows source statements through passes by them. */
  readonly debugInfo?: boolean;
  /** The module is mlir-opt's own generic printing (runPasses' output): execute need not print it again. */
  readonly generic?: boolean;
}

export interface PassResult {
  /** The output module, in the generic form. */
  readonly output: string;
  /** The mlir-opt arguments used (the pipeline's words). */
  readonly args: readonly string[];
  /** Wall-clock milliseconds of mlir-opt (a measurement). */
  readonly ms: number;
}

const LINE_DIAG = /^(.*?):(\d+):(\d+): (error|warning|note|remark): (.*)$/;

/** mlir-opt's stderr as diagnostics (errors, with their notes folded in); stdin renamed to FILE. */
export function parseDiagnostics(stderr: string, file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const lines = stderr.split('\n');
  for (const line of lines) {
    const pp = /MLIR Textual PassPipeline Parser:(\d+):(\d+): error: (.*)$/.exec(line);
    if (pp) {
      out.push(diag('<pipeline>', { line: Number(pp[1]), col: Number(pp[2]) }, 'syntax', `pass pipeline: ${pp[3]}`));
      continue;
    }
    const m = LINE_DIAG.exec(line);
    if (m) {
      const f = m[1] === '<stdin>' || m[1] === '-' ? file : m[1]!;
      if (m[4] === 'error') out.push(diag(f, { line: Number(m[2]), col: Number(m[3]) }, 'syntax', m[5]!));
      else if (m[4] === 'note' && out.length > 0) {
        const last = out[out.length - 1]!;
        out[out.length - 1] = { ...last, message: `${last.message}; note (${f}:${m[2]}:${m[3]}): ${m[5]}` };
      }
      continue;
    }
    const t = line.trim();
    if (/^(mlir-opt|.*mlir-opt-16?): /.test(t) || /Unknown command line argument|no such option|Pass-Options-Parser|must be specified|pass pipeline/i.test(t)) {
      out.push(diag('<pipeline>', { line: 1, col: 1 }, 'syntax', t.replace(/^\S*mlir-opt\S*: /, '')));
    }
  }
  return out;
}

function inputError(file: string, message: string, expected: string | null = null, found: string | null = null): MlirInputError {
  return new MlirInputError([diag(file, { line: 1, col: 1 }, 'syntax', message, expected, found)]);
}

/** The pipeline's words: a string is split like a shell would, an array is taken as argv. */
export function pipelineWords(pipeline: string | readonly string[]): string[] {
  try {
    const words = typeof pipeline === 'string' ? splitArgs(pipeline) : [...pipeline];
    checkPipelineArgs(words);
    return words;
  } catch (e) {
    if (e instanceof PipelineArgsError) throw new MlirInputError([diag('<pipeline>', { line: 1, col: e.col }, 'syntax', e.message)]);
    throw e;
  }
}

function printingFlags(o: RunOptions): string[] {
  return ['--mlir-print-op-generic', '--mlir-disable-threading', ...(o.debugInfo ? ['--mlir-print-debuginfo'] : [])];
}

/** Classify a failed mlir-opt run on TEXT (the input's fault, a crash, a limit, or a pass failure). */
function optFailure(run: ToolRun, text: string, o: RunOptions, what: string, passes: boolean): Error {
  const file = o.fileName ?? '<input>';
  if (run.limited !== null) return new MlirRunError('limit', limitMessage(what, run, o), run.stderr);
  if (crashed(run)) return new MlirRunError('crash', `${what} crashed (${run.signal ?? `exit ${run.status}`}): ${run.stderr.trim().split('\n').slice(0, 12).join('\n')}`, run.stderr);
  const diags = parseDiagnostics(run.stderr, file);
  if (passes) {
    // An error is the input's if the module alone does not parse and verify, or if an option was refused.
    const optionError = diags.some((d) => d.file === '<pipeline>');
    if (!optionError) {
      const parse = runTool(mlirTools().opt, printingFlags(o), text, o);
      if (parse.status === 0) return new MlirRunError('pass-failed', `${what} failed on a module that parses and verifies: ${run.stderr.trim()}`, run.stderr);
      if (parse.limited === null && !crashed(parse)) return new MlirInputError(nonEmpty(parseDiagnostics(parse.stderr, file), parse.stderr, file));
    }
  }
  return new MlirInputError(nonEmpty(diags, run.stderr, file));
}

function nonEmpty(diags: Diagnostic[], stderr: string, file: string): Diagnostic[] {
  return diags.length > 0 ? diags : [diag(file, { line: 1, col: 1 }, 'syntax', `mlir-opt rejected the input: ${stderr.trim() || 'no message'}`)];
}

/** Run mlir-opt with PIPELINE on MODULE; the output module in the generic form. */
export function runPasses(module: string, pipeline: string | readonly string[], o: RunOptions = {}): PassResult {
  const args = pipelineWords(pipeline);
  const run = runTool(mlirTools().opt, [...args, ...printingFlags(o)], module, o);
  if (run.status !== 0 || run.limited !== null || run.signal !== null) throw optFailure(run, module, o, `mlir-opt ${args.join(' ')}`, args.length > 0);
  // The module came on stdin: its locations name the file it was read from instead.
  const output = o.debugInfo && o.fileName ? run.stdout.replaceAll('loc("<stdin>":', `loc(${JSON.stringify(o.fileName)}:`) : run.stdout;
  return { output, args, ms: run.ms };
}

// ---------------------------------------------------------------------------------------------
// Execution

/**
 * What to run the kernel on, argument by argument (positions of the signature): for an integer or
 * index scalar its value (index scalars must be given: they are sizes), for a float scalar its value
 * (exact) or nothing (seeded); for a memref its shape (needed when a dimension is dynamic) and
 * optionally its initial cells (seeded otherwise).
 */
export type ArgSpec =
  | undefined
  | number
  | bigint
  | { readonly shape?: readonly number[]; readonly cells?: readonly bigint[] };

export interface MemrefResult {
  readonly arg: number;
  readonly type: string;
  readonly elem: ElemType;
  readonly shape: readonly number[];
  readonly initial: readonly bigint[];
  readonly final: readonly bigint[];
  /** Guard bytes around the argument that the kernel changed (an out-of-bounds write when > 0). */
  readonly guardBytesChanged: number;
}

export interface Execution {
  readonly kernel: string;
  readonly seed: number;
  readonly signature: Signature;
  /** The values given to the arguments (scalars' cells; memrefs' initial contents are in `memrefs`). */
  readonly inputs: readonly ArgValue[];
  readonly memrefs: readonly MemrefResult[];
  readonly results: readonly { readonly type: string; readonly elem: ElemType; readonly cell: bigint }[];
  /** Guard bytes changed around the blocks memref.alloc made (a pass's buffer written past its end when > 0). */
  readonly heapGuardBytesChanged: number;
  /** Wall-clock milliseconds: printing the module generic, lowering it, running it (measurements; a batch's shared equally). */
  readonly ms: { readonly canonical: number; readonly lower: number; readonly run: number };
}

/** The values the harness gives SIG's arguments. */
export function argValues(sig: Signature, specs: readonly ArgSpec[], seed: number): ArgValue[] {
  if (specs.length > sig.args.length) throw new HarnessError(`@${sig.name} has ${sig.args.length} arguments; ${specs.length} were given values`);
  return sig.args.map((a, k): ArgValue => {
    const s = specs[k];
    const what = `@${sig.name} argument ${k} (${a.text})`;
    const next = generator(seed, k);
    if (a.kind === 'scalar') {
      if (s !== undefined && typeof s === 'object') throw new HarnessError(`${what} is a scalar: give a number`);
      if (s === undefined) {
        if (a.elem === 'index') throw new HarnessError(`${what} is an index: give its value (the sizes name every index argument)`);
        return { kind: 'scalar', cell: seededCell(a.elem, next) };
      }
      const cell = cellOfNumber(a.elem, s);
      if (cell === null) throw new HarnessError(`${what}: ${s} is not a value of type ${a.elem}`);
      return { kind: 'scalar', cell };
    }
    if (typeof s === 'number' || typeof s === 'bigint') throw new HarnessError(`${what} is a memref: give its shape`);
    const shape = s?.shape ?? a.shape.map((d) => {
      if (d === null) throw new HarnessError(`${what} has a dynamic dimension: give its shape`);
      return d;
    });
    if (shape.length !== a.shape.length) throw new HarnessError(`${what} has rank ${a.shape.length}; the shape given is ${shape.join('x') || '(rank 0)'}`);
    shape.forEach((d, i) => {
      if (!Number.isSafeInteger(d) || d < 0) throw new HarnessError(`${what}: dimension ${i} must be a natural number (got ${d})`);
      const st = a.shape[i];
      if (st !== null && st !== undefined && st !== d) throw new HarnessError(`${what}: dimension ${i} is ${st} in the type; the shape given is ${shape.join('x')}`);
    });
    const count = shape.reduce((p, d) => p * d, 1);
    if (count > 1 << 22) throw new HarnessError(`${what}: ${count} cells is more than the harness makes (4M)`);
    if (s?.cells !== undefined) {
      if (s.cells.length !== count) throw new HarnessError(`${what}: ${s.cells.length} initial cells given for ${count}`);
      return { kind: 'memref', shape, cells: s.cells };
    }
    return { kind: 'memref', shape, cells: Array.from({ length: count }, () => seededCell(a.elem, next)) };
  });
}

/** MODULE in the generic form (mlir-opt's own printing: where the harness can be inserted). */
export function canonical(module: string, o: RunOptions = {}): { text: string; ms: number } {
  const run = runTool(mlirTools().opt, ['--mlir-print-op-generic', '--mlir-disable-threading'], module, o);
  if (run.status !== 0 || run.limited !== null || run.signal !== null) throw optFailure(run, module, o, 'mlir-opt (reading the module)', false);
  return { text: run.stdout, ms: run.ms };
}

function harnessError(e: unknown, file: string): never {
  if (e instanceof HarnessError) throw inputError(file, e.message);
  throw e;
}

/** Run KERNEL of MODULE once under mlir-cpu-runner with the arguments SPECS (seeded where not given). */
export function execute(module: string, kernel: string, specs: readonly ArgSpec[], seed = 0, o: RunOptions = {}): Execution {
  const r = executeBatch(module, [{ kernel, specs, seed }], o)[0]!;
  if (r instanceof Error) throw r;
  return r;
}

/** One kernel call of a batch. */
export interface BatchCall {
  readonly kernel: string;
  readonly specs: readonly ArgSpec[];
  readonly seed: number;
}

/**
 * Run each call of CALLS (kernels of MODULE) once, in one lowering and one mlir-cpu-runner process
 * (each process loads MLIR: a batch of many small kernels costs about what one costs). The kernels
 * must not share state (each call gets its own buffers). When the program fails (a kernel faults or
 * runs past the limit) every call is run alone, so each gets its own answer: its Execution, or the
 * error it alone raises. When the module cannot be lowered, every call gets that error. An error of
 * the module itself (it does not parse) is thrown.
 */
export function executeBatch(module: string, calls: readonly BatchCall[], o: RunOptions = {}): (Execution | MlirRunError | MlirInputError)[] {
  const file = o.fileName ?? '<input>';
  const tools = mlirTools();
  const can = o.generic ? { text: module, ms: 0 } : canonical(module, o);
  const out: (Execution | MlirRunError | MlirInputError | null)[] = calls.map(() => null);
  const ready: { k: number; sig: Signature; values: ArgValue[] }[] = [];
  calls.forEach((c, k) => {
    try {
      const sig = kernelSignature(can.text, c.kernel);
      ready.push({ k, sig, values: argValues(sig, c.specs, c.seed) });
    } catch (e) {
      if (!(e instanceof HarnessError)) throw e;
      out[k] = inputError(file, e.message);
    }
  });
  if (ready.length === 0) return out as (Execution | MlirRunError | MlirInputError)[];
  let full: string;
  try {
    full = withHarness(can.text, harnessText(ready.map((r) => ({ sig: r.sig, values: r.values }))));
  } catch (e) {
    harnessError(e, file);
  }
  const names = ready.map((r) => `@${r.sig.name}`).join(', ');
  // The program faulted or ran too long: each call alone says which. The lowering is the whole
  // module's: when it fails, it fails for every call (a caller that wants to know which function is
  // at fault runs modules of one function).
  const fail = (e: MlirRunError): void => {
    if (ready.length === 1) out[ready[0]!.k] = e;
    else for (const r of ready) out[r.k] = executeBatch(can.text, [calls[r.k]!], { ...o, generic: true })[0]!;
  };
  const failAll = (e: MlirRunError): void => {
    for (const r of ready) out[r.k] = e;
  };
  const low = runTool(tools.opt, [...LOWERING, '--mlir-disable-threading'], full, o);
  if (low.limited !== null) failAll(new MlirRunError('limit', limitMessage('lowering for mlir-cpu-runner', low, o), low.stderr));
  else if (crashed(low)) failAll(new MlirRunError('crash', `mlir-opt crashed lowering the module for the runner: ${low.stderr.trim().split('\n').slice(0, 12).join('\n')}`, low.stderr));
  else if (low.status !== 0) failAll(new MlirRunError('lowering', `the module cannot be lowered to the LLVM dialect for mlir-cpu-runner: ${low.stderr.trim().split('\n').slice(0, 8).join('\n')}`, low.stderr));
  else {
    const run = runTool(tools.runner, ['-e', HARNESS_MAIN, '-entry-point-result=void', `--shared-libs=${tools.sharedLibs.join(',')}`], low.stdout, o);
    if (run.limited !== null) fail(new MlirRunError('limit', limitMessage(`${names} under mlir-cpu-runner`, run, o), run.stderr));
    else if (run.signal !== null || run.status !== 0) {
      const how = run.signal ?? `exit ${run.status}`;
      fail(new MlirRunError('runtime', `${names} failed under mlir-cpu-runner (${how}${run.signal === 'SIGSEGV' ? ': an access outside the buffers?' : run.signal === 'SIGFPE' ? ': an integer division by zero?' : ''}): ${run.stderr.trim().split('\n').slice(0, 6).join('\n')}`, run.stderr));
    } else {
      const printed = run.stdout.split('\n').filter((l) => l !== '');
      const share = { canonical: can.ms / ready.length, lower: low.ms / ready.length, run: run.ms / ready.length };
      let at = 0;
      let heapBefore = 0;
      ready.forEach((r, kk) => {
        // The kernel may print before the harness does: its results follow MARKER and its position.
        while (at < printed.length && !(printed[at] === MARKER.toString() && printed[at + 1] === String(kk))) at++;
        if (at >= printed.length) throw new MlirRunError('runtime', `@${r.sig.name}: the harness printed no results (output: ${run.stdout.slice(0, 200)})`);
        at += 2;
        const take = (): bigint => {
          const l = printed[at++];
          if (l === undefined || !/^-?\d+$/.test(l)) throw new MlirRunError('runtime', `@${r.sig.name}: unexpected harness output line ${at}: ${l ?? '(end)'}`);
          return BigInt(l);
        };
        const memrefs: MemrefResult[] = [];
        r.sig.args.forEach((a, k) => {
          const val = r.values[k]!;
          if (a.kind !== 'memref' || val.kind !== 'memref') return;
          const final = val.cells.map(() => cellFromPrinted(a.elem, take()));
          memrefs.push({ arg: k, type: a.text, elem: a.elem, shape: val.shape, initial: val.cells, final, guardBytesChanged: Number(take()) });
        });
        const results = r.sig.results.map((x) => ({ type: x.text, elem: x.elem, cell: cellFromPrinted(x.elem, take()) }));
        const heap = Number(take());
        out[r.k] = { kernel: r.sig.name, seed: calls[r.k]!.seed, signature: r.sig, inputs: r.values, memrefs, results, heapGuardBytesChanged: heap - heapBefore, ms: share };
        heapBefore = heap;
      });
      if (at !== printed.length) throw new MlirRunError('runtime', `${names}: ${printed.length - at} more lines than the harness prints`);
    }
  }
  return out as (Execution | MlirRunError | MlirInputError)[];
}

// ---------------------------------------------------------------------------------------------
// Comparison

export interface Difference {
  /** The argument (`argument k`), the result (`result k`) or the heap (`heap`). */
  readonly where: string;
  /** The cell's multi-index (row-major), [] for a scalar or a rank-0 memref; 'guard' for the guard zones. */
  readonly index: readonly number[] | 'guard';
  readonly expected: bigint;
  readonly actual: bigint;
  /** Both, for people (floats as value and bit pattern). */
  readonly text: string;
}

export interface Comparison {
  readonly equal: boolean;
  /** Cells compared. */
  readonly cells: number;
  readonly differences: readonly Difference[];
}

function unflatten(shape: readonly number[], flat: number): number[] {
  const idx = new Array<number>(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    idx[d] = flat % shape[d]!;
    flat = Math.floor(flat / shape[d]!);
  }
  return idx;
}

/** Cell-by-cell differences of two runs of one signature on the same inputs (throws if they are not comparable). */
export function compare(before: Execution, after: Execution): Comparison {
  const sigText = (e: Execution): string => `(${e.signature.args.map((a) => a.text).join(', ')}) -> (${e.signature.results.map((r) => r.text).join(', ')})`;
  if (sigText(before) !== sigText(after)) throw new HarnessError(`the two modules' @${before.kernel} have different signatures: ${sigText(before)} and ${sigText(after)}`);
  const same = before.memrefs.every((m, k) => m.initial.length === after.memrefs[k]!.initial.length && m.initial.every((c, i) => c === after.memrefs[k]!.initial[i]))
    && before.inputs.every((v, k) => v.kind !== 'scalar' || (after.inputs[k]!.kind === 'scalar' && (after.inputs[k] as { cell: bigint }).cell === v.cell));
  if (!same) throw new HarnessError('the two runs were not given the same inputs');
  const differences: Difference[] = [];
  let cells = 0;
  before.memrefs.forEach((m, k) => {
    const o = after.memrefs[k]!;
    const where = `argument ${m.arg}`;
    m.final.forEach((c, i) => {
      cells++;
      const a = o.final[i]!;
      if (a !== c) differences.push({ where, index: unflatten(m.shape, i), expected: c, actual: a, text: `${where}[${unflatten(m.shape, i).join(', ')}]: expected ${renderCell(m.elem, c)}, got ${renderCell(m.elem, a)}` });
    });
    if (m.guardBytesChanged !== o.guardBytesChanged) {
      differences.push({ where, index: 'guard', expected: BigInt(m.guardBytesChanged), actual: BigInt(o.guardBytesChanged), text: `${where}: ${m.guardBytesChanged} guard bytes changed before, ${o.guardBytesChanged} after (an out-of-bounds write)` });
    }
  });
  if (before.heapGuardBytesChanged !== after.heapGuardBytesChanged) {
    differences.push({ where: 'heap', index: 'guard', expected: BigInt(before.heapGuardBytesChanged), actual: BigInt(after.heapGuardBytesChanged), text: `heap: ${before.heapGuardBytesChanged} guard bytes around memref.alloc blocks changed before, ${after.heapGuardBytesChanged} after (a write past an allocated buffer)` });
  }
  before.results.forEach((r, k) => {
    cells++;
    const a = after.results[k]!.cell;
    if (a !== r.cell) differences.push({ where: `result ${k}`, index: [], expected: r.cell, actual: a, text: `result ${k}: expected ${renderCell(r.elem, r.cell)}, got ${renderCell(r.elem, a)}` });
  });
  return { equal: differences.length === 0, cells, differences };
}

export interface Differential {
  readonly pass: PassResult;
  readonly before: Execution;
  readonly after: Execution;
  readonly comparison: Comparison;
}

/** The call that gives a kernel the very inputs BEFORE was given (memrefs BEFORE's cells, scalars the same specs and seed). */
export function sameInputs(before: Execution, specs: readonly ArgSpec[]): BatchCall {
  return { kernel: before.kernel, seed: before.seed, specs: before.inputs.map((v, k): ArgSpec => (v.kind === 'memref' ? { shape: v.shape, cells: v.cells } : specs[k])) };
}

/** Run KERNEL of OUTPUT (runPasses' generic printing) on the very inputs BEFORE was given. */
export function executeLike(before: Execution, output: string, specs: readonly ArgSpec[], o: RunOptions = {}): Execution {
  const c = sameInputs(before, specs);
  return execute(output, c.kernel, c.specs, c.seed, { ...o, generic: true, fileName: `${o.fileName ?? '<input>'} after the passes` });
}

/** Run PIPELINE on MODULE, then KERNEL of the source (or BEFORE, its execution) and of the output on the same inputs, and compare. */
export function differential(module: string, pipeline: string | readonly string[], kernel: string, specs: readonly ArgSpec[], seed = 0, o: RunOptions = {}, before?: Execution): Differential {
  const pass = runPasses(module, pipeline, o);
  const src = before ?? execute(module, kernel, specs, seed, o);
  const after = executeLike(src, pass.output, specs, o);
  return { pass, before: src, after, comparison: compare(src, after) };
}
