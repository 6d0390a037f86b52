// A verdict's assumptions in Halide's names: `input.extent.0 >= blur_y.extent.0 + 2` for the
// translation's `input_extent_0 + … `. Buffer fields that the assumptions fix for every dimension
// are written as one tuple, and buffers with the same tuple share it:
// `A.min == B.min == C.min == (0, 0) && A.extent == B.extent == (1024, 1024)`.

import type { Expr } from '../../core/language/ast.ts';
import { formulaToExpr, termToExpr } from '../../core/language/affine.ts';
import { printExpr } from '../../core/language/printer.ts';
import { mapChildren } from '../../core/language/walk.ts';
import type { Atom, Formula, Term } from '../../core/presburger/types.ts';
import { add, addConst, coeff, constant, floorT, scale, sub, variable } from '../../core/presburger/term.ts';
import { conjuncts, geT } from '../../core/presburger/formula.ts';
import { entails } from '../../core/presburger/entail.ts';
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
export function alias(f: Formula): [string, string] | null {
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

/** `x <= max`, one of the affine consequences of Halide's buffer-size checks (size-limits.ts): like
 *  the int32 range, a fact of every run of Halide's code that computes (a note states them). */
function sizeFact(f: Formula, sizes: readonly { readonly param: string; readonly max: bigint }[]): boolean {
  if (f.kind !== 'ge' || f.t.parts.length !== 1) return false;
  const [a, k] = f.t.parts[0]!;
  return a.kind === 'var' && k === -1n && sizes.some((s) => s.param === a.name && s.max === f.t.c);
}

/** Halide names sort by buffer, field, then dimension as a number. */
function byName(x: string, y: string): number {
  const nx = x.replace(/\d+/g, (d) => d.padStart(6, '0'));
  const ny = y.replace(/\d+/g, (d) => d.padStart(6, '0'));
  return nx < ny ? -1 : nx > ny ? 1 : 0;
}

/**
 * `e` in Halide's names, a negated literal written as a negative one (`-2`, not `-(2)`), and a
 * rounded-up quotient as one: `(s + 15) / 16` (a floor, as every `/` here) is `⌈s/16⌉`, an atom
 * for the printer (a variable's name).
 */
function renamed(e: Expr, names: ReadonlyMap<string, string>): Expr {
  if (e.kind === 'var') return { ...e, name: names.get(e.name) ?? e.name };
  if (e.kind === 'unary' && e.op === '-' && e.arg.kind === 'int') return { ...e.arg, value: -e.arg.value };
  if (e.kind === 'binary' && e.op === '/' && e.right.kind === 'int' && e.left.kind === 'binary' && e.left.op === '+' && e.left.right.kind === 'int' && e.left.right.value === e.right.value - 1n) {
    const s = renamed(e.left.left, names);
    const arg = printExpr(s);
    return { kind: 'var', name: `⌈${s.kind === 'var' || s.kind === 'int' ? arg : `(${arg})`}/${e.right.value}⌉`, pos: e.pos };
  }
  return mapChildren(e, (x) => renamed(x, names));
}

/**
 * The conjunction `f` over the translation's parameters, written in Halide's names (the forms are
 * in docs/halide-speed.md). `inputs`: the input buffers; when `f` implies that every one of them
 * is non-empty, their `X.extent.k >= 1` are said once, as "inputs non-empty".
 */
export function halideAssumptionText(f: Formula, params: readonly ParamName[], inputs: readonly string[] = [], sizes: readonly { readonly param: string; readonly max: bigint }[] = []): string {
  const names = new Map(params.map((p) => [p.sched, p.halide]));
  const halide = (v: string): string => names.get(v) ?? v;
  const term = (t: Term): string => printExpr(renamed(termToExpr(t), names));
  const conj = conjuncts(f);
  const bufs = buffers(params);
  // Classes of equal variables (x == y), each with its value when one is fixed (x == c).
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.has(r)) r = parent.get(r)!;
    return r;
  };
  const values = new Map<string, bigint>();
  let rest: Formula[] = [];
  for (const c of conj) {
    const a = alias(c);
    if (a) {
      const [x, y] = [find(a[0]), find(a[1])];
      if (x !== y) parent.set(y, x);
    } else if (!pinned(c) && !int32Range(c) && !sizeFact(c, sizes)) rest.push(c);
  }
  for (const c of conj) {
    const p = pinned(c);
    if (p) values.set(find(p[0]), p[1]);
  }
  const valueOf = (v: string): bigint | undefined => values.get(find(v));
  // Every input non-empty, when f says so: said once.
  const extents = inputs.flatMap((b) => (bufs.get(b) ?? []).map((d) => d.extent).filter((x): x is string => x !== undefined));
  const nonEmpty = extents.length > 0 && extents.every((e) => entails(conj, geT(variable(e), constant(1n))));
  if (nonEmpty) rest = rest.filter((c) => !extents.some((e) => leastValue(c, e) === 1n));
  const covered = new Set<string>();
  const used = new Set<Formula>();
  const parts: { text: string; key: string }[] = [];
  // Boxes: per dimension, min <= L and min + extent >= H (or min fixed to c: `=c`), each
  // dimension bounded on both sides, at least one by a required region.
  for (const [buffer, dims] of bufs) {
    const sides = dims.map((d) => boxSides(rest, d, valueOf, nonEmpty && inputs.includes(buffer)));
    if (sides.some((x) => x === null) || !sides.some((x) => x!.region)) continue;
    for (const x of sides) {
      for (const g of x!.used) used.add(g);
      for (const v of x!.covers) covered.add(v);
    }
    const side = (s: { exact: boolean; t: Term }): string => `${s.exact ? '=' : ''}${term(s.t)}`;
    parts.push({ text: `${buffer} ⊇ ${sides.map((x) => `[${side(x!.lo)}, ${side(x!.hi)})`).join(' × ')}`, key: `2|${buffer}` });
  }
  // Buffer fields (X.min, X.extent) fixed in every dimension: one tuple each, fields sharing it.
  const tuples = new Map<string, string[]>();
  for (const [buffer, dims] of bufs) {
    for (const field of ['min', 'extent'] as const) {
      const vs = dims.map((d) => d[field]);
      if (vs.some((v) => v === undefined || covered.has(v) || valueOf(v) === undefined)) continue;
      const vals = vs.map((v) => valueOf(v!)!);
      const tuple = `.${field}|${vals.length === 1 ? String(vals[0]) : `(${vals.join(', ')})`}`;
      tuples.set(tuple, [...(tuples.get(tuple) ?? []), `${buffer}.${field}`]);
      for (const v of vs) covered.add(v!);
    }
  }
  for (const [tuple, fs] of tuples) {
    fs.sort(byName);
    parts.push({ text: `${fs.join(' == ')} == ${tuple.slice(tuple.indexOf('|') + 1)}`, key: `0|${fs[0]}` });
  }
  // The other equal names: one chain per class, and the fixed ones one chain per value.
  const classes = new Map<string, string[]>();
  for (const v of new Set([...parent.keys(), ...parent.values(), ...conj.flatMap((c) => (pinned(c) ? [pinned(c)![0]] : []))])) {
    if (covered.has(v)) continue;
    classes.set(find(v), [...(classes.get(find(v)) ?? []), halide(v)]);
  }
  const byValue = new Map<bigint, string[]>();
  for (const [r, vs] of classes) {
    const value = values.get(r);
    if (value === undefined) {
      if (vs.length > 1) parts.push({ text: vs.sort(byName).join(' == '), key: `1|${vs[0]}` });
    } else byValue.set(value, [...(byValue.get(value) ?? []), ...vs]);
  }
  for (const [value, vs] of byValue) parts.push({ text: `${vs.sort(byName).join(' == ')} == ${value}`, key: `1|${vs[0]}` });
  // Least extents in every dimension: X.extent >= (e0, e1, …).
  for (const [buffer, dims] of bufs) {
    const least = dims.map((d) => (d.extent ? rest.find((c) => !used.has(c) && leastValue(c, d.extent!) !== null) : undefined));
    if (dims.length < 2 || least.some((c) => c === undefined)) continue;
    for (const c of least) used.add(c!);
    parts.push({ text: `${buffer}.extent >= (${least.map((c, k) => leastValue(c!, dims[k]!.extent!)).join(', ')})`, key: `2|${buffer}` });
  }
  for (const c of rest) {
    if (used.has(c)) continue;
    const vs = [...formulaVars(c)].map(halide).sort(byName);
    const e = renamed(formulaToExpr(c, { lessThan: false }), names);
    parts.push({ text: c.kind === 'or' ? `(${printExpr(e)})` : printExpr(e), key: `${vs.length === 1 ? 3 : 4}|${vs[0] ?? ''}` });
  }
  if (nonEmpty) parts.push({ text: 'inputs non-empty', key: '5|' });
  // A constant factor of a rounded-up quotient written beside it: `16⌈P/16⌉`.
  const text = parts.sort((x, y) => byName(x.key, y.key)).map((p) => p.text).join(' && ').replace(/(\d) \* ⌈/g, '$1⌈');
  return abbreviated(text, [...names.values()]);
}

/** Short enough for a verdict line (the whole text stays in --json). */
const SHORT = 300;

/**
 * `text` with the buffer fields it repeats most named by one letter, defined at the end
 * (`…, where P = pointwise_filter.extent.1`), while it is longer than SHORT and that shortens it;
 * then, if it still is, the products of its boxes without spaces (`[0, Q)×[=0, 1)`).
 */
function abbreviated(text: string, fields: readonly string[]): string {
  const defs: string[] = [];
  let out = text;
  const letters = [...'PQRSTUVWXYZKLMN'].filter((l) => !new RegExp(`\\b${l}\\b`).test(text));
  while (out.length + defs.reduce((n, d) => n + d.length + 2, defs.length ? 8 : 0) > SHORT && letters.length > 0) {
    let best: { field: string; saving: number } | null = null;
    for (const field of fields) {
      const n = out.split(field).length - 1;
      const saving = n * (field.length - 1) - (field.length + 6);
      if (n > 1 && saving > 0 && (best === null || saving > best.saving)) best = { field, saving };
    }
    if (best === null) break;
    const l = letters.shift()!;
    out = out.split(best.field).join(l);
    defs.push(`${l} = ${best.field}`);
  }
  const full = defs.length === 0 ? out : `${out}, where ${defs.join(', ')}`;
  // Still long (dsc's four boxes of four dimensions): the boxes' products written tight.
  return full.length > SHORT ? full.split(' × ').join('×') : full;
}

interface Side {
  readonly exact: boolean;
  readonly t: Term;
}

/**
 * One dimension of a box: its least and greatest-plus-one coordinates the buffer must cover, from
 * a required region's literals (`min <= L`, `k·(min + extent) >= H`) or the fixed fields (`=c`:
 * the dimension starts exactly at c; `=h`: it ends exactly there), with the literals and fields
 * this accounts for; null when a side is not known.
 */
function boxSides(fs: readonly Formula[], d: { min?: string; extent?: string }, valueOf: (v: string) => bigint | undefined, nonEmpty: boolean): { lo: Side; hi: Side; region: boolean; used: Formula[]; covers: string[] } | null {
  if (!d.min || !d.extent) return null;
  const r = regionSides(fs, d.min, d.extent);
  const used: Formula[] = [];
  const covers: string[] = [];
  const m = valueOf(d.min);
  const e = valueOf(d.extent);
  let lo: Side | null = null;
  if (r.lo) {
    lo = { exact: false, t: r.lo.t };
    used.push(r.lo.f);
  } else if (m !== undefined) {
    lo = { exact: true, t: constant(m) };
    covers.push(d.min);
  }
  let hi: Side | null = null;
  if (r.hi) {
    hi = { exact: false, t: r.hi.t };
    used.push(r.hi.f);
  } else if (m !== undefined && e !== undefined) {
    hi = { exact: true, t: constant(m + e) };
    covers.push(d.extent);
  } else if (m !== undefined) {
    const least = fs.find((f) => leastValue(f, d.extent!) !== null);
    if (least) {
      hi = { exact: false, t: constant(m + leastValue(least, d.extent)!) };
      used.push(least);
    } else if (nonEmpty) hi = { exact: false, t: constant(m + 1n) };
  }
  if (lo === null || hi === null) return null;
  return { lo, hi, region: r.lo !== null || r.hi !== null, used, covers };
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
    // t = k·(min + extent) − H ≥ 0: min + extent >= ⌈H/k⌉.
    else if (km > 0n && km === ke && hi === null) hi = { f, t: floorT(addConst(sub(scale(add(m, e), km), f.t), km - 1n), km) };
  }
  return { lo, hi };
}

/** c when `f` is `v >= c`, else null. */
function leastValue(f: Formula, v: string): bigint | null {
  if (f.kind !== 'ge' || f.t.parts.length !== 1) return null;
  const [a, k] = f.t.parts[0]!;
  return a.kind === 'var' && a.name === v && k === 1n ? -f.t.c : null;
}
