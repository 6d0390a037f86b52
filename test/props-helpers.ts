// Running named properties under vitest: the case count is the property's CI count in the deep
// tier and a tenth or a twentieth of it in `npm test` (quickShare, test/tier.ts), or PROPS_RUNS; the seed is
// drawSeed()'s (fixed in the quick tier, fresh in the deep one, PROPS_SEED when set), and a failure prints fast-check's report (seed, shrink path, counterexample
// as a program) to the terminal and fails the test.

import type { NamedProperty, PropertyReport } from '../proofs/metatheory/properties/framework.ts';
import { VERIFYING } from '../proofs/metatheory/properties/registry.ts';
import { cases, drawSeed } from './tier.ts';

/**
 * The quick tier's share of a property's CI count: a tenth, a twentieth for the properties that
 * call the verifier on every case (seconds each), at least 20 cases.
 */
export function quickShare(deep: number, verifying = false): number {
  return Math.min(deep, Math.max(20, Math.ceil(deep / (verifying ? 20 : 10))));
}

export async function expectProperty(p: NamedProperty, runs?: number, quick?: number): Promise<PropertyReport> {
  const seed = drawSeed();
  const deep = runs ?? p.ciRuns;
  const numRuns = process.env.PROPS_RUNS !== undefined ? Number(process.env.PROPS_RUNS) : cases(quick ?? quickShare(deep, VERIFYING.has(p.id)), deep);
  const r = await p.run({ numRuns, seed });
  const line = `${p.name}: ${r.runs} cases in ${(r.ms / 1000).toFixed(1)} s, seed ${r.seed} — ${r.stats.map(([k, v]) => `${k} ${v}`).join(', ')}`;
  if (!r.ok) {
    console.error(r.message);
    throw new Error(r.message ?? `${p.name} failed`);
  }
  console.log(line);
  return r;
}
