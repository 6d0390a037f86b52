// `npm run props [-- options]`: run the named properties long, print per-property case counts,
// times and tallies, and (with --precision) the precision of the race check.
//
//   --runs N          cases per property (default: each property's CI count)
//   --verify-runs N   cases for the properties that call the verifier (default 500: ~0.3–3 s each)
//   --only a,b        only these property ids (see --list)
//   --seed S          fast-check seed (default: random, printed)
//   --precision N     also measure the race-check precision on N random programs
//   --mutants         also run every mutant against its killers and say which survive
//   --matrix          run every property against every mutant (small budgets) and print who kills whom
//   --markdown        print the result table as Markdown (for proofs/metatheory/properties/README.md)
//   --list            list the properties and exit

import { MUTANTS, withMutant } from './mutants.ts';
import { measurePrecision } from './precision.ts';
import type { PropertyReport } from './framework.ts';
import { ALL, propertyById, VERIFYING } from './registry.ts';

function arg(name: string): string | null {
  const i = process.argv.indexOf(name);
  return i >= 0 ? (process.argv[i + 1] ?? null) : null;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

async function main(): Promise<number> {
  if (process.argv.includes('--list')) {
    for (const p of ALL) console.log(`${p.id.padEnd(18)} ${p.name} (CI: ${p.ciRuns} cases)\n${' '.repeat(19)}${p.statement}`);
    return 0;
  }
  const runs = arg('--runs');
  const verifyRuns = Number(arg('--verify-runs') ?? 500);
  const only = arg('--only');
  const seed = Number(arg('--seed') ?? (Date.now() ^ (Math.random() * 0x7fffffff)) >>> 0);
  const props = only ? only.split(',').map(propertyById) : ALL;
  console.log(`seed ${seed}; load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const reports: PropertyReport[] = [];
  let failed = 0;
  for (const [i, p] of props.entries()) {
    const numRuns = VERIFYING.has(p.id) ? verifyRuns : runs !== null ? Number(runs) : p.ciRuns;
    // One seed per property, so that properties over the same generator see different cases.
    const r = await p.run({ numRuns, seed: (seed + i * 7919) >>> 0 });
    reports.push(r);
    console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${p.name}: ${r.runs} cases, ${seconds(r.ms)}`);
    console.log(`     ${r.stats.map(([k, v]) => `${k} ${v}`).join(', ')}`);
    if (!r.ok) {
      failed++;
      console.log(r.message);
    }
  }
  const precision = arg('--precision');
  if (precision !== null) {
    const pr = measurePrecision({ sample: Number(precision), seed });
    console.log(`precision of the race check: ${pr.races} of ${pr.sampled} programs rejected for a race (${pr.readWrite} read-write, ${pr.writeWrite} write-write); exploration: ${pr.nondeterministic} nondeterministic, ${pr.stuck} stuck under some schedule, ${pr.deterministic} deterministic, ${pr.limit} over the state limit; nondeterministic fraction ${(pr.fraction * 100).toFixed(1)}% (${seconds(pr.ms)})`);
  }
  if (process.argv.includes('--mutants')) {
    for (const m of MUTANTS) {
      const kills: string[] = [];
      for (const id of m.killers) {
        const p = propertyById(id);
        const r = await withMutant(m, () => p.run({ numRuns: VERIFYING.has(id) ? 200 : 2000, seed, endOnFailure: true }));
        if (!r.ok) kills.push(`${id} (case ${r.runs})`);
      }
      console.log(`${kills.length > 0 ? 'killed  ' : 'SURVIVED'} ${m.id}: ${kills.join(', ') || `none of ${m.killers.join(', ')}`}`);
      if (kills.length === 0) failed++;
    }
  }
  if (process.argv.includes('--matrix')) {
    console.log(`\n| property | ${MUTANTS.map((m) => m.id).join(' | ')} |\n| --- | ${MUTANTS.map(() => '---').join(' | ')} |`);
    for (const p of props) {
      const cells: string[] = [];
      for (const m of MUTANTS) {
        const r = await withMutant(m, () => p.run({ numRuns: VERIFYING.has(p.id) ? 40 : 1000, seed, endOnFailure: true }));
        cells.push(r.ok ? '·' : r.falsified ? `killed (${r.runs})` : `crash (${r.runs})`);
      }
      console.log(`| ${p.id} | ${cells.join(' | ')} |`);
    }
  }
  if (process.argv.includes('--markdown')) {
    console.log('\n| theorem | property | cases run | last result | time |\n| --- | --- | --- | --- | --- |');
    for (const r of reports) {
      const p = propertyById(r.id);
      console.log(`| ${p.name.replace(/ \(.*$/, '')} | \`${r.id}\` ${p.name.replace(/^[^(]*/, '')} | ${r.runs} | ${r.ok ? 'pass' : 'FAIL'} | ${seconds(r.ms)} |`);
    }
  }
  return failed > 0 ? 1 : 0;
}

// The WASM solver keeps worker threads alive: exit explicitly.
main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
