// Two tiers of one suite. `npm test` (the quick tier, what the README's setup runs; meant to take
// at most five minutes on the idle 2-core machine: 287.6 s, bench/RESULTS.md) draws fewer random cases and runs a sample of the long
// lists of fixed inputs (kernels, replay commands, pipelines); `npm run test:deep`
// (SCHED_TEST_TIER=deep) runs the same files with every case and the full counts, among them the
// 1,000 distinct reduction programs of issue 17. `.ci/run` runs both. The quick tier checks the
// same properties on fewer inputs; the only assertions it leaves out are floors on how many
// inputs were checked (the 1,000 distinct programs), which hold of the deep counts only.

export const DEEP = process.env.SCHED_TEST_TIER === 'deep';

/**
 * The seed of the random draws that call the verifier (named properties, test/props-helpers.ts;
 * the state pairs of soundness-state): PROPS_SEED when set, else fixed in the quick tier, so that
 * `npm test` checks the same cases and takes the same time on every run (one draw of four state
 * pairs once took 130 s where others take 5), and fresh in the deep tier, which explores.
 */
export function drawSeed(): number {
  if (process.env.PROPS_SEED !== undefined) return Number(process.env.PROPS_SEED);
  return DEEP ? Date.now() % 2 ** 31 : QUICK_SEED;
}

const QUICK_SEED = 14;

/** How many random cases to draw: `quick` in `npm test`, `deep` in `npm run test:deep`. */
export function cases(quick: number, deep: number): number {
  return DEEP ? deep : quick;
}

/**
 * The quick tier's share of a list of fixed inputs: every `every`-th element, starting at the
 * first, plus any element `keep` names (the cases a test must never lose); all of them in the
 * deep tier.
 */
export function sample<T>(xs: readonly T[], every: number, keep: (x: T) => boolean = () => false): T[] {
  if (DEEP || every <= 1) return [...xs];
  return xs.filter((x, i) => i % every === 0 || keep(x));
}
