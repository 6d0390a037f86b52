// How fast does `sched fuzz` find each injected bug? For every bug and seed, fuzz the reference
// compiler with the bug until the first detection, and report per bug the median number of cases
// and seconds, and which oracles flagged the first detecting case (the table of README.md).
//
//   nice -n 19 npx tsx proofs/fuzz/detect.ts [--seeds 5] [--max 200] [--bugs a,b] [--out FILE.json]

import { writeFileSync } from 'node:fs';
import { BUG_NAMES, type BugName, isBugName } from '../../compilers/reference/bugs.ts';
import { shutdownZ3 } from '../../smt/z3.ts';
import { referenceCompiler } from './compilers.ts';
import { fuzz } from './harness.ts';
import { DEFAULT_ORACLES, type Oracle } from './oracles.ts';
import { median } from './stats.ts';

interface Trial {
  readonly bug: BugName;
  readonly seed: number;
  readonly found: boolean;
  readonly cases: number;
  readonly seconds: number;
  readonly oracles: readonly Oracle[];
  readonly disagreements: number;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const seeds = Number(arg('seeds') ?? 5);
const max = Number(arg('max') ?? 200);
const bugs = (arg('bugs')?.split(',') ?? BUG_NAMES).filter(isBugName);
const out = arg('out');
const trials: Trial[] = [];
for (const bug of bugs) {
  for (let seed = 1; seed <= seeds; seed++) {
    const s = await fuzz({
      iterations: max,
      seed,
      profile: 'full',
      compiler: referenceCompiler(bug),
      injected: bug,
      oracles: DEFAULT_ORACLES,
      reproDir: null,
      shrink: false,
      shrinkBudgetMs: 0,
      stopOnFirst: true,
    });
    const d = s.firstDetection;
    const t: Trial = { bug, seed, found: d !== null, cases: d ? d.case + 1 : s.iterations, seconds: d ? d.ms / 1000 : s.ms / 1000, oracles: d?.oracles ?? [], disagreements: s.disagreements };
    trials.push(t);
    process.stderr.write(`${bug} seed ${seed}: ${t.found ? `found at case ${t.cases} after ${t.seconds.toFixed(1)} s by ${t.oracles.join('+')}` : `not found in ${t.cases} cases`}${t.disagreements ? `, ${t.disagreements} DISAGREEMENTS` : ''}\n`);
    if (out) writeFileSync(out, JSON.stringify(trials, null, 2) + '\n');
  }
}
const lines = ['| bug | found | median cases | median seconds | oracles on the first detecting case |', '| --- | --- | --- | --- | --- |'];
for (const bug of bugs) {
  const ts = trials.filter((t) => t.bug === bug);
  const found = ts.filter((t) => t.found);
  const tally = new Map<string, number>();
  for (const t of found) tally.set(t.oracles.join('+'), (tally.get(t.oracles.join('+')) ?? 0) + 1);
  const oracles = [...tally].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} (${n})`).join(', ');
  lines.push(`| \`${bug}\` | ${found.length}/${ts.length} | ${found.length ? median(found.map((t) => t.cases)) : '—'} | ${found.length ? median(found.map((t) => t.seconds)).toFixed(1) : '—'} | ${oracles || '—'} |`);
}
process.stdout.write(lines.join('\n') + '\n');
await shutdownZ3();
