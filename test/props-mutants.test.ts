// Mutation testing of the harness: every deliberately broken semantics of
// proofs/metatheory/properties/mutants.ts is swapped in and must be killed — some property named as its
// killer must find a counterexample that contradicts the property (not a crash of the check).

import { describe, expect, it } from 'vitest';
import { MUTANTS, withMutant } from '../proofs/metatheory/properties/mutants.ts';
import { propertyById } from '../proofs/metatheory/properties/registry.ts';

/** Cases to try per killer before declaring the mutant alive. */
const BUDGET: Record<string, number> = { 'thm-5.5.4': 40, 'thm-5.5.4-races': 80, 'red-soundness': 200 };

describe('mutants of the semantics are killed', () => {
  for (const m of MUTANTS) {
    it(`${m.id}: ${m.description}`, async () => {
      const tried: string[] = [];
      for (const id of m.killers) {
        const p = propertyById(id);
        const r = await withMutant(m, () => p.run({ numRuns: BUDGET[id] ?? 3000, seed: 20240601, endOnFailure: true }));
        tried.push(`${id}: ${r.ok ? `survived ${r.runs} cases` : `killed at case ${r.runs}${r.falsified ? '' : ' (by a crash!)'} — ${r.error}`}`);
        if (!r.ok) {
          expect(r.falsified, `${id} crashed instead of falsifying: ${r.error}`).toBe(true);
          console.log(`${m.id} killed by ${tried.at(-1)}`);
          return;
        }
      }
      throw new Error(`mutant ${m.id} survives:\n${tried.join('\n')}`);
    });
  }
});
