// Entailment of quasi-affine facts, decided synchronously and cheaply: Fourier–Motzkin
// elimination over the rationals, each inequality tightened to the integers (Σ a·x + c ≥ 0 with
// g = gcd(a) becomes Σ (a/g)·x + ⌊c/g⌋ ≥ 0), after equalities with a unit coefficient are solved
// and substituted (exact). A system with no such solution has no integer solution, so
// "entailed" is always right; the converse does not hold ("not shown" is all a failure means).
// Floors are variables with their two defining inequalities; min, max and select are split into
// cases, and so are disjunctions. Everything is bounded (cases, inequalities): past a bound the
// answer is "not shown", never a guess. Used to simplify index expressions and assumptions under
// what is known (core/presburger/gist.ts), where a missed fact only leaves a term unsimplified.

import type { Atom, Formula, Term } from './types.ts';
import { ceilDiv, floorDiv, gcd } from './bigint.ts';
import { formulaVars, termVars } from './vars.ts';
import { not } from './formula.ts';
import { renameFormula } from './subst.ts';

/** Σ k[i]·v[i] + c with v sorted and every k[i] nonzero (v: variable names, or floor atom keys). */
interface Lin {
  readonly v: readonly string[];
  readonly k: readonly bigint[];
  readonly c: bigint;
}

/** One alternative of a term: its linear form, under the inequalities (Lin ≥ 0) of its case. */
interface Alt {
  readonly e: Lin;
  readonly cons: readonly Lin[];
}

/** Cases explored per question, inequalities per elimination step. */
const MAX_CASES = 256;
const MAX_INEQS = 400;
/** Facts that need a case split, at most, in a second attempt (after the plain facts alone). */
const SPLIT_FACTS = 4;
/** Remembered answers and linearizations (each a function of its key). */
const MEMO_LIMIT = 50_000;

class Budget extends Error {}

let freshCount = 0;
const freshVar = (): string => `∃${freshCount++}`;

function linAdd(x: Lin, y: Lin, m = 1n): Lin {
  const v: string[] = [];
  const k: bigint[] = [];
  let i = 0;
  let j = 0;
  while (i < x.v.length || j < y.v.length) {
    const a = x.v[i];
    const b = y.v[j];
    if (b === undefined || (a !== undefined && a < b)) {
      v.push(a!);
      k.push(x.k[i++]!);
    } else if (a === undefined || b < a) {
      v.push(b);
      k.push(m * y.k[j++]!);
    } else {
      const s = x.k[i++]! + m * y.k[j++]!;
      if (s !== 0n) {
        v.push(a);
        k.push(s);
      }
    }
  }
  return { v, k, c: x.c + m * y.c };
}

function linScale(x: Lin, m: bigint): Lin {
  if (m === 0n) return ZERO;
  if (m === 1n) return x;
  return { v: x.v, k: x.k.map((a) => a * m), c: x.c * m };
}

const ZERO: Lin = { v: [], k: [], c: 0n };
const linVar = (v: string): Lin => ({ v: [v], k: [1n], c: 0n });
const linConst = (c: bigint): Lin => ({ v: [], k: [], c });
const coefOf = (l: Lin, x: string): bigint => {
  const i = l.v.indexOf(x);
  return i < 0 ? 0n : l.k[i]!;
};

// ---------------------------------------------------------------- linearization

const termMemo = new Map<string, Alt[]>();

function termAlts(t: Term): Alt[] {
  if (t.parts.length === 0) return [{ e: linConst(t.c), cons: [] }];
  const hit = termMemo.get(t.key);
  if (hit) return hit;
  let acc: Alt[] = [{ e: linConst(t.c), cons: [] }];
  for (const [a, k] of t.parts) {
    const as = atomAlts(a);
    const next: Alt[] = [];
    for (const p of acc) for (const x of as) next.push({ e: linAdd(p.e, x.e, k), cons: x.cons.length === 0 ? p.cons : [...p.cons, ...x.cons] });
    if (next.length > MAX_CASES) throw new Budget();
    acc = next;
  }
  if (termMemo.size > MEMO_LIMIT) termMemo.clear();
  termMemo.set(t.key, acc);
  return acc;
}

function atomAlts(a: Atom): Alt[] {
  switch (a.kind) {
    case 'var':
      return [{ e: linVar(a.name), cons: [] }];
    case 'floor': {
      // q = ⌊s/d⌋ ⇔ d·q ≤ s ≤ d·q + d − 1; the atom's key names q (no identifier contains ⌊).
      const q = linVar(a.key);
      return termAlts(a.arg).map((s) => ({ e: q, cons: [...s.cons, linAdd(s.e, q, -a.div), linAdd(linAdd(linScale(q, a.div), s.e, -1n), linConst(a.div - 1n))] }));
    }
    case 'min':
    case 'max': {
      // Case i: argument i is the least (greatest); ties fall into several cases, which is harmless.
      const out: Alt[] = [];
      let combos: (readonly Alt[])[] = [[]];
      for (const arg of a.args.map(termAlts)) {
        combos = combos.flatMap((p) => arg.map((x) => [...p, x]));
        if (combos.length > MAX_CASES) throw new Budget();
      }
      for (const p of combos) {
        const base = p.flatMap((x) => x.cons);
        for (let i = 0; i < p.length; i++) {
          const cons = [...base];
          for (let j = 0; j < p.length; j++) if (j !== i) cons.push(a.kind === 'min' ? linAdd(p[j]!.e, p[i]!.e, -1n) : linAdd(p[i]!.e, p[j]!.e, -1n));
          out.push({ e: p[i]!.e, cons });
          if (out.length > MAX_CASES) throw new Budget();
        }
      }
      return out;
    }
    case 'select': {
      const out: Alt[] = [];
      for (const [cond, branch] of [[a.cond, a.then], [not(a.cond), a.else]] as const) {
        for (const c of formulaCases(cond)) for (const b of termAlts(branch)) out.push({ e: b.e, cons: [...c, ...b.cons] });
        if (out.length > MAX_CASES) throw new Budget();
      }
      return out;
    }
  }
}

const formulaMemo = new Map<string, Lin[][]>();

/** A formula as a disjunction of cases, each a conjunction of inequalities (Lin ≥ 0). A universal
 *  quantifier is dropped (true): these cases are only ever used as hypotheses, where a weaker one
 *  is sound. */
function formulaCases(f: Formula): Lin[][] {
  if (f.key !== '') {
    const hit = formulaMemo.get(f.key);
    if (hit) return hit;
  }
  const r = casesOf(f);
  if (f.key !== '') {
    if (formulaMemo.size > MEMO_LIMIT) formulaMemo.clear();
    formulaMemo.set(f.key, r);
  }
  return r;
}

function casesOf(f: Formula): Lin[][] {
  switch (f.kind) {
    case 'true':
      return [[]];
    case 'false':
      return [];
    case 'ge':
      return termAlts(f.t).map((x) => [...x.cons, x.e]);
    case 'eq':
      return termAlts(f.t).map((x) => [...x.cons, x.e, linScale(x.e, -1n)]);
    case 'cong':
      // t = m·k for a fresh integer k.
      return termAlts(f.t).map((x) => {
        const d = linAdd(x.e, linVar(freshVar()), -f.m);
        return [...x.cons, d, linScale(d, -1n)];
      });
    case 'and': {
      let acc: Lin[][] = [[]];
      for (const g of f.args) {
        const gc = formulaCases(g);
        if (gc.length === 1) {
          acc = acc.map((p) => [...p, ...gc[0]!]);
          continue;
        }
        const next: Lin[][] = [];
        for (const p of acc) for (const q of gc) next.push([...p, ...q]);
        if (next.length > MAX_CASES) throw new Budget();
        acc = next;
      }
      return acc;
    }
    case 'or': {
      const out = f.args.flatMap(formulaCases);
      if (out.length > MAX_CASES) throw new Budget();
      return out;
    }
    case 'exists':
      return formulaCases(renameFormula(f.body, new Map(f.vars.map((v) => [v, freshVar()]))));
    case 'forall':
      return [[]];
  }
}

// ---------------------------------------------------------------- Fourier–Motzkin

/** lb ≤ Σ k·v ≤ ub for a primitive form (gcd 1, first coefficient positive). */
interface Bound {
  readonly v: readonly string[];
  readonly k: readonly bigint[];
  lb: bigint | null;
  ub: bigint | null;
}

/** The inequalities as bounds on primitive forms, tightened; false when two of them contradict. */
function normalize(ls: readonly Lin[]): Map<string, Bound> | false {
  const m = new Map<string, Bound>();
  for (const l of ls) {
    if (l.v.length === 0) {
      if (l.c < 0n) return false;
      continue;
    }
    let g = 0n;
    for (const a of l.k) g = gcd(g, a);
    const sign = l.k[0]! > 0n ? 1n : -1n;
    const k = l.k.map((a) => (a * sign) / g);
    let key = '';
    for (let i = 0; i < k.length; i++) key += `${k[i]}*${l.v[i]}+`;
    let b = m.get(key);
    if (!b) {
      b = { v: l.v, k, lb: null, ub: null };
      m.set(key, b);
    }
    // g·sign·F + c ≥ 0: F ≥ ⌈−c/g⌉ (sign > 0), or F ≤ ⌊c/g⌋ (sign < 0).
    if (sign > 0n) {
      const lb = ceilDiv(-l.c, g);
      if (b.lb === null || lb > b.lb) b.lb = lb;
    } else {
      const ub = floorDiv(l.c, g);
      if (b.ub === null || ub < b.ub) b.ub = ub;
    }
    if (b.lb !== null && b.ub !== null && b.lb > b.ub) return false;
  }
  return m;
}

function inequalities(m: ReadonlyMap<string, Bound>, skip?: Bound): Lin[] {
  const out: Lin[] = [];
  for (const b of m.values()) {
    if (b === skip) continue;
    if (b.lb !== null) out.push({ v: b.v, k: b.k, c: -b.lb });
    if (b.ub !== null) out.push({ v: b.v, k: b.k.map((a) => -a), c: b.ub });
  }
  return out;
}

/**
 * Eliminate every variable except `keep`: equalities with a unit coefficient are substituted,
 * the other variables eliminated by Fourier–Motzkin (one-sided ones dropped with their
 * inequalities). Returns the inequalities left (on `keep` only), false when the system has no
 * integer solution by this argument, or null when the budget ran out.
 */
function eliminateAll(ls: readonly Lin[], keep: string | null): Lin[] | false | null {
  let cur = normalize(ls);
  for (;;) {
    if (cur === false) return false;
    // An equality F = b with a unit coefficient on x: x = ±(b − (F − k·x)), substituted everywhere.
    let solved = false;
    const sys = cur;
    for (const b of sys.values()) {
      if (b.lb === null || b.lb !== b.ub) continue;
      const i = b.k.findIndex((a, j) => (a === 1n || a === -1n) && b.v[j] !== keep);
      if (i < 0) continue;
      const x = b.v[i]!;
      const kx = b.k[i]!;
      // x = (lb − Σ_{j≠i} k_j v_j) / kx
      const rest: Lin = { v: b.v.filter((_, j) => j !== i), k: b.k.filter((_, j) => j !== i).map((a) => -a * kx), c: b.lb * kx };
      const next = inequalities(sys, b).map((l) => {
        const a = coefOf(l, x);
        return a === 0n ? l : linAdd(linAdd(l, linVar(x), -a), rest, a);
      });
      cur = normalize(next);
      solved = true;
      break;
    }
    if (solved) continue;
    const ineqs = inequalities(sys);
    const count = new Map<string, [number, number]>();
    for (const l of ineqs) {
      for (let i = 0; i < l.v.length; i++) {
        if (l.v[i] === keep) continue;
        const e = count.get(l.v[i]!) ?? [0, 0];
        e[l.k[i]! > 0n ? 0 : 1]++;
        count.set(l.v[i]!, e);
      }
    }
    if (count.size === 0) return ineqs;
    let best: string | null = null;
    let cost = Infinity;
    for (const [v, [p, n]] of count) {
      const c = p * n - p - n;
      if (c < cost) {
        cost = c;
        best = v;
      }
    }
    const v = best!;
    const pos: Lin[] = [];
    const neg: Lin[] = [];
    const rest: Lin[] = [];
    for (const l of ineqs) {
      const k = coefOf(l, v);
      if (k === 0n) rest.push(l);
      else (k > 0n ? pos : neg).push(l);
    }
    if (rest.length + pos.length * neg.length > MAX_INEQS) return null;
    for (const p of pos) {
      const kp = coefOf(p, v);
      for (const n of neg) {
        const kn = -coefOf(n, v);
        const g = gcd(kp, kn);
        rest.push(linAdd(linScale(p, kn / g), n, kp / g));
      }
    }
    cur = normalize(rest);
  }
}

// ---------------------------------------------------------------- the questions

/** Facts closed under sharing variables with `vs`: the others cannot matter (unless they are
 *  contradictory by themselves, which is then not used). */
function relevant(facts: readonly Formula[], vs: ReadonlySet<string>): Formula[] {
  const seen = new Set(vs);
  const factVars = facts.map((f) => formulaVars(f));
  const taken = new Array<boolean>(facts.length).fill(false);
  let grew = true;
  while (grew) {
    grew = false;
    for (let i = 0; i < facts.length; i++) {
      if (taken[i]) continue;
      let hit = false;
      for (const v of factVars[i]!) {
        if (seen.has(v)) {
          hit = true;
          break;
        }
      }
      if (!hit) continue;
      taken[i] = true;
      grew = true;
      for (const v of factVars[i]!) seen.add(v);
    }
  }
  return facts.filter((_, i) => taken[i]);
}

/** Whether a fact needs no case split (a literal or a conjunction of them, without min, max or
 *  select): such facts are tried first, alone, since a few disjunctive facts can exhaust the
 *  case budget and hide what the plain ones show. */
export function plain(f: Formula): boolean {
  switch (f.kind) {
    case 'true':
    case 'false':
      return true;
    case 'ge':
    case 'eq':
    case 'cong':
      return plainTerm(f.t);
    case 'and':
      return f.args.every(plain);
    default:
      return false;
  }
}

function plainTerm(t: Term): boolean {
  return t.parts.every(([a]) => a.kind === 'var' || (a.kind === 'floor' && plainTerm(a.arg)));
}

const memo = new Map<string, unknown>();

function remember<T>(key: string, f: () => T): T {
  if (memo.has(key)) return memo.get(key) as T;
  const v = f();
  if (memo.size > MEMO_LIMIT) memo.clear();
  memo.set(key, v);
  return v;
}

function conj(fs: readonly Formula[]): Formula {
  return { kind: 'and', args: fs, key: '' };
}

/** Whether the conjunction of `facts` entails `goal` (true: certainly; false: not shown). */
export function entails(facts: readonly Formula[], goal: Formula): boolean {
  if (goal.kind === 'true') return true;
  const neg = not(goal);
  const rel = relevant(facts, formulaVars(neg));
  const key = `E|${rel.map((f) => f.key).sort().join('&')}|${goal.key}`;
  return remember(key, () => {
    const easy = rel.filter(plain);
    if (refuted([...easy, neg])) return true;
    // With the case-splitting facts too, but only a few: their cases multiply.
    return easy.length < rel.length && rel.length - easy.length <= SPLIT_FACTS && refuted([...rel, neg]);
  });
}

/** No case of the conjunction of `fs` has an integer solution (by Fourier–Motzkin). */
function refuted(fs: readonly Formula[]): boolean {
  try {
    return formulaCases(conj(fs)).every((c) => eliminateAll(c, null) === false);
  } catch (e) {
    if (e instanceof Budget) return false;
    throw e;
  }
}

/** Bounds of `t` under `facts` (null: none shown); 'empty' when the facts cannot hold. */
export function rangeOf(facts: readonly Formula[], t: Term): { lo: bigint | null; hi: bigint | null } | 'empty' {
  if (t.parts.length === 0) return { lo: t.c, hi: t.c };
  const rel = relevant(facts, termVars(t));
  const key = `R|${rel.map((f) => f.key).sort().join('&')}|${t.key}`;
  return remember(key, () => {
    const easy = rel.filter(plain);
    const a = boundsUnder(easy, t);
    if (easy.length === rel.length || a === 'empty' || (a.lo !== null && a.hi !== null) || rel.length - easy.length > SPLIT_FACTS) return a;
    const b = boundsUnder(rel, t);
    if (b === 'empty') return b;
    // Both are sound: the tighter of each.
    const lo = a.lo === null ? b.lo : b.lo === null ? a.lo : a.lo > b.lo ? a.lo : b.lo;
    const hi = a.hi === null ? b.hi : b.hi === null ? a.hi : a.hi < b.hi ? a.hi : b.hi;
    return { lo, hi };
  });
}

function boundsUnder(facts: readonly Formula[], t: Term): { lo: bigint | null; hi: bigint | null } | 'empty' {
  const none = { lo: null, hi: null };
  try {
    const z = freshVar();
    const hyp = formulaCases(conj(facts));
    let lo: bigint | null = null;
    let hi: bigint | null = null;
    let any = false;
    for (const c of hyp) {
      for (const x of termAlts(t)) {
        const def = linAdd(linVar(z), x.e, -1n);
        const left = eliminateAll([...c, ...x.cons, def, linScale(def, -1n)], z);
        if (left === false) continue;
        if (left === null) return none;
        let l: bigint | null = null;
        let h: bigint | null = null;
        for (const ineq of left) {
          const k = coefOf(ineq, z);
          if (k === 0n) continue;
          // k·z + c ≥ 0
          if (k > 0n) {
            const b = ceilDiv(-ineq.c, k);
            l = l === null || b > l ? b : l;
          } else {
            const b = floorDiv(ineq.c, -k);
            h = h === null || b < h ? b : h;
          }
        }
        if (l !== null && h !== null && l > h) continue;
        lo = !any ? l : lo === null || l === null ? null : l < lo ? l : lo;
        hi = !any ? h : hi === null || h === null ? null : h > hi ? h : hi;
        any = true;
      }
    }
    return any ? { lo, hi } : 'empty';
  } catch (e) {
    if (e instanceof Budget) return none;
    throw e;
  }
}

/** Forget what was remembered (the answers are a function of their questions; this bounds memory). */
export function clearEntailMemo(): void {
  memo.clear();
  termMemo.clear();
  formulaMemo.clear();
}
