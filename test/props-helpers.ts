// Running named properties under vitest: the case count is the property's CI count (or
// PROPS_RUNS), the seed is random unless PROPS_SEED is set, and a failure prints fast-check's
// report (seed, shrink path, counterexample as a program) to the terminal and fails the test.

import type { NamedProperty, PropertyReport } from '../proofs/metatheory/properties/framework.ts';

export async function expectProperty(p: NamedProperty, runs?: number): Promise<PropertyReport> {
  const seed = process.env.PROPS_SEED !== undefined ? Number(process.env.PROPS_SEED) : undefined;
  const numRuns = process.env.PROPS_RUNS !== undefined ? Number(process.env.PROPS_RUNS) : (runs ?? p.ciRuns);
  const r = await p.run({ numRuns, seed });
  const line = `${p.name}: ${r.runs} cases in ${(r.ms / 1000).toFixed(1)} s, seed ${r.seed} — ${r.stats.map(([k, v]) => `${k} ${v}`).join(', ')}`;
  if (!r.ok) {
    console.error(r.message);
    throw new Error(r.message ?? `${p.name} failed`);
  }
  console.log(line);
  return r;
}
