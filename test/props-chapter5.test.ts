// Thm 5.3.1 and Thm 5.5.4 over random annotated implementations (proofs/metatheory/properties/chapter5.ts).
// Thm 5.5.4 calls the verifier (Z3) on every case: its CI count (500, the deep tier) is what fits
// in about three minutes, `npm test` runs a tenth (test/props-helpers.ts); `npm run props` runs
// more.

import { describe, it } from 'vitest';
import { CHAPTER5 } from '../proofs/metatheory/properties/chapter5.ts';
import { expectProperty } from './props-helpers.ts';

describe('chapter 5', () => {
  for (const p of CHAPTER5) it(p.name, () => expectProperty(p).then(() => undefined), 900_000);
});
