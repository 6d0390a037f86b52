// Lemma 4.2.4, Thms 4.3.3/4.3.7, Lemma 4.3.8/Cor. 4.3.9, Cor. 4.3.10 and the derivation checker
// over random programs with memories (proofs/metatheory/properties/chapter4.ts, derivations.ts).

import { describe, it } from 'vitest';
import { CHAPTER4 } from '../proofs/metatheory/properties/chapter4.ts';
import { DERIVATIONS } from '../proofs/metatheory/properties/derivations.ts';
import { expectProperty } from './props-helpers.ts';

describe('chapter 4, commands', () => {
  for (const p of [...CHAPTER4, ...DERIVATIONS]) it(p.name, () => expectProperty(p).then(() => undefined), 600_000);
});
