// A source and a target function (mlir-opt's generic form, with locations) translated into one
// `.sched` program: the spec from the source (compilers/mlir/spec.ts, exact dataflow) and the
// implementation from the target (compilers/mlir/impl.ts, inferred annotations). docs/mlir.md.

import { parseGeneric, MlirSyntaxError } from './parse.ts';
import { lowerFunction } from './lower.ts';
import { kernelSpec, writtenArgs } from './spec.ts';
import { kernelImpl } from './impl.ts';
import type { Kernel } from './kernel.ts';
import { showType, type Module } from './ir.ts';
import { Unsupported } from './ops.ts';

export { Unsupported } from './ops.ts';
export { SourceRefused } from './spec.ts';
export { MlirSyntaxError } from './parse.ts';

export interface MlirTranslation {
  /** The `.sched` program: `spec <name>` and `impl <name>_tgt`. */
  readonly text: string;
  readonly specName: string;
  readonly implName: string;
  /** The function validated. */
  readonly func: string;
  readonly source: Kernel;
  readonly target: Kernel;
  readonly stores: number;
  readonly annotated: number;
  readonly notes: readonly string[];
  /** Copies in the target that may copy an undefined value (see KernelImpl.undefinedCopies). */
  readonly undefinedCopies: readonly string[];
  /** Milliseconds of the translation (a measurement). */
  readonly ms: number;
}

export interface TranslateOptions {
  /** The function (default: the only one with a body that no other one calls). */
  readonly func?: string;
  /** The name of the spec (default: the function's); the implementation is `<name>_tgt`. */
  readonly name?: string;
  /** Conditions on the parameters the verdict is to hold under (SCHED syntax, the translation's names). */
  readonly assumes?: readonly string[];
  /** The source's argument names by function (`%NI` in `func.func @k(%NI: index, …)`), if known. */
  readonly argNames?: (func: string) => readonly string[] | null;
  /** Display names of the files the modules came from (mlir-opt calls stdin `<stdin>`). */
  readonly sourceFile: string;
  readonly targetFile: string;
}

/** A SCHED name for a function name (`@conv2d.nchw` → `conv2d_nchw`). */
function sanitize(f: string): string {
  const s = f.replace(/[^A-Za-z0-9_]/g, '_').replace(/^_+/, '');
  return s === '' || /^\d/.test(s) ? `f_${s}` : s;
}

function parse(text: string, what: string): Module {
  try {
    return parseGeneric(text);
  } catch (e) {
    if (e instanceof MlirSyntaxError) throw new Unsupported('syntax', `the ${what} as mlir-opt printed it, at ${e.message}`);
    throw e;
  }
}

/** Translate; throws Unsupported (an op or construct) or SourceRefused (the source's meaning). */
export async function translateMlir(source: string, target: string, o: TranslateOptions): Promise<MlirTranslation> {
  const t0 = performance.now();
  const rename = (file: string) => (f: string): string => (f === '<stdin>' || f === '-' ? file : f);
  const src = lowerFunction(parse(source, 'source'), o.func, rename(o.sourceFile), o.argNames ?? null);
  const tgt = lowerFunction(parse(target, 'target'), o.func ?? src.name, rename(o.targetFile), o.argNames ?? null);
  const sig = (k: Kernel): string => k.arrays.filter((a) => a.origin.kind === 'arg' || a.origin.kind === 'scalar').map((a) => `${a.name}: ${showType(a.mtype)}`).join(', ') + ` | ${k.params.map((p) => p.name).join(', ')}`;
  if (sig(src) !== sig(tgt)) throw new Unsupported('func.func', `the source's and the target's @${src.name} have different signatures: (${sig(src)}) and (${sig(tgt)})`);
  const outputs = new Set([...writtenArgs(src), ...writtenArgs(tgt)]);
  const name = o.name ?? sanitize(src.name);
  const spec = await kernelSpec(src, name, outputs);
  const implName = `${name}_tgt`;
  const impl = kernelImpl({ source: src, target: tgt, spec, implName, outputs, ...(o.assumes ? { assumes: o.assumes } : {}) });
  const header = [
    `// sched mlir: @${src.name} of ${o.sourceFile} (spec ${name}, by dataflow) and of ${o.targetFile} (impl ${implName}, annotations inferred).`,
    ...src.params.map((p) => `// param ${p.name}: ${p.what}`),
    ...src.arrays.filter((a) => a.origin.kind === 'arg' || a.origin.kind === 'scalar').map((a) => `// array ${a.name}: argument ${a.origin.kind === 'arg' || a.origin.kind === 'scalar' ? a.origin.index : ''} (${showType(a.mtype)}), initial contents ${a.tensor}${a.origin.kind === 'arg' ? `, final ${a.tensor}_out where written` : ''}`),
  ].join('\n');
  const notes = [
    ...(spec.defined !== null ? [`the source's accesses are in bounds only where ${spec.defined} (out of bounds is undefined behaviour): the spec assumes it`] : []),
    ...spec.notes.map((n) => `source: ${n}`),
    ...src.notes.map((n) => `source: ${n}`),
    ...impl.notes,
  ];
  return {
    text: `${header}\n\n${spec.text}\n${impl.text}`,
    specName: name,
    implName,
    func: src.name,
    source: src,
    target: tgt,
    stores: impl.stores,
    annotated: impl.annotated,
    notes,
    undefinedCopies: impl.undefinedCopies,
    ms: performance.now() - t0,
  };
}
