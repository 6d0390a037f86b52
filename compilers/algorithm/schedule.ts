// Halide-style schedules, the second input of `sched lower`: per Func, where it is computed and
// stored (inline, root, at a loop of a consumer stage), storage folding, and per stage a list of
// loop directives (split with a tail strategy, fuse, reorder, tile, parallel, vectorize, unroll,
// serial) plus specialisations (`if cond then <specialised loops> else <generic loops>`).
//
// JSON shape: `Schedule`. Text form (one chain per line, Halide syntax):
//
//     F.split(x, xo, xi, 4, ShiftInwards).parallel(xo);
//     F.update(0).split(r, ro, ri, 2).reorder(ri, x, ro);
//     F.specialize(N >= 8).vectorize(x, 8);
//     P.compute_at(F, xo).store_at(F, root);
//     P.fold_storage(y, 4);

import { closing, LowerError, splitTop, statements } from './algorithm.ts';

export type Tail = 'Auto' | 'ShiftInwards' | 'GuardWithIf' | 'RoundUp';
export const TAILS: readonly Tail[] = ['Auto', 'ShiftInwards', 'GuardWithIf', 'RoundUp'];

export type Directive =
  | { readonly op: 'split'; readonly var: string; readonly outer: string; readonly inner: string; readonly factor: number; readonly tail?: Tail }
  | { readonly op: 'fuse'; readonly inner: string; readonly outer: string; readonly fused: string }
  /** Innermost first, as Halide's reorder. */
  | { readonly op: 'reorder'; readonly vars: readonly string[] }
  | { readonly op: 'tile'; readonly x: string; readonly y: string; readonly xo: string; readonly yo: string; readonly xi: string; readonly yi: string; readonly xFactor: number; readonly yFactor: number; readonly tail?: Tail }
  | { readonly op: 'parallel' | 'serial'; readonly var: string }
  /** With a factor: split(var, var, var_vi|var_ui, factor, tail) first. */
  | { readonly op: 'vectorize' | 'unroll'; readonly var: string; readonly factor?: number; readonly tail?: Tail };

export interface Specialization {
  /** Affine condition on the parameters. */
  readonly cond: string;
  /** The directives of this branch, applied after the stage's generic directives. */
  readonly directives: readonly Directive[];
}

export interface StageSchedule {
  readonly directives?: readonly Directive[];
  readonly specializations?: readonly Specialization[];
}

/** A loop of a consumer stage: `{ func, stage (0 = pure, k = update k-1), var }`. */
export interface LoopRef {
  readonly func: string;
  readonly stage?: number;
  readonly var: string;
}

export interface FuncSchedule {
  /** Default: 'inline' for a Func without updates, 'root' otherwise (the output is always root). */
  readonly compute?: 'root' | 'inline' | LoopRef;
  /** Default: where it is computed. */
  readonly store?: 'root' | LoopRef;
  /** Explicit fold factors of a sliding dimension (default: the footprint). */
  readonly fold?: readonly { readonly dim: string; readonly factor: number }[];
  /** Index 0: the pure definition; k: update k − 1. */
  readonly stages?: readonly StageSchedule[];
}

export interface Schedule {
  readonly funcs: Readonly<Record<string, FuncSchedule>>;
}

function schedError(msg: string): never {
  throw new LowerError(msg, 'schedule');
}

// ---------------------------------------------------------------------------------------------
// Text form

interface MutableFunc {
  compute?: FuncSchedule['compute'];
  store?: FuncSchedule['store'];
  fold: { dim: string; factor: number }[];
  stages: { directives: Directive[]; specializations: { cond: string; directives: Directive[] }[] }[];
}

function intArg(s: string | undefined, what: string): number {
  if (s === undefined || !/^\d+$/.test(s.trim())) schedError(`${what}: expected a positive integer, got '${s ?? ''}'`);
  const n = Number(s.trim());
  if (n < 1) schedError(`${what}: expected a positive integer, got ${n}`);
  return n;
}

function tailArg(s: string | undefined, what: string): Tail | undefined {
  if (s === undefined) return undefined;
  const t = s.trim().replace(/^TailStrategy::/, '') as Tail;
  if (!TAILS.includes(t)) schedError(`${what}: unknown tail strategy '${s}' (${TAILS.join(', ')})`);
  return t;
}

function loopRef(func: string, v: string | undefined, what: string): LoopRef | 'root' {
  if (v === undefined) schedError(`${what}: expected a loop variable`);
  if (v.trim() === 'root' || v.trim() === 'Var::outermost()') return 'root';
  const m = /^(\w+)(?:\.update\((\d+)\))?$/.exec(func.trim());
  if (!m) schedError(`${what}: expected 'F' or 'F.update(k)', got '${func}'`);
  return { func: m[1]!, stage: m[2] === undefined ? 0 : Number(m[2]) + 1, var: v.trim() };
}

/** Parse the text form into the JSON shape. */
export function parseScheduleText(text: string): Schedule {
  const funcs: Record<string, MutableFunc> = {};
  const get = (f: string): MutableFunc => (funcs[f] ??= { fold: [], stages: [] });
  // Chains end at ';' or at the end of a line; a line starting with '.' continues the chain.
  const joined = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(/(\/\/|#).*$/, ''))
    .join('\n')
    .replace(/\n(?=\s*\.)/g, ' ')
    .replace(/\n/g, ';\n');
  for (const st of statements(joined)) {
    let s = st.text.replace(/\s+/g, ' ').trim();
    const at = `line ${st.line}`;
    const head = /^(\w+)/.exec(s);
    if (!head) schedError(`${at}: expected a Func name, got '${s}'`);
    const fname = head[1]!;
    const fs = get(fname);
    s = s.slice(fname.length);
    let stage = 0;
    let branch: Directive[] | null = null;
    const stageOf = (k: number): MutableFunc['stages'][number] => {
      while (fs.stages.length <= k) fs.stages.push({ directives: [], specializations: [] });
      return fs.stages[k]!;
    };
    while (s.length > 0) {
      const m = /^\s*\.\s*(\w+)\s*\(/.exec(s);
      if (!m) schedError(`${at}: expected '.directive(…)', got '${s}'`);
      const open = s.indexOf('(', m.index);
      const close = closing(s, open);
      if (close < 0) schedError(`${at}: unbalanced parentheses`);
      const args = splitTop(s.slice(open + 1, close));
      s = s.slice(close + 1);
      const op = m[1]!;
      const what = `${at}: ${fname}.${op}`;
      const push = (d: Directive): void => {
        (branch ?? stageOf(stage).directives).push(d);
      };
      switch (op) {
        case 'update':
          if (branch) schedError(`${what}: '.update(k)' must come before '.specialize'`);
          stage = Number(args[0] ?? '0') + 1;
          if (!Number.isInteger(stage) || stage < 1) schedError(`${what}: bad stage index`);
          break;
        case 'specialize': {
          if (args.length !== 1) schedError(`${what}: one condition expected`);
          const sp = { cond: args[0]!, directives: [] as Directive[] };
          stageOf(stage).specializations.push(sp);
          branch = sp.directives;
          break;
        }
        case 'split':
          push({ op: 'split', var: args[0]!, outer: args[1]!, inner: args[2]!, factor: intArg(args[3], what), tail: tailArg(args[4], what) });
          break;
        case 'fuse':
          push({ op: 'fuse', inner: args[0]!, outer: args[1]!, fused: args[2]! });
          break;
        case 'reorder':
          push({ op: 'reorder', vars: args });
          break;
        case 'tile':
          push({ op: 'tile', x: args[0]!, y: args[1]!, xo: args[2]!, yo: args[3]!, xi: args[4]!, yi: args[5]!, xFactor: intArg(args[6], what), yFactor: intArg(args[7], what), tail: tailArg(args[8], what) });
          break;
        case 'parallel':
        case 'serial':
          push({ op, var: args[0]! });
          break;
        case 'vectorize':
        case 'unroll':
          push({ op, var: args[0]!, factor: args[1] === undefined ? undefined : intArg(args[1], what), tail: tailArg(args[2], what) });
          break;
        case 'compute_root':
          fs.compute = 'root';
          break;
        case 'compute_inline':
          fs.compute = 'inline';
          break;
        case 'compute_at': {
          const r = loopRef(args[0] ?? '', args[1], what);
          fs.compute = r;
          break;
        }
        case 'store_root':
          fs.store = 'root';
          break;
        case 'store_at':
          fs.store = loopRef(args[0] ?? '', args[1], what);
          break;
        case 'fold_storage':
          fs.fold.push({ dim: args[0]!, factor: intArg(args[1], what) });
          break;
        default:
          schedError(`${what}: unknown directive (split, fuse, reorder, tile, parallel, serial, vectorize, unroll, specialize, update, compute_root, compute_inline, compute_at, store_root, store_at, fold_storage)`);
      }
      if (args.some((a) => a === undefined || a === '') && !['compute_root', 'compute_inline', 'store_root'].includes(op)) {
        schedError(`${what}: missing argument`);
      }
    }
  }
  const out: Record<string, FuncSchedule> = {};
  for (const [f, m] of Object.entries(funcs)) {
    out[f] = {
      ...(m.compute !== undefined ? { compute: m.compute } : {}),
      ...(m.store !== undefined ? { store: m.store } : {}),
      ...(m.fold.length ? { fold: m.fold } : {}),
      ...(m.stages.length ? { stages: m.stages } : {}),
    };
  }
  return { funcs: out };
}

function directiveText(d: Directive): string {
  const t = (x?: Tail): string => (x === undefined ? '' : `, ${x}`);
  switch (d.op) {
    case 'split':
      return `split(${d.var}, ${d.outer}, ${d.inner}, ${d.factor}${t(d.tail)})`;
    case 'fuse':
      return `fuse(${d.inner}, ${d.outer}, ${d.fused})`;
    case 'reorder':
      return `reorder(${d.vars.join(', ')})`;
    case 'tile':
      return `tile(${d.x}, ${d.y}, ${d.xo}, ${d.yo}, ${d.xi}, ${d.yi}, ${d.xFactor}, ${d.yFactor}${t(d.tail)})`;
    case 'parallel':
    case 'serial':
      return `${d.op}(${d.var})`;
    case 'vectorize':
    case 'unroll':
      return d.factor === undefined ? `${d.op}(${d.var})` : `${d.op}(${d.var}, ${d.factor}${t(d.tail)})`;
  }
}

function refText(r: LoopRef | 'root'): string {
  if (r === 'root') return 'root';
  return `${r.func}${r.stage ? `.update(${r.stage - 1})` : ''}, ${r.var}`;
}

/** The text form of a schedule (round-trips through parseScheduleText). */
export function printScheduleText(s: Schedule): string {
  const L: string[] = [];
  for (const [f, fs] of Object.entries(s.funcs)) {
    if (fs.compute === 'root') L.push(`${f}.compute_root();`);
    else if (fs.compute === 'inline') L.push(`${f}.compute_inline();`);
    else if (fs.compute) L.push(`${f}.compute_at(${refText(fs.compute)});`);
    if (fs.store === 'root') L.push(`${f}.store_root();`);
    else if (fs.store) L.push(`${f}.store_at(${refText(fs.store)});`);
    for (const x of fs.fold ?? []) L.push(`${f}.fold_storage(${x.dim}, ${x.factor});`);
    (fs.stages ?? []).forEach((st, k) => {
      const pre = k === 0 ? f : `${f}.update(${k - 1})`;
      if (st.directives?.length) L.push(`${pre}.${st.directives.map(directiveText).join('.')};`);
      for (const sp of st.specializations ?? []) L.push(`${pre}.specialize(${sp.cond})${sp.directives.map((d) => `.${directiveText(d)}`).join('')};`);
    });
  }
  return L.join('\n') + (L.length ? '\n' : '');
}
