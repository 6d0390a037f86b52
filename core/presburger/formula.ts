// Formulas in negation normal form, built only through these smart constructors: literals are
// normalised (content divided out, unit floors unfolded, `t mod c = r` turned into a congruence and
// bounds), connectives flattened, sorted and de-duplicated, constants folded.

import type { Formula, Literal, Term } from './types.ts';
import { emod, floorDiv, gcd, modInverse } from './bigint.ts';
import { addConst, contentOf, divExact, linear, modT, neg, negKey, sub, termFromParts, without } from './term.ts';
import { formulaVars } from './vars.ts';

export const TRUE: Formula = { kind: 'true', key: 'T' };
export const FALSE: Formula = { kind: 'false', key: 'F' };

export function bool(b: boolean): Formula {
  return b ? TRUE : FALSE;
}

function mkGe(t: Term): Literal {
  return { kind: 'ge', t, key: `≥${t.key}` };
}

/** t ≥ 0. */
export function ge(t: Term): Formula {
  if (t.parts.length === 0) return bool(t.c >= 0n);
  const g = contentOf(t);
  if (g > 1n) t = termFromParts(t.parts.map(([a, k]) => [a, k / g] as const), floorDiv(t.c, g));
  // ⌊s/d⌋ + r ≥ 0 ⇔ s + d·r ≥ 0, and −⌊s/d⌋ + r ≥ 0 ⇔ d·r + d − 1 − s ≥ 0 (r is an integer).
  for (const [a, k] of t.parts) {
    if (a.kind !== 'floor' || k % a.div !== 0n) continue;
    // t = −j·(s mod d) + c: a bound on a remainder. `s mod d ≤ 0` is the congruence s ≡ 0, so
    // negating a congruence twice gives it back.
    const j = k / a.div;
    const rest = linear([[without(t, a.key), 1n], [a.arg, j]]);
    if (rest.parts.length !== 0) continue;
    const c = rest.c;
    if (j > 0n) {
      const u = floorDiv(c, j); // s mod d ≤ u
      if (u < 0n) return FALSE;
      if (u >= a.div - 1n) return TRUE;
      if (u === 0n) return cong(a.arg, a.div);
    } else {
      const l = -floorDiv(c, -j); // s mod d ≥ ⌈−c/(−j)⌉ = −⌊c/(−j)⌋
      if (l <= 0n) return TRUE;
      if (l >= a.div) return FALSE;
    }
  }
  for (const [a, k] of t.parts) {
    if (a.kind !== 'floor' || (k !== 1n && k !== -1n)) continue;
    const r = without(t, a.key);
    if (k === 1n) return ge(linear([[a.arg, 1n], [r, a.div]]));
    return ge(linear([[r, a.div], [a.arg, -1n]], a.div - 1n));
  }
  return mkGe(t);
}

/** t = 0. */
export function eq(t: Term): Formula {
  if (t.parts.length === 0) return bool(t.c === 0n);
  const g = contentOf(t);
  if (g > 1n) {
    if (t.c % g !== 0n) return FALSE;
    t = divExact(t, g);
  }
  // Equalities keep their floors: an equality `v = ⌊s/d⌋` is an explicit definition (of a tuple
  // variable, a lexmax value) that should survive for printing and for the heap-clause view.
  if (t.parts[0]![1] < 0n) t = neg(t);
  return { kind: 'eq', t, key: `=${t.key}` };
}

/** t ≡ 0 (mod m), m ≥ 1. */
export function cong(t: Term, m: bigint): Formula {
  if (m <= 0n) throw new RangeError(`congruence modulo ${m}`);
  if (m === 1n) return TRUE;
  let parts = t.parts.map(([a, k]) => [a, emod(k, m)] as const).filter(([, k]) => k !== 0n);
  let c = emod(t.c, m);
  if (parts.length === 0) return bool(c === 0n);
  let g = m;
  for (const [, k] of parts) g = gcd(g, k);
  if (g > 1n) {
    if (c % g !== 0n) return FALSE;
    parts = parts.map(([a, k]) => [a, k / g] as const);
    c /= g;
    m /= g;
    if (m === 1n) return TRUE;
  }
  // Make the leading coefficient 1 when it is invertible, so equal congruences print equally.
  let u = termFromParts(parts, c);
  const lead = u.parts[0]![1];
  if (lead !== 1n && gcd(lead, m) === 1n) {
    const inv = modInverse(lead, m);
    u = termFromParts(u.parts.map(([a, k]) => [a, emod(k * inv, m)] as const).filter(([, k]) => k !== 0n), emod(u.c * inv, m));
  }
  return { kind: 'cong', t: u, m, key: `≡${m}${u.key}` };
}

export function geT(a: Term, b: Term): Formula { return ge(sub(a, b)); }
export function leT(a: Term, b: Term): Formula { return ge(sub(b, a)); }
export function gtT(a: Term, b: Term): Formula { return ge(addConst(sub(a, b), -1n)); }
export function ltT(a: Term, b: Term): Formula { return ge(addConst(sub(b, a), -1n)); }
export function eqT(a: Term, b: Term): Formula { return eq(sub(a, b)); }
export function neT(a: Term, b: Term): Formula { return not(eq(sub(a, b))); }

function sortKey(x: Formula, y: Formula): number {
  return x.key < y.key ? -1 : x.key > y.key ? 1 : 0;
}

function junction(kind: 'and' | 'or', fs: readonly Formula[]): Formula {
  const unit = kind === 'and' ? TRUE : FALSE;
  const zero = kind === 'and' ? FALSE : TRUE;
  const seen = new Map<string, Formula>();
  const stack = [...fs];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (f.kind === unit.kind) continue;
    if (f.kind === zero.kind) return zero;
    if (f.kind === kind) {
      stack.push(...f.args);
      continue;
    }
    seen.set(f.key, f);
  }
  if (seen.size === 0) return unit;
  // A literal next to its own negation (¬(t ≥ 0) is −t − 1 ≥ 0, whose key is built from t's
  // parts, not as a term). Of two complementary `≥` literals one has a positive leading
  // coefficient and the other a negative one: looking from the positive side finds them.
  for (const f of seen.values()) {
    if (f.kind === 'ge' && f.t.parts.length > 0 && f.t.parts[0]![1] > 0n && seen.has(`≥${negKey(f.t, -1n)}`)) return zero;
  }
  const args = [...seen.values()].sort(sortKey);
  if (args.length === 1) return args[0]!;
  return { kind, args, key: `${kind === 'and' ? '&' : '|'}(${args.map((a) => a.key).join(',')})` };
}

export function and(...fs: Formula[]): Formula {
  return junction('and', fs);
}

export function or(...fs: Formula[]): Formula {
  return junction('or', fs);
}

export function andAll(fs: readonly Formula[]): Formula {
  return junction('and', fs);
}

export function orAll(fs: readonly Formula[]): Formula {
  return junction('or', fs);
}

/** Negation, pushed to the literals. */
export function not(f: Formula): Formula {
  switch (f.kind) {
    case 'true': return FALSE;
    case 'false': return TRUE;
    case 'ge': return ge(addConst(neg(f.t), -1n));
    case 'eq': return or(ge(addConst(f.t, -1n)), ge(addConst(neg(f.t), -1n)));
    case 'cong': {
      // Modulo 2 the other residue; otherwise t mod m ≥ 1, whose negation is the congruence again.
      if (f.m === 2n) return cong(addConst(f.t, 1n), 2n);
      return ge(addConst(modT(f.t, f.m), -1n));
    }
    case 'and': return orAll(f.args.map(not));
    case 'or': return andAll(f.args.map(not));
    case 'exists': return quant('forall', f.vars, not(f.body));
    case 'forall': return quant('exists', f.vars, not(f.body));
  }
}

export function implies(a: Formula, b: Formula): Formula {
  return or(not(a), b);
}

export function iff(a: Formula, b: Formula): Formula {
  return or(and(a, b), and(not(a), not(b)));
}

function quant(kind: 'exists' | 'forall', vars: readonly string[], body: Formula): Formula {
  if (body.kind === 'true' || body.kind === 'false') return body;
  const fv = formulaVars(body);
  let vs = [...new Set(vars)].filter((v) => fv.has(v));
  if (vs.length === 0) return body;
  if (body.kind === kind) {
    vs = [...new Set([...vs, ...body.vars])];
    body = body.body;
  }
  vs.sort();
  return { kind, vars: vs, body, key: `${kind === 'exists' ? 'E' : 'A'}[${vs.join(',')}](${body.key})` };
}

export function exists(vars: readonly string[], body: Formula): Formula {
  return quant('exists', vars, body);
}

export function forall(vars: readonly string[], body: Formula): Formula {
  return quant('forall', vars, body);
}

export function isLiteral(f: Formula): f is Literal {
  return f.kind === 'ge' || f.kind === 'eq' || f.kind === 'cong';
}

/** Conjuncts of a formula (itself if not a conjunction). */
export function conjuncts(f: Formula): readonly Formula[] {
  return f.kind === 'and' ? f.args : f.kind === 'true' ? [] : [f];
}

export function disjuncts(f: Formula): readonly Formula[] {
  return f.kind === 'or' ? f.args : f.kind === 'false' ? [] : [f];
}

/** Rebuild a literal of the same kind around a new term. */
export function relit(l: Literal, t: Term): Formula {
  switch (l.kind) {
    case 'ge': return ge(t);
    case 'eq': return eq(t);
    case 'cong': return cong(t, l.m);
  }
}

