// Every named property, in the order of the thesis.

import { CHAPTER4 } from './chapter4.ts';
import { CHAPTER5 } from './chapter5.ts';
import { DERIVATIONS } from './derivations.ts';
import { EXPRESSIONS } from './expressions.ts';
import type { NamedProperty } from './framework.ts';
import { REDUCTIONS } from './reductions.ts';

export const ALL: readonly NamedProperty[] = [...EXPRESSIONS, ...CHAPTER4, ...DERIVATIONS, ...CHAPTER5, ...REDUCTIONS];

/** Properties that call the verifier (Z3) on every case: seconds a case, not milliseconds. */
export const VERIFYING: ReadonlySet<string> = new Set(['thm-5.5.4', 'thm-5.5.4-races', 'red-soundness']);

export function propertyById(id: string): NamedProperty {
  const p = ALL.find((x) => x.id === id);
  if (!p) throw new Error(`no property ${id} (known: ${ALL.map((x) => x.id).join(', ')})`);
  return p;
}
