// isl-like printing, e.g. `[N] -> { a[i] -> A[i + 2] : 0 <= i < N }`. Tuple variables defined by
// an equality over parameters and earlier tuple variables are printed inline; generated names are
// shown by their base name (made unique). Output is deterministic and parses back (parse.ts).
// `thesis: true` prints the thesis's notation instead (a⟨i⟩ → A⟨i + 2⟩ : 0 ≤ i < N).

import type { Formula, PRel, PSet, Term, Tuple } from './types.ts';
import { conjuncts } from './formula.ts';
import { emod, gcd } from './bigint.ts';
import { baseName } from './names.ts';
import { formulaVars, termVars } from './vars.ts';
import { tupleVars } from './tuple.ts';
import { linear, solveUnit, termFromParts, without } from './term.ts';

/** k modulo m in (−m/2, m/2]. */
function balanced(k: bigint, m: bigint): bigint {
  const r = emod(k, m);
  return 2n * r > m ? r - m : r;
}

export interface PrintOptions {
  readonly thesis?: boolean;
}

interface Sty {
  readonly and: string; readonly or: string; readonly not: string; readonly le: string; readonly ge: string;
  readonly ne: string; readonly arrow: string; readonly open: string; readonly close: string;
  readonly exists: string; readonly forall: string;
}

const ISL: Sty = { and: ' and ', or: ' or ', not: 'not ', le: '<=', ge: '>=', ne: '!=', arrow: ' -> ', open: '[', close: ']', exists: 'exists', forall: 'forall' };
const THESIS: Sty = { and: ' ∧ ', or: ' ∨ ', not: '¬', le: '≤', ge: '≥', ne: '≠', arrow: ' → ', open: '⟨', close: '⟩', exists: '∃', forall: '∀' };

type Names = ReadonlyMap<string, string>;

const IDENT = /^[A-Za-z_][A-Za-z0-9_']*$/;

function nm(v: string, names: Names): string {
  return names.get(v) ?? v;
}

function cost(t: Term): bigint {
  let c = 0n;
  for (const [, k] of t.parts) c += (k < 0n ? -k : k) + 1n;
  return c;
}

interface Part { readonly text: string; readonly k: bigint; readonly plain: boolean }

/** Terms of the form k·⌊s/d⌋ + rest with d | k are shown as ∓(k/d)·(s mod d) + rest' when shorter. */
function termParts(t: Term, names: Names, sty: Sty): { parts: Part[]; c: bigint } {
  for (const [a, k] of t.parts) {
    if (a.kind !== 'floor' || k % a.div !== 0n) continue;
    const m = -k / a.div; // t = m·(s mod d) + (rest − m·s)
    const rest = without(t, a.key);
    const rest2 = linear([[rest, 1n], [a.arg, -m]]);
    if (cost(rest2) >= cost(rest)) continue;
    const inner = termParts(rest2, names, sty);
    const modText = `${wrapSum(a.arg, names, sty)} mod ${a.div}`;
    return { parts: [...inner.parts, { text: modText, k: m, plain: false }], c: inner.c };
  }
  const parts: Part[] = [];
  for (const [a, k] of t.parts) {
    switch (a.kind) {
      case 'var': parts.push({ text: nm(a.name, names), k, plain: true }); break;
      case 'floor': parts.push({ text: `floor(${wrapSum(a.arg, names, sty)}/${a.div})`, k, plain: false }); break;
      case 'min': case 'max':
        parts.push({ text: `${a.kind}(${a.args.map((x) => printTerm(x, names, sty)).join(', ')})`, k, plain: false });
        break;
      case 'select':
        parts.push({ text: `select(${printFormulaN(a.cond, names, sty)}, ${printTerm(a.then, names, sty)}, ${printTerm(a.else, names, sty)})`, k, plain: false });
        break;
    }
  }
  return { parts, c: t.c };
}

function wrapSum(t: Term, names: Names, sty: Sty): string {
  const s = printTerm(t, names, sty);
  return t.parts.length === 1 && t.c === 0n && t.parts[0]![1] === 1n ? s : `(${s})`;
}

function joinParts(parts0: readonly Part[], c: bigint): string {
  // Plain parts, then the constant, then remainders: `N + 2 - (N + 3i + 3) mod 4`.
  const isModPart = (p: Part) => !p.plain && p.text.includes(' mod ');
  const plainParts = parts0.filter((p) => !isModPart(p));
  const modParts = parts0.filter(isModPart);
  let s = '';
  const emit = (p: Part) => {
    const mag = p.k < 0n ? -p.k : p.k;
    const isMod = !p.plain && p.text.includes(' mod ');
    const text = isMod && (mag !== 1n || (s === '' && p.k < 0n)) ? `(${p.text})` : p.text;
    const body = mag === 1n ? text : p.plain ? `${mag}${text}` : `${mag}*${text}`;
    if (s === '') s = p.k < 0n ? `-${body}` : body;
    else s += p.k < 0n ? ` - ${body}` : ` + ${body}`;
  };
  plainParts.forEach(emit);
  if (s === '' && modParts.length === 0) return String(c);
  if (s === '' && c !== 0n) s = String(c);
  else if (c > 0n) s += ` + ${c}`;
  else if (c < 0n) s += ` - ${-c}`;
  modParts.forEach(emit);
  return s;
}

export function printTerm(t: Term, names: Names = new Map(), sty: Sty = ISL): string {
  const { parts, c } = termParts(t, names, sty);
  return joinParts(parts, c);
}

/** Split t into (P, Q, c) with t = P − Q + c, P and Q with positive coefficients. */
function sides(t: Term, names: Names, sty: Sty): { p: Part[]; q: Part[]; c: bigint } {
  const { parts, c } = termParts(t, names, sty);
  return {
    p: parts.filter((x) => x.k > 0n),
    q: parts.filter((x) => x.k < 0n).map((x) => ({ ...x, k: -x.k })),
    c,
  };
}

function printGe(t: Term, names: Names, sty: Sty): string {
  const { p, q, c } = sides(t, names, sty);
  if (q.length === 0) return c === -1n ? `${joinParts(p, 0n)} > 0` : `${joinParts(p, 0n)} ${sty.ge} ${-c}`;
  if (p.length === 0) return c === -1n ? `${joinParts(q, 0n)} < 0` : `${joinParts(q, 0n)} ${sty.le} ${c}`;
  if (c === -1n) return `${joinParts(q, 0n)} < ${joinParts(p, 0n)}`;
  return `${joinParts(q, 0n)} ${sty.le} ${joinParts(p, c)}`;
}

function printLiteral(f: Formula, names: Names, sty: Sty): string {
  switch (f.kind) {
    case 'ge': return printGe(f.t, names, sty);
    case 'eq': {
      // Prefer `v = expr` for a unit variable.
      for (const [a, k] of f.t.parts) {
        if (a.kind === 'var' && (k === 1n || k === -1n) && !termVars(without(f.t, a.key)).has(a.name)) {
          const rhs = linear([[without(f.t, a.key), -k]]);
          return `${nm(a.name, names)} = ${printTerm(rhs, names, sty)}`;
        }
      }
      const { p, q, c } = sides(f.t, names, sty);
      return `${joinParts(p, 0n)} = ${joinParts(q, -c)}`;
    }
    case 'cong': {
      // Show the multiple of t (by a unit modulo m) with the smallest balanced coefficients.
      let best: Term | null = null;
      for (let u = 1n; u < f.m; u++) {
        if (gcd(u, f.m) !== 1n) continue;
        const parts = f.t.parts.map(([a, k]) => [a, balanced(k * u, f.m)] as const).filter(([, k]) => k !== 0n);
        const cand = termFromParts(parts, emod(f.t.c * u, f.m));
        if (best === null || cost(cand) < cost(best) || (cost(cand) === cost(best) && cand.parts[0]![1] > 0n && best.parts[0]![1] < 0n)) best = cand;
        if (u > 64n) break;
      }
      const lin = termFromParts(best!.parts, 0n);
      return `${wrapSum(lin, names, sty)} mod ${f.m} = ${emod(-best!.c, f.m)}`;
    }
    default: return printFormulaN(f, names, sty);
  }
}

interface Bound { readonly lit: Formula; readonly v: string; readonly other: Term; readonly lower: boolean }

/** A ge literal seen as a bound on one of its unit variables. */
function boundsOfLit(f: Formula): Bound[] {
  if (f.kind !== 'ge') return [];
  const out: Bound[] = [];
  for (const [a, k] of f.t.parts) {
    if (a.kind !== 'var' || (k !== 1n && k !== -1n)) continue;
    const rest = without(f.t, a.key);
    if (termVars(rest).has(a.name)) continue;
    // k = 1: v ≥ −rest; k = −1: v ≤ rest.
    out.push({ lit: f, v: a.name, other: k === 1n ? linear([[rest, -1n]]) : rest, lower: k === 1n });
  }
  return out;
}

function printAnd(args: readonly Formula[], names: Names, sty: Sty, prefer: readonly string[]): string {
  const used = new Set<Formula>();
  const out: string[] = [];
  // Chains lo <= v <= hi, trying tuple variables first.
  const all = args.flatMap(boundsOfLit);
  const order = [...new Set([...prefer, ...all.map((b) => b.v).sort()])];
  for (const v of order) {
    const lo = all.find((b) => b.v === v && b.lower && !used.has(b.lit));
    const hi = all.find((b) => b.v === v && !b.lower && !used.has(b.lit) && b.lit !== lo?.lit);
    if (!lo || !hi) continue;
    used.add(lo.lit);
    used.add(hi.lit);
    const upper = hi.other.c === -1n
      ? `< ${printTerm(linear([[hi.other, 1n]], 1n), names, sty)}` : `${sty.le} ${printTerm(hi.other, names, sty)}`;
    const lower = lo.other.c === 1n && lo.other.parts.length > 0
      ? `${printTerm(linear([[lo.other, 1n]], -1n), names, sty)} <` : `${printTerm(lo.other, names, sty)} ${sty.le}`;
    out.push(`${lower} ${nm(v, names)} ${upper}`);
  }
  for (const a of args) {
    if (used.has(a)) continue;
    out.push(a.kind === 'or' ? `(${printFormulaN(a, names, sty, prefer)})` : printFormulaN(a, names, sty, prefer));
  }
  return out.join(sty.and);
}

function printFormulaN(f: Formula, names: Names, sty: Sty, prefer: readonly string[] = []): string {
  switch (f.kind) {
    case 'true': return 'true';
    case 'false': return 'false';
    case 'ge': case 'eq': case 'cong': return printLiteral(f, names, sty);
    case 'and': return printAnd(f.args, names, sty, prefer);
    case 'or': return f.args.map((a) => (a.kind === 'and' ? `(${printFormulaN(a, names, sty, prefer)})` : printFormulaN(a, names, sty, prefer))).join(sty.or);
    case 'exists': case 'forall': {
      const local = new Map(names);
      const taken = new Set([...names.values(), ...[...formulaVars(f)].map((v) => nm(v, names))]);
      const shown = f.vars.map((v) => {
        const n = uniqueName(baseName(v), taken);
        taken.add(n);
        local.set(v, n);
        return n;
      });
      const q = f.kind === 'exists' ? sty.exists : sty.forall;
      return `(${q} ${shown.join(', ')} : ${printFormulaN(f.body, local, sty, prefer)})`;
    }
  }
}

function uniqueName(base: string, taken: ReadonlySet<string>): string {
  const b = IDENT.test(base) ? base : 'v';
  if (!taken.has(b)) return b;
  for (let i = 0; ; i++) if (!taken.has(`${b}${i}`)) return `${b}${i}`;
}

export function printFormula(f: Formula, opts: PrintOptions = {}): string {
  return printFormulaN(f, new Map(), opts.thesis ? THESIS : ISL);
}

function printName(n: string, sty: Sty): string {
  if (sty === THESIS) return n;
  return n === '' || IDENT.test(n) ? n : JSON.stringify(n);
}

/** Choose display names and inline definitions for the tuple variables of a piece. */
function prepare(tuples: readonly Tuple[], guard: Formula, params: ReadonlySet<string>): { names: Map<string, string>; inline: Map<string, Term>; guard: Formula[] } {
  const vars = tuples.flatMap(tupleVars);
  const tupleSet = new Set(vars);
  let cs = [...conjuncts(guard)];
  const inline = new Map<string, Term>();
  const declared = new Set<string>();
  for (const v of vars) {
    const idx = cs.findIndex((c) => {
      if (c.kind !== 'eq') return false;
      const t = solveUnit(c.t, v);
      if (!t) return false;
      for (const w of termVars(t)) if (tupleSet.has(w) && !declared.has(w)) return false;
      return true;
    });
    if (idx >= 0) {
      inline.set(v, solveUnit((cs[idx] as Extract<Formula, { kind: 'eq' }>).t, v)!);
      cs = cs.filter((_, i) => i !== idx);
    } else declared.add(v);
  }
  const names = new Map<string, string>();
  const taken = new Set(params);
  for (const v of vars) {
    if (inline.has(v)) continue;
    const n = uniqueName(baseName(v), taken);
    taken.add(n);
    names.set(v, n);
  }
  return { names, inline, guard: cs };
}

function printTupleN(t: Tuple, names: Names, inline: ReadonlyMap<string, Term>, sty: Sty): string {
  if (t.kind === 'flat') {
    const els = t.vars.map((v) => (inline.has(v) ? printTerm(inline.get(v)!, names, sty) : nm(v, names)));
    return `${printName(t.name, sty)}${sty.open}${els.join(', ')}${sty.close}`;
  }
  return `${printName(t.name, sty)}${sty.open}${printTupleN(t.left, names, inline, sty)}${sty.arrow}${printTupleN(t.right, names, inline, sty)}${sty.close}`;
}

function printPiece(tuples: readonly Tuple[], guard: Formula, params: ReadonlySet<string>, sty: Sty): string {
  const { names, inline, guard: cs } = prepare(tuples, guard, params);
  const head = tuples.map((t) => printTupleN(t, names, inline, sty)).join(sty.arrow);
  const prefer = tuples.flatMap(tupleVars);
  const g = cs.length === 0 ? '' : ` : ${printAnd(cs, names, sty, prefer)}`;
  return `${head}${g}`;
}

function paramsOf(pieces: readonly { tuples: readonly Tuple[]; guard: Formula }[]): string[] {
  const ps = new Set<string>();
  for (const p of pieces) {
    const tv = new Set(p.tuples.flatMap(tupleVars));
    for (const v of formulaVars(p.guard)) if (!tv.has(v)) ps.add(v);
  }
  return [...ps].sort();
}

function printObject(pieces: readonly { tuples: readonly Tuple[]; guard: Formula }[], opts: PrintOptions): string {
  const sty = opts.thesis ? THESIS : ISL;
  const params = paramsOf(pieces);
  const ps = new Set(params);
  const body = pieces.map((p) => printPiece(p.tuples, p.guard, ps, sty)).join('; ');
  const prefix = params.length > 0 && !opts.thesis ? `[${params.join(', ')}] -> ` : '';
  return `${prefix}{ ${body}${body ? ' ' : ''}}`;
}

export function printSet(s: PSet, opts: PrintOptions = {}): string {
  return printObject(s.pieces.map((p) => ({ tuples: [p.tuple], guard: p.guard })), opts);
}

export function printRel(r: PRel, opts: PrintOptions = {}): string {
  return printObject(r.pieces.map((p) => ({ tuples: [p.dom, p.ran], guard: p.guard })), opts);
}

/** A unit set `{ : φ }`. */
export function printUnit(f: Formula, opts: PrintOptions = {}): string {
  const params = [...formulaVars(f)].sort();
  const prefix = params.length > 0 && !opts.thesis ? `[${params.join(', ')}] -> ` : '';
  return `${prefix}{ : ${printFormula(f, opts)} }`;
}
