// Chapter 7 over random scheduled reductions (proofs/properties/reductions.ts): the verifier's
// valid agrees with concrete runs on N = 1…9. Each case calls the verifier (Z3); the CI count is
// what fits in about 70 s on 2 shared cores (README, chapter 7: 300 cases in 69.7 s at load 8;
// bench/red-prop.ts says where a case's time goes). PROPS_RUNS=1000 runs the property's full count.

import { describe, it } from 'vitest';
import { REDUCTIONS } from '../proofs/properties/reductions.ts';
import { expectProperty } from './props-helpers.ts';

const CI_RUNS: Record<string, number> = { "thm-7.4.1": 2000, "red-soundness": 300 };

describe('chapter 7', () => {
  for (const p of REDUCTIONS) it(p.name, () => expectProperty(p, CI_RUNS[p.id]).then(() => undefined), 900_000);
});
