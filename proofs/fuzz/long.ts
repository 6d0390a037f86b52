// The long fuzzing run (`npm run fuzz:long`): the cases of one seed split into contiguous index
// ranges over --jobs `sched fuzz` processes, each appending to its own --log file, then one
// summary of all logs (logstats.ts). A stopped run resumes where each log ends.
//
//   npx tsx proofs/fuzz/long.ts [--iterations 10000] [--seed 1] [--jobs N] [--out DIR] [-- FUZZ-OPTIONS…]
//
// DIR (default fuzz-long/) receives jobK.jsonl (the logs), jobK.json (each process's summary),
// jobK.err and repro/ (bundles). Progress goes to stderr every 30 s. Exit 1 if any disagreement
// or bug of the reference compiler was logged.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { caseSeed } from './harness.ts';
import { parseLog, summarise } from './logstats.ts';

// The bin: it runs the compiled dist/ when it is up to date (no TypeScript compilation per job).
const BIN = fileURLToPath(new URL('../../cli/sched.js', import.meta.url));
// The driver's own options come before `--` (the last occurrence wins, so `npm run fuzz:long --
// --iterations 100` overrides the script's); what follows `--` goes to every `sched fuzz` unchanged.
const DD = process.argv.indexOf('--');
const OWN = DD >= 0 ? process.argv.slice(0, DD) : process.argv;
const EXTRA = DD >= 0 ? process.argv.slice(DD + 1) : [];

function option(name: string, dflt: number): number {
  const i = OWN.lastIndexOf(`--${name}`);
  if (i < 0) return dflt;
  const n = Number(OWN[i + 1]);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} needs a non-negative integer, got '${OWN[i + 1]}'`);
  return n;
}

/** The first index of [lo, hi) not yet in the log (jobs append, in index order). A log of another
 *  run (another --seed, or other ranges) is refused rather than silently resumed. */
function resumeAt(log: string, seed: number, lo: number, hi: number): number {
  if (!existsSync(log)) return lo;
  let next = lo;
  for (const line of parseLog(log)) {
    if (line.index < lo || line.index >= hi || line.seed !== caseSeed(seed, line.index)) {
      throw new Error(`${log} holds case ${line.index} of another run (not seed ${seed}, cases ${lo}–${hi - 1}); choose another --out`);
    }
    next = Math.max(next, line.index + 1);
  }
  return next;
}

async function main(): Promise<number> {
  const iterations = option('iterations', 10_000);
  const seed = option('seed', 1);
  const jobs = Math.max(1, Math.min(option('jobs', availableParallelism()), iterations));
  const oi = OWN.lastIndexOf('--out');
  const out = oi >= 0 && OWN[oi + 1] !== undefined ? OWN[oi + 1]! : 'fuzz-long';
  mkdirSync(out, { recursive: true });
  const logs: string[] = [];
  const running: Promise<number>[] = [];
  const t0 = Date.now();
  for (let k = 0; k < jobs; k++) {
    const lo = Math.floor((iterations * k) / jobs);
    const hi = Math.floor((iterations * (k + 1)) / jobs);
    const log = join(out, `job${k}.jsonl`);
    logs.push(log);
    const start = resumeAt(log, seed, lo, hi);
    if (start >= hi) continue;
    const args = [BIN, 'fuzz', '--seed', String(seed), '--start', String(start), '--iterations', String(hi - start),
      '--log', log, '--repro', join(out, 'repro'), '--json', ...EXTRA];
    process.stderr.write(`job ${k}: cases ${start}–${hi - 1}${start > lo ? ` (resumed; ${start - lo} already logged)` : ''}\n`);
    const child = spawn(process.execPath, args, { stdio: ['ignore', openSync(join(out, `job${k}.json`), 'w'), openSync(join(out, `job${k}.err`), 'w')] });
    running.push(new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1))));
  }
  const tick = setInterval(() => {
    const s = summarise(logs.filter((l) => existsSync(l)));
    const min = (Date.now() - t0) / 60_000;
    process.stderr.write(`  ${s.cases}/${iterations} cases, ${s.disagreements} disagreements, ${s.bugs} bugs, ${s.unknown} unknown — ${min.toFixed(1)} min\n`);
  }, 30_000);
  const codes = await Promise.all(running);
  clearInterval(tick);
  const s = summarise(logs.filter((l) => existsSync(l)));
  process.stdout.write(`${s.text}\n`);
  // A job exits 0, or 1 when it found something (in the summary); anything else is a failure.
  codes.forEach((c, k) => { if (c !== 0 && c !== 1) process.stderr.write(`job ${k} exited ${c}: see ${join(out, `job${k}.err`)}\n`); });
  return s.disagreements > 0 || s.bugs > 0 ? 1 : s.cases < iterations ? 2 : 0;
}

process.exitCode = await main().catch((e: unknown) => {
  process.stderr.write(`fuzz:long: ${(e as Error).message}\n`);
  return 2;
});
