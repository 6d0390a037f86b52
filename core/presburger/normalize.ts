// Piece normalisation, shared by sets and relations: eliminate what can be eliminated exactly,
// simplify with tuple variables ranked by position (so that range variables are solved in terms of
// domain variables, later ones in terms of earlier ones, everything in terms of parameters), drop
// empty pieces and duplicates.

import type { Formula, PRel, PSet, RelPiece, SetPiece, Tuple } from './types.ts';
import { eliminate } from './qe.ts';
import { simplify } from './simplify.ts';
import { tupleSpace, tupleVars } from './tuple.ts';
import { canonicalize } from './canon.ts';
import { hasQuantifier } from './vars.ts';
import { logElimination } from './elimlog.ts';

/** Simplified, quantifier-eliminated guard for a piece with these tuples (domain first). */
export function normalizeGuard(tuples: readonly Tuple[], guard: Formula): Formula {
  const rank = new Map<string, number>();
  tuples.forEach((t, ti) => tupleVars(t).forEach((v, i) => rank.set(v, 1 + ti + i / 1000)));
  const e = eliminate(guard);
  const r = simplify(e, { rank });
  // The simplifier also drops quantifiers (defined or one-sided variables): log those too.
  if (hasQuantifier(e) && r.key !== e.key) logElimination({ original: e, result: r, method: 'exact' });
  return r;
}

function pieceKey(tuples: readonly Tuple[], guard: Formula): string {
  const vars = tuples.flatMap(tupleVars);
  return `${tuples.map(tupleSpace).join('->')}:${canonicalize(guard, vars).formula.key}`;
}

export function mkSet(pieces: readonly SetPiece[]): PSet {
  const out: SetPiece[] = [];
  const seen = new Set<string>();
  for (const p of pieces) {
    const guard = normalizeGuard([p.tuple], p.guard);
    if (guard.kind === 'false') continue;
    const k = pieceKey([p.tuple], guard);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ tuple: p.tuple, guard });
  }
  return { kind: 'set', pieces: out };
}

export function mkRel(pieces: readonly RelPiece[]): PRel {
  const out: RelPiece[] = [];
  const seen = new Set<string>();
  for (const p of pieces) {
    const guard = normalizeGuard([p.dom, p.ran], p.guard);
    if (guard.kind === 'false') continue;
    const k = pieceKey([p.dom, p.ran], guard);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ dom: p.dom, ran: p.ran, guard });
  }
  return { kind: 'rel', pieces: out };
}
