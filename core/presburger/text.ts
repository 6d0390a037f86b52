// Parsing into normalised objects (parse.ts builds the raw pieces).

import type { PRel, PSet } from './types.ts';
import { parseRelRaw, parseSetRaw } from './parse.ts';
import { mkRel, mkSet } from './normalize.ts';

/** A set in isl-like syntax, normalised: `[N] -> { a[i] : 0 <= i < N }`. */
export function parseSet(src: string): PSet {
  return mkSet(parseSetRaw(src).pieces);
}

/** A relation in isl-like syntax, normalised: `{ a[i] -> A[i + 2] : 0 <= i < N }`. */
export function parseRel(src: string): PRel {
  return mkRel(parseRelRaw(src).pieces);
}
