// Running an implementation against its spec (`sched run`, counterexample replay): parameters are
// checked against the assumptions, the model of the spec is built on seeded (or given) inputs,
// every input array cell is filled with the value of its declared prophetic expression in that
// model, the big-step semantics runs, and every output cell of the checked region (the box of the
// declaration, intersected with its `where`) is compared with its declared prophetic expression.

import type { ArrayDecl, Expr } from '../core/language/ast.ts';
import { diag, SchedInputError } from '../core/language/diagnostics.ts';
import type { CheckedImpl, CheckedSpec } from '../core/language/typecheck.ts';
import { type BigStepMachine, type BigStepOptions, BigStepProgram, type BigStepResult, execute } from './bigstep.ts';
import type { Derivation } from './derivation.ts';
import { type AnnotationMismatch, AnnotationChecker, annotationMismatch } from './annotations.ts';
import type { RunError } from './errors.ts';
import { ExprCompiler, type NamedMemory, type Port } from './eval.ts';
import { type Frame, Layout, Scope } from './scope.ts';
import { asCount, fromBig, type Int } from './int.ts';
import { type ArrayRef, Cells, getCell, setCell, Space, SPARSE_CELLS, sparseCells } from './memory.ts';
import { type InputSource, seededInputs, SpecModel, type UnconstrainedRead } from './model.ts';
import { familyInputs, type InputFamily } from './inputs.ts';
import { type Slice, sliceImpl, sliceText } from './slice.ts';
import { closeValue, type JsonValue, sameValue, type Value, valueToJson } from './values.ts';

export const DEFAULT_MAX_CELLS = 1 << 25;

export type ParamValues = ReadonlyMap<string, bigint>;

/**
 * The values of the spec's parameters among `given` (others are ignored: one command line can
 * serve files with different specs; a misspelt name still shows up as a missing parameter).
 */
export function checkParams(cs: CheckedSpec, given: ParamValues, file: string): Map<string, Int> {
  const out = new Map<string, Int>();
  const missing = cs.params.filter((p) => !given.has(p));
  if (missing.length > 0) {
    throw new SchedInputError([diag(file, cs.spec.pos, 'io', `no value for parameter${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of spec '${cs.spec.name}' (use --param ${missing[0]}=…)`, `--param for ${cs.params.join(', ')}`, `missing ${missing.join(', ')}`)]);
  }
  for (const p of cs.params) out.set(p, fromBig(given.get(p)!));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Compiled implementations

interface GlobalArray {
  readonly decl: ArrayDecl;
  readonly vars: readonly string[];
  readonly value: Expr | null;
  readonly slot: number;
  readonly dims: ((f: Frame) => Int)[];
}

/** A port for expressions that read nothing (dimensions, assumptions). */
const NO_MEMORY: Port = {
  readArray: () => {
    throw new Error('internal: array read in an affine expression');
  },
  outOfBounds: () => {
    throw new Error('internal: array read in an affine expression');
  },
  readTensor: () => {
    throw new Error('internal: tensor read in an affine expression');
  },
};

/** An implementation compiled for the big-step machine (reusable across runs). */
export class ImplProgram {
  readonly layout = new Layout();
  readonly paramSlots = new Map<string, number>();
  readonly globals: GlobalArray[] = [];
  readonly big: BigStepProgram;
  private readonly assumes: { e: Expr; fn: (f: Frame) => boolean }[] = [];

  constructor(readonly ci: CheckedImpl) {
    const X = new ExprCompiler(NO_MEMORY);
    let sc = Scope.root(this.layout);
    for (const p of ci.spec.params) {
      const b = sc.bindVar(p);
      sc = b.scope;
      this.paramSlots.set(p, b.slot);
    }
    const paramScope = sc;
    for (const a of [...ci.spec.spec.assumes, ...ci.impl.assumes]) this.assumes.push({ e: a, fn: X.cond(a, paramScope) });
    for (const [name, info] of ci.arrays) {
      const dims = info.decl.dims.map((d) => X.index(d, paramScope));
      const b = sc.bindArray(name);
      sc = b.scope;
      this.globals.push({ decl: info.decl, vars: info.vars, value: info.value, slot: b.slot, dims });
    }
    this.big = new BigStepProgram(
      this.layout,
      ci.impl.body,
      sc,
      this.globals.map((g) => ({ slot: g.slot, elem: g.decl.elem })),
      X,
    );
  }

  get M(): BigStepMachine {
    return this.big.M;
  }

  /** A frame with the parameters set; throws an input error if an assumption is violated. */
  frame(params: ReadonlyMap<string, Int>, file: string): Frame {
    const f = this.layout.newFrame();
    for (const [p, s] of this.paramSlots) f[s] = params.get(p)!;
    for (const a of this.assumes) {
      if (!a.fn(f)) {
        const vals = [...params].map(([k, v]) => `${k} = ${v}`).join(', ');
        throw new SchedInputError([diag(file, a.e.pos, 'io', `the parameters (${vals}) violate this assumption`, 'parameters satisfying every assume of the spec and the impl', 'a violated assumption')]);
      }
    }
    return f;
  }
}

const programs = new WeakMap<CheckedImpl, ImplProgram>();
export function implProgram(ci: CheckedImpl): ImplProgram {
  let p = programs.get(ci);
  if (p === undefined) {
    p = new ImplProgram(ci);
    programs.set(ci, p);
  }
  return p;
}

/** Visit every cell of a box in row-major order (k is the offset). */
export function forEachCell(dims: readonly number[], visit: (idx: number[], k: number) => void): void {
  let size = 1;
  for (const d of dims) size *= d;
  if (size === 0) return;
  const idx = new Array<number>(dims.length).fill(0);
  for (let k = 0; k < size; k++) {
    visit(idx, k);
    for (let i = dims.length - 1; i >= 0; i--) {
      if (++idx[i]! < dims[i]!) break;
      idx[i] = 0;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// runImpl

export interface RunImplOptions extends BigStepOptions {
  /** Seed of the input generator (default 0). */
  readonly seed?: bigint | number | string;
  /** The family of seeded inputs (semantics/inputs.ts; default `default`). */
  readonly family?: InputFamily;
  /** Explicit input tensors; default: the family's inputs for `seed`. */
  readonly inputs?: InputSource;
  /** A model to reuse (several implementations of one spec, same parameters and inputs). */
  readonly model?: SpecModel;
  /** Relative tolerance for float outputs; default exact (bit equality, NaN = NaN, +0 ≠ -0). */
  readonly tolerance?: number;
  readonly maxCells?: number;
  /** How many mismatching cells to list (default 10; all are counted). */
  readonly maxMismatches?: number;
  /** The file name for diagnostics. */
  readonly file?: string;
  /**
   * Check every annotated assignment against the spec's model as the run makes it (`annotations`
   * of the result), without recording a derivation.
   */
  readonly checkAnnotations?: boolean;
  /**
   * Run only this iteration of the parallel loops around an assignment (semantics/slice.ts): the
   * outputs are then not compared (outcome `sliced` when nothing went wrong).
   */
  readonly slice?: Slice;
}

export interface Mismatch {
  readonly array: string;
  readonly index: number[];
  readonly expected: JsonValue;
  /** null when the cell holds ⊥ (never written). */
  readonly actual: JsonValue;
}

/** The report of one run: the `run` JSON shape of docs/commands.md, plus details. */
export interface RunReport {
  readonly impl: string;
  readonly spec: string;
  readonly params: Record<string, number | string>;
  readonly seed: string | number | null;
  /** The input family the seed drew from (`default`, `corner`, `spread`), or `given`. */
  readonly inputs: string;
  /** `sliced`: a slice (`--slice`) ran without error; its outputs are not compared. */
  readonly outcome: 'match' | 'mismatch' | 'error' | 'sliced';
  readonly error: RunError | null;
  readonly writes: number;
  readonly reads: number;
  readonly ms: number;
  /** Output cells compared (the checked region), mismatches found, and the first few. */
  readonly checked: number;
  readonly mismatchCount: number;
  readonly mismatches: Mismatch[];
  /** Spec points read outside every equation's domain (their value is an arbitrary choice). */
  readonly unconstrained: { readonly count: number; readonly examples: UnconstrainedRead[] };
  readonly comparison: string;
  readonly omega: boolean;
  /** Conditional stores ran as `if (c) store` (BigStepOptions.conditionalStores). */
  readonly conditionalStores: boolean;
  /** The slice that ran (`LINE:x=v,…`), or null for the whole program. */
  readonly slice: string | null;
}

export interface RunResult {
  readonly report: RunReport;
  /** The global arrays after the run (μ ▷ δμ), or as far as the run got before failing. */
  readonly memory: NamedMemory;
  /** The initial memory μ (inputs filled, everything else ⊥). */
  readonly initial: NamedMemory;
  readonly model: SpecModel;
  readonly result: BigStepResult;
  readonly derivation: Derivation | null;
  /**
   * With `checkAnnotations`: the first assignment whose value differs from its annotation (null:
   * none), whatever the outcome (a run that stops early was checked up to where it stopped).
   */
  readonly annotations: AnnotationMismatch | null;
}

function jsonInt(v: Int): number | string {
  return typeof v === 'number' ? v : v.toString();
}

/** The model of `ci`'s spec for these parameters and inputs. */
export function specModel(ci: CheckedImpl, params: ReadonlyMap<string, Int>, opts: { seed?: bigint | number | string; family?: InputFamily; inputs?: InputSource; file?: string }): SpecModel {
  const seed = opts.seed ?? 0;
  const inputs = opts.inputs ?? (opts.family && opts.family !== 'default' ? familyInputs(opts.family, typeof seed === 'string' ? BigInt(seed) : seed) : seededInputs(seed));
  return new SpecModel(ci.spec, params, inputs, opts.file ?? ci.impl.name);
}

/**
 * Build the initial memory of `ci` for the given parameters: global arrays with inputs filled from
 * the model. Throws SchedInputError on bad parameters or violated assumptions.
 */
export function initialMemory(ci: CheckedImpl, params: ReadonlyMap<string, Int>, model: SpecModel, opts: { maxCells?: number; file?: string; sparse?: boolean } = {}): { frame: Frame; space: Space; arrays: Map<string, ArrayRef> } {
  const file = opts.file ?? ci.impl.name;
  const prog = implProgram(ci);
  const f = prog.frame(params, file);
  const space = new Space(opts.maxCells ?? DEFAULT_MAX_CELLS, opts.sparse ? SPARSE_CELLS : null);
  const arrays = new Map<string, ArrayRef>();
  const shapes = prog.globals.map((g) =>
    g.dims.map((d) => {
      const n = asCount(d(f), space.maxExtent);
      if (n === null) throw new SchedInputError([diag(file, g.decl.pos, 'io', `array '${g.decl.name}' is too large for these parameters`, `dimensions below ${space.sparseFrom === null ? '2^31' : '2^46'}`, 'a larger dimension')]);
      return n;
    }),
  );
  const overCap = (g: (typeof prog.globals)[number], dims: readonly number[]): SchedInputError =>
    new SchedInputError([diag(file, g.decl.pos, 'io', `array '${g.decl.name}[${dims.join(', ')}]' exceeds the memory cap of ${space.maxCells} cells`, 'smaller parameters (or a larger --max-cells)', `${dims.reduce((a, b) => a * b, 1)} cells`)]);
  // The cap is checked for all arrays before any input is filled: filling two inputs of 2 million
  // cells only to find the third array over the cap took seconds (a replay's too-large check).
  let total = 0;
  for (const [k, g] of prog.globals.entries()) {
    const size = shapes[k]!.reduce((a, b) => a * b, 1);
    if (space.sparseFrom !== null) break; // over the cap, an array is sparse there
    total += size;
    if (!Number.isSafeInteger(total) || total > space.maxCells) throw overCap(g, shapes[k]!);
  }
  for (const [gi, g] of prog.globals.entries()) {
    const dims = shapes[gi]!;
    const ref = space.alloc(g.decl.name, g.decl.elem, dims, true, g.decl.pos, 0);
    if (ref === null) throw overCap(g, dims);
    f[g.slot] = ref;
    arrays.set(g.decl.name, ref);
    const input = g.decl.role === 'input' && g.value !== null;
    if (ref.sparse) {
      // An input's cells are read from the model when the run first touches them.
      const pe = input ? model.compileProphetic(g.value!, g.vars) : null;
      const where = pe && g.decl.where !== null ? pe.cond(g.decl.where) : null;
      ref.cells = sparseCells(ref.elem, pe === null ? null : (k) => {
        const idx = ref.indexOf(k);
        for (let i = 0; i < idx.length; i++) pe.frame[pe.slots[i]!] = idx[i]!;
        return where !== null && !where(pe.frame) ? undefined : pe.fn(pe.frame);
      });
      continue;
    }
    ref.cells = Cells.empty(g.decl.elem, ref.size);
    if (input) {
      const pe = model.compileProphetic(g.value!, g.vars);
      const where = g.decl.where === null ? null : pe.cond(g.decl.where);
      const cells = ref.cells;
      forEachCell(dims, (idx, k) => {
        for (let i = 0; i < idx.length; i++) pe.frame[pe.slots[i]!] = idx[i]!;
        if (where !== null && !where(pe.frame)) return;
        setCell(cells, ref.elem, k, pe.fn(pe.frame));
      });
    }
  }
  return { frame: f, space, arrays };
}

/** The initial memory by location text (`a[1, 2]`), for a derivation's record. */
function initialLookup(initial: NamedMemory): { get(loc: string): Value | undefined } {
  return {
    get: (loc) => {
      const m = /^([^[]+)\[(.*)\]$/.exec(loc);
      const a = m ? initial.get(m[1]!) : undefined;
      if (!m || !a) return undefined;
      const k = a.ref.offset(m[2]!.trim() === '' ? [] : m[2]!.split(',').map((x) => Number(x)));
      return k < 0 ? undefined : getCell(a.cells, a.ref.elem, k);
    },
  };
}

function snapshot(arrays: ReadonlyMap<string, ArrayRef>, clone: boolean): NamedMemory {
  const m = new Map<string, { ref: ArrayRef; cells: Cells }>();
  for (const [name, ref] of arrays) m.set(name, { ref, cells: clone ? ref.cells!.clone() : ref.cells! });
  return m;
}

/** The comparison of a final memory with the spec: output cells of the checked regions. */
export interface Comparison {
  readonly checked: number;
  readonly mismatchCount: number;
  readonly mismatches: Mismatch[];
}

/**
 * Compare every output array with its declared prophetic expression on its checked region (the
 * box ∩ `where`) in the final memory.
 */
export function compareOutputs(ci: CheckedImpl, model: SpecModel, memory: NamedMemory, opts: { tolerance?: number; maxMismatches?: number } = {}): Comparison {
  const prog = implProgram(ci);
  let checked = 0;
  let mismatchCount = 0;
  const mismatches: Mismatch[] = [];
  const maxList = opts.maxMismatches ?? 10;
  const tol = opts.tolerance;
  for (const g of prog.globals) {
    if (g.decl.role !== 'output' || g.value === null) continue;
    const { ref, cells } = memory.get(g.decl.name)!;
    const pe = model.compileProphetic(g.value, g.vars);
    const where = g.decl.where === null ? null : pe.cond(g.decl.where);
    forEachCell(ref.dims, (idx, k) => {
      for (let i = 0; i < idx.length; i++) pe.frame[pe.slots[i]!] = idx[i]!;
      if (where !== null && !where(pe.frame)) return;
      checked++;
      const expected = pe.fn(pe.frame);
      const actual = getCell(cells, g.decl.elem, k);
      const ok = actual !== undefined && (tol === undefined ? sameValue(expected, actual) : closeValue(expected, actual, tol));
      if (!ok) {
        mismatchCount++;
        if (mismatches.length < maxList) mismatches.push({ array: g.decl.name, index: [...idx], expected: valueToJson(expected), actual: valueToJson(actual) });
      }
    });
  }
  return { checked, mismatchCount, mismatches };
}

/**
 * Run implementation `ci` on parameters `params` (all spec parameters) and compare its outputs
 * with the spec's model. The entry point for `sched run` and for counterexample replay.
 */
export function runImpl(ci: CheckedImpl, params: ParamValues, opts: RunImplOptions = {}): RunResult {
  const t0 = performance.now();
  const file = opts.file ?? ci.impl.name;
  const ps = checkParams(ci.spec, params, file);
  // A slice that does not fit the program throws its SliceError before any memory is filled.
  const run = opts.slice ? sliceImpl(ci, opts.slice) : ci;
  const model = opts.model ?? specModel(ci, ps, { seed: opts.seed, family: opts.family, inputs: opts.inputs, file });
  // A slice runs one iteration: arrays too large to hold are sparse (their cells in maps).
  const { frame, space, arrays } = initialMemory(ci, ps, model, { maxCells: opts.maxCells, file, sparse: opts.slice !== undefined });
  const initial = snapshot(arrays, true);
  const prog = implProgram(run);
  const checker = opts.checkAnnotations ? new AnnotationChecker(ci, model) : null;
  const result = execute(prog.big, frame, space, checker ? { ...opts, watchAssignments: checker.visit } : opts, () => initialLookup(initial));
  const memory = snapshot(arrays, false);

  const cmp = result.ok && !opts.slice ? compareOutputs(ci, model, memory, opts) : { checked: 0, mismatchCount: 0, mismatches: [] };
  const tol = opts.tolerance;
  const report: RunReport = {
    impl: ci.impl.name,
    spec: ci.spec.spec.name,
    params: Object.fromEntries([...ps].map(([k, v]) => [k, jsonInt(v)])),
    seed: opts.inputs ? null : typeof opts.seed === 'bigint' ? jsonInt(fromBig(opts.seed)) : (opts.seed ?? 0),
    inputs: opts.inputs ? 'given' : (opts.family ?? 'default'),
    outcome: !result.ok ? 'error' : opts.slice ? 'sliced' : cmp.mismatchCount > 0 ? 'mismatch' : 'match',
    error: result.ok ? null : result.error,
    writes: result.stats.writes,
    reads: result.stats.reads,
    ms: Math.round((performance.now() - t0) * 1000) / 1000,
    checked: cmp.checked,
    mismatchCount: cmp.mismatchCount,
    mismatches: cmp.mismatches,
    unconstrained: { count: model.unconstrainedCount, examples: [...model.unconstrained] },
    comparison: opts.slice ? 'none (a slice)' : tol === undefined ? 'exact (bit equality; NaN equals NaN; +0 differs from -0)' : `relative tolerance ${tol} (NaN equals NaN; ±0 equal)`,
    omega: opts.omega === true,
    conditionalStores: opts.conditionalStores === true,
    slice: opts.slice ? sliceText(opts.slice) : null,
  };
  const derivation = result.ok ? result.derivation : null;
  // With a derivation too, the recording translation ran (no watcher): check the tree instead.
  const annotations = checker === null ? null : derivation ? annotationMismatch(ci, derivation.root, model) : checker.first;
  return { report, memory, initial, model, result, derivation, annotations };
}
