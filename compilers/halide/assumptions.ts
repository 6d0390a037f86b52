// A verdict's assumptions in Halide's names: `input.extent.0 >= blur_y.extent.0 + 2` for the
// translation's `input_extent_0 + … `. Buffer fields that the assumptions fix for every dimension
// are written as one tuple, and buffers with the same tuple share it:
// `A.min == B.min == C.min == (0, 0) && A.extent == B.extent == (1024, 1024)`.

import type { Expr } from '../../core/language/ast.ts';
import { formulaToExpr, termToExpr } from '../../core/language/affine.ts';
import { printExpr } from '../../core/language/printer.ts';
import { mapChildren } from '../../core/language/walk.ts';
import { conjuncts } from '../../core/presburger/formula.ts';
import type { Atom, Formula, Term } from '../../core/presburger/types.ts';
import { add, coeff, sub, variable } from '../../core/presburger/term.ts';
import { formulaVars } from '../../core/presburger/vars.ts';

export interface ParamName {
  readonly sched: string;
  readonly halide: string;
}

/** `v == c` for one variable with coefficient 1: [v, c]. */
function pinned(f: Formula): [string, bigint] | null {
  if (f.kind !== 'eq' || f.t.parts.length !== 1) return null;
  const [a, k] = f.t.parts[0]!;
  return a.kind === 'var' && k === 1n ? [a.name, -f.t.c] : null;
}

/** `x == y` for two variables: [x, y]. */
function alias(f: Formula): [string, string] | null {
  if (f.kind !== 'eq' || f.t.parts.length !== 2 || f.t.c !== 0n) return null;
  const [[a, j], [b, k]] = f.t.parts as [[Atom, bigint], [Atom, bigint]];
  return a.kind === 'var' && b.kind === 'var' && j + k === 0n && (j === 1n || j === -1n) ? [a.name, b.name] : null;
}

/** `x <= 2^31 − 1` or `x >= −2^31`: a buffer field (halide_buffer_t's are int32) or an Int(32)
 *  Param is an int32, which the translation assumes of its parameter; it is not shown. */
function int32Range(f: Formula): boolean {
  if (f.kind !== 'ge' || f.t.parts.length !== 1) return false;
  const [a, k] = f.t.parts[0]!;
  return a.kind === 'var' && ((k === -1n && f.t.c === 2147483647n) || (k === 1n && f.t.c === 2147483648n));
}

/** Halide names sort by buffer, field, then dimension as a number. */
function byName(x: string, y: string): number {
  const nx = x.replace(/\d+/g, (d) => d.padStart(6, '0'));
  const ny = y.replace(/\d+/g, (d) => d.padStart(6, '0'));
  return nx < ny ? -1 : nx > ny ? 1 : 0;
}

/** `e` in Halide's names, a negated literal written as a negative one (`-2`, not `-(2)`). */
function renamed(e: Expr, names: ReadonlyMap<string, string>): Expr {
  if (e.kind === 'var') return { ...e, name: names.get(e.name) ?? e.name };
  if (e.kind === 'unary' && e.op === '-' && e.arg.kind === 'int') return { ...e.arg, value: -e.arg.value };
  return mapChildren(e, (x) => renamed(x, names));
}

/** The conjunction `f` over the translation's parameters, written in Halide's names. */
export function halideAssumptionText(f: Formula, params: readonly ParamName[]): string {
  const names = new Map(params.map((p) => [p.sched, p.halide]));
  const halide = (v: string): string => names.get(v) ?? v;
  // Classes of equal variables (x == y), each with its value when one is fixed (x == c).
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.has(r)) r = parent.get(r)!;
    return r;
  };
  const rest: Formula[] = [];
  const values = new Map<string, bigint>();
  for (const c of conjuncts(f)) {
    const a = alias(c);
    if (a) {
      const [x, y] = [find(a[0]), find(a[1])];
      if (x !== y) parent.set(y, x);
    } else if (!pinned(c)) rest.push(c);
  }
  for (const c of conjuncts(f)) {
    const p = pinned(c);
    if (p) values.set(find(p[0]), p[1]);
  }
  const members = new Map<string, string[]>();
  for (const v of new Set([...parent.keys(), ...parent.values(), ...[...conjuncts(f)].flatMap((c) => (pinned(c) ? [pinned(c)![0]] : []))])) {
    const r = find(v);
    members.set(r, [...(members.get(r) ?? []), v]);
  }
  const valueOf = (v: string): bigint | undefined => values.get(find(v));
  // Buffer fields (X.min, X.extent) fixed in every dimension: one tuple each, fields sharing it.
  const fields = new Map<string, string[]>();
  for (const p of params) {
    const m = /^(.+)\.(min|extent)\.(\d+)$/.exec(p.halide);
    if (!m) continue;
    const key = `${m[1]}.${m[2]}`;
    const dims = fields.get(key) ?? [];
    dims[Number(m[3])] = p.sched;
    fields.set(key, dims);
  }
  const covered = new Set<string>();
  const tuples = new Map<string, string[]>();
  for (const [field, dims] of [...fields].sort((x, y) => byName(x[0], y[0]))) {
    if (dims.length === 0 || dims.some((d) => d === undefined || valueOf(d) === undefined)) continue;
    const vs = dims.map((d) => valueOf(d)!);
    const tuple = `${field.slice(field.lastIndexOf('.'))}|${vs.length === 1 ? String(vs[0]) : `(${vs.join(', ')})`}`;
    tuples.set(tuple, [...(tuples.get(tuple) ?? []), field]);
    for (const d of dims) covered.add(d);
  }
  const parts: { text: string; key: string }[] = [];
  for (const [tuple, fs] of tuples) parts.push({ text: `${fs.join(' == ')} == ${tuple.slice(tuple.indexOf('|') + 1)}`, key: `0|${fs[0]}` });
  // The other classes: a chain of equal names, with the value when it is fixed.
  for (const [r, vs] of members) {
    const left = vs.filter((v) => !covered.has(v)).map(halide).sort(byName);
    const value = values.get(r);
    if (left.length === 0 || (left.length === 1 && value === undefined)) continue;
    parts.push({ text: `${left.join(' == ')}${value === undefined ? '' : ` == ${value}`}`, key: `1|${left[0]}` });
  }
  const shown = rest.filter((c) => !int32Range(c));
  const term = (t: Term): string => printExpr(renamed(termToExpr(t), names));
  // Regions: X.min.k <= L and X.min.k + X.extent.k >= H in every dimension k of X is X ⊇ [L, H) × ….
  const used = new Set<Formula>();
  for (const [buffer, dims] of buffers(params)) {
    const sides = dims.map((d) => (d.min && d.extent ? regionSides(shown, d.min, d.extent) : null));
    if (sides.some((x) => x === null || x.lo === null || x.hi === null)) continue;
    for (const x of sides) used.add(x!.lo!.f).add(x!.hi!.f);
    parts.push({ text: `${buffer} ⊇ ${sides.map((x) => `[${term(x!.lo!.t)}, ${term(x!.hi!.t)})`).join(' × ')}`, key: `2|${buffer}` });
  }
  // Least extents in every dimension: X.extent >= (e0, e1, …).
  for (const [buffer, dims] of buffers(params)) {
    const least = dims.map((d) => (d.extent ? shown.find((c) => !used.has(c) && leastValue(c, d.extent!) !== null) : undefined));
    if (dims.length < 2 || least.some((c) => c === undefined)) continue;
    for (const c of least) used.add(c!);
    parts.push({ text: `${buffer}.extent >= (${least.map((c, k) => leastValue(c!, dims[k]!.extent!)).join(', ')})`, key: `2|${buffer}` });
  }
  for (const c of shown) {
    if (used.has(c)) continue;
    const vs = [...formulaVars(c)].map(halide).sort(byName);
    const e = renamed(formulaToExpr(c, { lessThan: false }), names);
    parts.push({ text: c.kind === 'or' ? `(${printExpr(e)})` : printExpr(e), key: `${vs.length === 1 ? 3 : 4}|${vs[0] ?? ''}` });
  }
  return parts.sort((x, y) => byName(x.key, y.key)).map((p) => p.text).join(' && ');
}

/** The buffers of the parameters, each with the translation's names of its fields per dimension. */
function buffers(params: readonly ParamName[]): Map<string, { min?: string; extent?: string }[]> {
  const out = new Map<string, { min?: string; extent?: string }[]>();
  for (const p of params) {
    const m = /^(.+)\.(min|extent)\.(\d+)$/.exec(p.halide);
    if (!m) continue;
    const dims = out.get(m[1]!) ?? [];
    const k = Number(m[3]);
    dims[k] = { ...dims[k], [m[2]!]: p.sched };
    out.set(m[1]!, dims);
  }
  for (const [b, dims] of out) if (dims.some((d) => d === undefined)) out.delete(b);
  return out;
}

/** Among `fs`, `min <= L` and `min + extent >= H` (L and H free of both): the literals and terms. */
function regionSides(fs: readonly Formula[], min: string, extent: string): { lo: { f: Formula; t: Term } | null; hi: { f: Formula; t: Term } | null } {
  let lo: { f: Formula; t: Term } | null = null;
  let hi: { f: Formula; t: Term } | null = null;
  const m = variable(min);
  const e = variable(extent);
  for (const f of fs) {
    if (f.kind !== 'ge') continue;
    const km = coeff(f.t, min);
    const ke = coeff(f.t, extent);
    // t = −min + L ≥ 0: min <= L.
    if (km === -1n && ke === 0n && lo === null) lo = { f, t: add(f.t, m) };
    // t = min + extent − H ≥ 0: min + extent >= H.
    else if (km === 1n && ke === 1n && hi === null) hi = { f, t: sub(add(m, e), f.t) };
  }
  return { lo, hi };
}

/** c when `f` is `v >= c`, else null. */
function leastValue(f: Formula, v: string): bigint | null {
  if (f.kind !== 'ge' || f.t.parts.length !== 1) return null;
  const [a, k] = f.t.parts[0]!;
  return a.kind === 'var' && a.name === v && k === 1n ? -f.t.c : null;
}
