// One instance of an assignment's loops, run alone (`sched run --slice`).
//
// U-PARLOOP runs every iteration of a `par` loop from the memory at the loop's entry and only
// joins their effects, so an iteration's writes, reads, errors and the values it writes do not
// depend on the other iterations: a slice runs that iteration alone. Iteration v of a `for` loop
// runs on what iterations 0 … v − 1 left: a slice runs those whole, then iteration v. Every
// command after the sliced iteration (on the way out of the loops) is dropped, so up to the end
// of it the slice does exactly what the whole program does there. This is how a counterexample
// of a kernel too large to run (a 1024³ matrix product) is replayed: the GPU thread that writes
// the refuted cell, a few thousand steps. The outputs of a slice are not the program's outputs
// and are not compared: a slice shows run-time errors and, with `--check-annotations`, the first
// assignment whose value is not its annotation's. A slice that names no iteration (`LINE:`) runs
// the program up to the end of the outermost loop (or the assignment) holding line LINE: a race in
// a `par` at top level, or an assignment outside every loop, without the commands after it.

import { T_COND, T_INDEX, type Cmd, type Loop } from '../core/language/ast.ts';
import type { CheckedImpl } from '../core/language/typecheck.ts';

/** A slice that does not fit the program (no assignment at the line, loops named wrongly). */
export class SliceError extends Error {}

/** `--slice 'LINE:x=v,y=w'`: the iteration x = v, y = w of the outermost loops around line LINE. */
export interface Slice {
  readonly line: number;
  readonly iteration: readonly (readonly [string, bigint])[];
}

/** The text of a slice, as `--slice` reads it. */
export function sliceText(s: Slice): string {
  return `${s.line}:${s.iteration.map(([x, v]) => `${x}=${v}`).join(',')}`;
}

/** `LINE:x=v,…` parsed, or null when malformed. */
export function parseSlice(text: string): Slice | null {
  const m = /^\s*(\d+)\s*:(.*)$/.exec(text);
  if (m === null) return null;
  const iteration: [string, bigint][] = [];
  if (m[2]!.trim() === '') return { line: Number(m[1]), iteration };
  for (const part of m[2]!.split(',')) {
    const p = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(\d+)\s*$/.exec(part);
    if (p === null) return null;
    iteration.push([p[1]!, BigInt(p[2]!)]);
  }
  return { line: Number(m[1]), iteration };
}

/** A binder around an assignment: a loop or a `let`, outermost first. */
export interface Binder {
  readonly kind: 'for' | 'par' | 'let';
  readonly name: string;
}

/**
 * The path from the body to the first command `found` accepts (program order), the commands that
 * hold it outermost first and the command itself last; null when there is none.
 */
function pathTo(body: Cmd, found: (c: Cmd) => boolean): Cmd[] | null {
  const search = (c: Cmd): Cmd[] | null => {
    if (found(c)) return [c];
    switch (c.kind) {
      case 'assign':
      case 'skip':
        return null;
      case 'seq':
        for (const x of c.cmds) {
          const p = search(x);
          if (p !== null) return [c, ...p];
        }
        return null;
      case 'if': {
        const p = search(c.then) ?? (c.else === null ? null : search(c.else));
        return p === null ? null : [c, ...p];
      }
      case 'let':
      case 'allocate':
      case 'for':
      case 'par': {
        const p = search(c.body);
        return p === null ? null : [c, ...p];
      }
    }
  };
  return search(body);
}

const assignmentOn = (line: number) => (c: Cmd): boolean => c.kind === 'assign' && c.pos.line === line;

/** The loops and lets of a path, outermost first (the command at its end included). */
function bindersOf(path: readonly Cmd[]): Binder[] {
  const out: Binder[] = [];
  for (const c of path) if (c.kind === 'for' || c.kind === 'par') out.push({ kind: c.kind, name: c.var });
  else if (c.kind === 'let') out.push({ kind: 'let', name: c.name });
  return out;
}

/**
 * The command of `ci` at a source position: the first assignment at `line`, or with `col` the
 * loop or assignment that starts there. With the binders around it (outermost first, the command
 * itself not included) and, for a loop, the line of the first assignment in it (what a slice
 * running the whole loop names). Null when there is none.
 */
export function commandAt(ci: CheckedImpl, line: number, col?: number): { readonly cmd: Cmd; readonly binders: Binder[]; readonly assignmentLine: number } | null {
  const path = pathTo(ci.impl.body, col === undefined ? assignmentOn(line) : (c) => (c.kind === 'assign' || c.kind === 'for' || c.kind === 'par') && c.pos.line === line && c.pos.col === col);
  if (path === null) return null;
  const cmd = path[path.length - 1]!;
  const first = cmd.kind === 'assign' ? cmd : pathTo(cmd, (c) => c.kind === 'assign')?.pop();
  if (first === undefined) return null;
  return { cmd, binders: bindersOf(path.slice(0, -1)), assignmentLine: first.pos.line };
}

/**
 * `ci` cut to the slice: the named loops around the assignment at `s.line` (the outermost ones, in
 * order) cut to the iteration (a `par` loop to that iteration alone, a `for` loop to the
 * iterations before it whole, then that one), and every command after it on the way out dropped.
 * Throws a SliceError that says what is wrong with the slice.
 */
export function sliceImpl(ci: CheckedImpl, s: Slice): CheckedImpl {
  const path = pathTo(ci.impl.body, assignmentOn(s.line));
  if (path === null) throw new SliceError(`--slice: impl '${ci.impl.name}' has no assignment at line ${s.line}`);
  const loops = path.filter((c): c is Loop => c.kind === 'for' || c.kind === 'par');
  for (const [k, [name]] of s.iteration.entries()) {
    if (loops[k]?.var !== name) throw new SliceError(`--slice: the loops around line ${s.line} of impl '${ci.impl.name}' are, outermost first, ${loops.map((x) => `${x.kind} ${x.var}`).join(', ') || 'none'}; a slice names the first of them, in this order: it names ${s.iteration.map(([x]) => x).join(', ')}`);
  }
  const last = s.iteration.length === 0 ? null : loops[s.iteration.length - 1]!;
  // Rebuild the path: each loop of the slice becomes `if (v < bound) let x = v in body`, after
  // `for x < min(v, bound) do body` for a sequential one; each sequence on the way to the last
  // one keeps the commands up to it. Without an iteration, the outermost loop (or the assignment)
  // on the path is kept whole.
  const rebuild = (k: number): Cmd => {
    const c = path[k]!;
    if (last === null && (c.kind === 'for' || c.kind === 'par' || c.kind === 'assign')) return c;
    const inner = (): Cmd => rebuild(k + 1);
    switch (c.kind) {
      case 'seq': {
        const at = c.cmds.indexOf(path[k + 1]!);
        return { ...c, cmds: [...c.cmds.slice(0, at), inner()] };
      }
      case 'if':
        return c.then === path[k + 1] ? { ...c, then: inner(), else: null } : { ...c, then: { kind: 'skip', pos: c.pos }, else: inner() };
      case 'let':
      case 'allocate':
        return { ...c, body: inner() };
      case 'for':
      case 'par': {
        // Every loop met before the last of the slice is one of the slice's (they are its prefix).
        const v = s.iteration[loops.indexOf(c)]![1];
        const lit = { kind: 'int', value: v, pos: c.pos, ty: T_INDEX } as const;
        const body = c === last ? c.body : inner();
        const one: Cmd = { kind: 'if', pos: c.pos, cond: { kind: 'binary', op: '<', left: lit, right: c.bound, pos: c.pos, ty: T_COND }, then: { kind: 'let', pos: c.pos, name: c.var, value: lit, body }, else: null };
        if (c.kind === 'par' || v === 0n) return one;
        const before: Cmd = { ...c, bound: { kind: 'call', fn: 'min', args: [lit, c.bound], pos: c.pos, ty: T_INDEX } };
        return { kind: 'seq', pos: c.pos, cmds: [before, one] };
      }
      case 'assign':
      case 'skip':
        throw new Error('unreachable: the path ends at the last loop of the slice');
    }
  };
  return { ...ci, impl: { ...ci.impl, body: rebuild(0) } };
}
