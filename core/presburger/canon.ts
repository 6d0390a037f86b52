// Best-effort canonical names: generated variables renamed in order of first appearance, so that
// objects built twice (with different fresh counters) usually get the same key. Used for caches
// and de-duplication only; never needed for soundness.

import type { Formula } from './types.ts';
import { isFresh } from './names.ts';
import { renameFormula } from './subst.ts';
import { formulaVars } from './vars.ts';

/** Rename the given variables (in order) and then every other generated variable to `#0, #1, …`. */
export function canonicalize(f: Formula, first: readonly string[] = []): { formula: Formula; names: Map<string, string> } {
  const m = new Map<string, string>();
  for (const v of first) if (!m.has(v)) m.set(v, `#${m.size}`);
  const order = [...formulaVars(f)].filter((v) => isFresh(v) && !m.has(v));
  // Appearance order in the key is deterministic for a given structure.
  order.sort((a, b) => f.key.indexOf(a) - f.key.indexOf(b) || (a < b ? -1 : 1));
  for (const v of order) m.set(v, `#${m.size}`);
  return { formula: renameFormula(f, m), names: m };
}
