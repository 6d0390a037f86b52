// Thms 4.2.2, 4.4.1, 4.4.2 and Fig. 4.3/4.4 over random expressions (proofs/metatheory/properties/expressions.ts).

import { describe, it } from 'vitest';
import { EXPRESSIONS } from '../proofs/metatheory/properties/expressions.ts';
import { expectProperty } from './props-helpers.ts';

describe('chapter 4, expressions', () => {
  for (const p of EXPRESSIONS) it(p.name, () => expectProperty(p).then(() => undefined), 300_000);
});
