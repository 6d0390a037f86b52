// The header of an MLIR corpus file (docs/mlir.md § Corpus files): the leading `//` comment block
// names the kernel, the sizes it runs at, the mlir-opt pipelines and, per pipeline, the expected
// verdict of `sched mlir` and what the execution oracle sees when the real mlir-opt 16 runs it.
//
//   // KERNEL: @gemm
//   // SIZES: N=8 M=5 A=NxM alpha=1.5
//   // PIPELINE tile: --affine-loop-tile='tile-size=4'
//   // EXPECT tile: valid
//   // RUNNER tile: agrees
//   // BUG: https://github.com/llvm/llvm-project/issues/NNNN: summary   (or `new: summary`)
//
// SIZES names the kernel's arguments by their SSA names in this file: an index or integer argument
// gets a value, a float argument an exact value (seeded otherwise), a memref with a dynamic
// dimension its shape, factors being numbers or names of index arguments given before.

import { diag, type Diagnostic, SchedInputError } from '../../core/language/diagnostics.ts';
import type { ArgSpec } from './runner.ts';
import { closeOf, splitTopLevel } from './harness.ts';

export type Expect =
  | { readonly verdict: 'valid' }
  | { readonly verdict: 'invalid'; readonly cls: string | null }
  | { readonly verdict: 'unknown'; readonly reason: string | null };

export interface PipelineEntry {
  readonly label: string;
  /** The mlir-opt arguments exactly as written (split with splitArgs). */
  readonly args: string;
  readonly line: number;
  readonly expect: Expect | null;
  /** What mlir-cpu-runner shows for the real mlir-opt 16: the output differs from the source or agrees. */
  readonly runner: 'differs' | 'agrees' | null;
}

export interface CorpusHeader {
  readonly kernel: string;
  /** NAME=VALUE pairs of the SIZES line, in order. */
  readonly sizes: readonly { readonly name: string; readonly value: string; readonly col: number }[];
  readonly sizesLine: number;
  readonly seed: number;
  /** `// ASSUME: cond` lines: conditions on the translation's parameters (`sched mlir --assume`). */
  readonly assumes: readonly string[];
  readonly pipelines: readonly PipelineEntry[];
  /** The tracker reports the file reproduces; url null for a bug found here and not yet reported. */
  readonly bugs: readonly { readonly url: string | null; readonly summary: string }[];
}

const KEYS = ['KERNEL', 'SIZES', 'SEED', 'ASSUME', 'PIPELINE', 'EXPECT', 'RUNNER', 'BUG'] as const;

/** Read the header of FILE's TEXT (throws SchedInputError with every problem found). */
export function readHeader(text: string, file: string): CorpusHeader {
  const errors: Diagnostic[] = [];
  const err = (line: number, col: number, message: string, expected: string | null = null, found: string | null = null): void => {
    errors.push(diag(file, { line, col }, 'syntax', message, expected, found));
  };
  let kernel: string | null = null;
  let sizes: CorpusHeader['sizes'] = [];
  let sizesLine = 0;
  let seed = 0;
  const pipelines = new Map<string, { args: string; line: number; expect: Expect | null; runner: 'differs' | 'agrees' | null }>();
  const pending: { key: 'EXPECT' | 'RUNNER'; label: string; value: string; line: number }[] = [];
  const bugs: { url: string | null; summary: string }[] = [];
  const assumes: string[] = [];
  const lines = text.split('\n');
  for (let k = 0; k < lines.length; k++) {
    const raw = lines[k]!;
    const n = k + 1;
    if (raw.trim() === '') continue;
    if (!raw.startsWith('//')) break; // the header ends at the first line of MLIR
    const m = /^\/\/ ([A-Z]+)(?: ([A-Za-z0-9_.-]+))?: ?(.*)$/.exec(raw);
    if (!m || !(KEYS as readonly string[]).includes(m[1]!)) continue; // prose
    const key = m[1] as (typeof KEYS)[number];
    const label = m[2];
    const value = m[3]!.trim();
    const valueCol = raw.indexOf(m[3]!) + 1;
    const needsLabel = key === 'PIPELINE' || key === 'EXPECT' || key === 'RUNNER';
    if (needsLabel !== (label !== undefined)) {
      err(n, 4, needsLabel ? `${key} needs a label` : `${key} takes no label`, needsLabel ? `// ${key} <label>: …` : `// ${key}: …`, raw);
      continue;
    }
    switch (key) {
      case 'KERNEL': {
        const km = /^@([A-Za-z_][A-Za-z0-9_$.]*)$/.exec(value);
        if (kernel !== null) err(n, 4, 'a second KERNEL line');
        else if (!km) err(n, valueCol, 'bad KERNEL', '@name', value);
        else kernel = km[1]!;
        break;
      }
      case 'SIZES': {
        if (sizesLine !== 0) err(n, 4, 'a second SIZES line');
        sizesLine = n;
        const out: { name: string; value: string; col: number }[] = [];
        const re = /(\S+)/g;
        let w: RegExpExecArray | null;
        while ((w = re.exec(value)) !== null) {
          const p = /^([A-Za-z_][A-Za-z0-9_$.]*)=(\S+)$/.exec(w[1]!);
          if (!p) err(n, valueCol + w.index, 'bad size', 'NAME=VALUE', w[1]!);
          else out.push({ name: p[1]!, value: p[2]!, col: valueCol + w.index });
        }
        sizes = out;
        break;
      }
      case 'ASSUME':
        // A condition on the translation's parameters (SCHED syntax) the verdicts hold under.
        if (value === '') err(n, valueCol, 'an empty ASSUME', 'a condition', 'nothing');
        else assumes.push(value);
        break;
      case 'SEED':
        if (!/^\d+$/.test(value)) err(n, valueCol, 'bad SEED', 'a natural number', value);
        else seed = Number(value);
        break;
      case 'PIPELINE':
        if (pipelines.has(label!)) err(n, 4, `a second PIPELINE ${label}`);
        else if (value === '') err(n, valueCol, 'an empty PIPELINE', 'mlir-opt arguments', 'nothing');
        else pipelines.set(label!, { args: value, line: n, expect: null, runner: null });
        break;
      case 'EXPECT':
      case 'RUNNER':
        pending.push({ key, label: label!, value, line: n });
        break;
      case 'BUG': {
        const b = /^(https?:\/\/\S+?|new):\s+(.+)$/.exec(value);
        if (!b) err(n, valueCol, 'bad BUG', "<tracker URL>: <summary> (or 'new: <summary>' for a bug not yet on the tracker)", value);
        else bugs.push({ url: b[1] === 'new' ? null : b[1]!, summary: b[2]! });
        break;
      }
    }
  }
  for (const p of pending) {
    const e = pipelines.get(p.label);
    if (!e) {
      err(p.line, 4, `${p.key} for an unknown pipeline '${p.label}'`, `a PIPELINE ${p.label} line`);
      continue;
    }
    if (p.key === 'RUNNER') {
      if (e.runner !== null) err(p.line, 4, `a second RUNNER ${p.label}`);
      else if (p.value !== 'differs' && p.value !== 'agrees') err(p.line, 4, 'bad RUNNER', 'differs | agrees', p.value);
      else e.runner = p.value;
      continue;
    }
    const x = /^(valid|invalid|unknown)(?:\s+(.+))?$/.exec(p.value);
    if (e.expect !== null) err(p.line, 4, `a second EXPECT ${p.label}`);
    else if (!x || (x[1] === 'valid' && x[2] !== undefined)) err(p.line, 4, 'bad EXPECT', 'valid | invalid [class] | unknown [reason]', p.value);
    else e.expect = x[1] === 'valid' ? { verdict: 'valid' } : x[1] === 'invalid' ? { verdict: 'invalid', cls: x[2] ?? null } : { verdict: 'unknown', reason: x[2] ?? null };
  }
  if (kernel === null) err(1, 1, 'no KERNEL line in the header', '// KERNEL: @name');
  if (pipelines.size === 0) err(1, 1, 'no PIPELINE line in the header', '// PIPELINE <label>: <mlir-opt arguments>');
  for (const [label, e] of pipelines) {
    if (e.expect === null) err(e.line, 4, `PIPELINE ${label} has no EXPECT line`);
    if (e.runner === null) err(e.line, 4, `PIPELINE ${label} has no RUNNER line`);
  }
  if (errors.length > 0) throw new SchedInputError(errors);
  return {
    kernel: kernel!,
    sizes,
    sizesLine,
    seed,
    assumes,
    pipelines: [...pipelines].map(([label, e]) => ({ label, ...e })),
    bugs,
  };
}

/** The kernel's argument names and types as written in TEXT (custom `func.func @k(%a: T, …)` or generic `^bb0(…)`). */
export function kernelArgNames(text: string, kernel: string): { name: string; type: string }[] | null {
  const at = text.search(new RegExp(`func\\.func\\s+(?:(?:private|public|nested)\\s+)?@${kernel.replace(/[$.]/g, '\\$&')}\\s*\\(`));
  if (at < 0) return null;
  const open = text.indexOf('(', at);
  const close = closeOf(text, open) - 1;
  if (close < 0) return null;
  const out: { name: string; type: string }[] = [];
  for (const a of splitTopLevel(text.slice(open + 1, close))) {
    const m = /^%([A-Za-z0-9_$.-]+)\s*:\s*(.*?)(?:\s*\{.*\})?(?:\s+loc\(.*\))?$/s.exec(a);
    if (!m) return null;
    out.push({ name: m[1]!, type: m[2]!.trim() });
  }
  return out;
}

/** The runner's argument specs for the header's SIZES over the kernel's arguments in TEXT. */
export function argSpecs(h: CorpusHeader, text: string, file: string): ArgSpec[] {
  const args = kernelArgNames(text, h.kernel);
  const fail = (col: number, message: string, expected: string | null = null, found: string | null = null): never => {
    throw new SchedInputError([diag(file, { line: h.sizesLine || 1, col }, 'syntax', message, expected, found)]);
  };
  if (args === null) return fail(1, `cannot read the arguments of @${h.kernel}`, `func.func @${h.kernel}(%name: type, …) in custom form`);
  const values = new Map<string, number>();
  const specs: ArgSpec[] = args.map(() => undefined);
  for (const s of h.sizes) {
    const k = args.findIndex((a) => a.name === s.name);
    if (k < 0) fail(s.col, `@${h.kernel} has no argument %${s.name}`, args.map((a) => `%${a.name}`).join(', '));
    if (specs[k] !== undefined) fail(s.col, `%${s.name} given twice`);
    const type = args[k]!.type;
    if (type.startsWith('memref<')) {
      const dims = s.value.split('x').map((d) => {
        if (/^\d+$/.test(d)) return Number(d);
        const v = values.get(d);
        if (v === undefined) return fail(s.col, `unknown size '${d}' in the shape of %${s.name}`, 'a number or an index argument given before');
        return v;
      });
      specs[k] = { shape: dims };
    } else if (/^(index|i\d+)$/.test(type)) {
      if (!/^-?\d+$/.test(s.value)) fail(s.col, `bad value of %${s.name}`, `an integer (${type})`, s.value);
      values.set(s.name, Number(s.value));
      specs[k] = BigInt(s.value);
    } else {
      const x = Number(s.value);
      if (!Number.isFinite(x)) fail(s.col, `bad value of %${s.name}`, `a number (${type})`, s.value);
      specs[k] = x;
    }
  }
  return specs;
}
