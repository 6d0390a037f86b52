// What a case of `sched fuzz --compiler mlir|halide` costs, and whether a change kept its verdicts:
// the same seed's cases run by two revisions of the toolkit, one after the other, side by side
// (case, outcome, verdict, seconds), with the median and mean seconds per case and whether the
// verdict lists are identical. The logs' `phases` say where each case's time went.
//
//   npx tsx bench/fuzz-speed.ts --compiler mlir --seed 7 --cases 8 --before main   # main vs this checkout
//   npx tsx bench/fuzz-speed.ts --compare before.jsonl after.jsonl                # two --log files
//
// A revision runs from a detached worktree of this repository (its node_modules linked to ours).
// Wall-clock times depend on the machine's load: run it idle, and read the verdicts, not the times,
// of a loaded run.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from '../proofs/fuzz/stats.ts';

interface Line {
  readonly index: number;
  readonly outcome: string;
  readonly verdict: string | null;
  readonly runner?: string;
  readonly ms: number;
  readonly phases?: Readonly<Record<string, number>>;
}

const argv = process.argv.slice(2);
const opt = (name: string): string | undefined => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);

function read(file: string): Line[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Line);
}

/** One revision's run of the cases (REPO: a checkout), its log's lines. */
function run(repo: string, compiler: string, seed: string, cases: string): Line[] {
  const dir = mkdtempSync(join(tmpdir(), 'sched-fuzzspeed-'));
  const log = join(dir, 'cases.jsonl');
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(repo, 'cli', 'sched.js'), 'fuzz', '--compiler', compiler, '--seed', seed, '--iterations', cases, '--log', log, '--repro', join(dir, 'repro')], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  process.stderr.write(`${repo}: exit ${r.status}, ${((performance.now() - t0) / 1000).toFixed(1)} s, load ${loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
  const lines = existsSync(log) ? read(log) : [];
  rmSync(dir, { recursive: true, force: true });
  return lines;
}

/** A detached worktree of REV (removed by the caller). */
function worktree(rev: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'sched-rev-'));
  const add = spawnSync('git', ['worktree', 'add', '--detach', dir, rev], { encoding: 'utf8' });
  if (add.status !== 0) throw new Error(`git worktree add ${rev}: ${add.stderr}`);
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  return dir;
}

const verdictOf = (l: Line): string => `${l.outcome} ${l.verdict ?? l.runner ?? ''}`.trim();
const seconds = (ls: readonly Line[]): number[] => ls.map((l) => l.ms / 1000);
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

function table(before: readonly Line[], after: readonly Line[]): string {
  const out = ['| case | before | s | after | s | same verdict |', '|---|---|---|---|---|---|'];
  const idx = [...new Set([...before, ...after].map((l) => l.index))].sort((a, b) => a - b);
  let same = 0;
  let both = 0;
  for (const i of idx) {
    const b = before.find((l) => l.index === i);
    const a = after.find((l) => l.index === i);
    const eq = b && a ? verdictOf(b) === verdictOf(a) : null;
    if (eq !== null) both++;
    if (eq) same++;
    out.push(`| ${i} | ${b ? verdictOf(b) : '—'} | ${b ? (b.ms / 1000).toFixed(1) : '—'} | ${a ? verdictOf(a) : '—'} | ${a ? (a.ms / 1000).toFixed(1) : '—'} | ${eq === null ? '—' : eq ? 'yes' : 'NO'} |`);
  }
  const stat = (ls: readonly Line[]): string => `${ls.length} cases, median ${median(seconds(ls)).toFixed(1)} s/case, mean ${mean(seconds(ls)).toFixed(1)} s/case`;
  out.push('', `before: ${stat(before)}`, `after:  ${stat(after)}`, `verdicts identical on ${same} of ${both} cases run by both`);
  return out.join('\n');
}

function main(): number {
  const compare = argv.indexOf('--compare');
  if (compare >= 0) {
    process.stdout.write(`${table(read(argv[compare + 1]!), read(argv[compare + 2]!))}\n`);
    return 0;
  }
  const compiler = opt('compiler') ?? 'mlir';
  const seed = opt('seed') ?? '7';
  const cases = opt('cases') ?? '8';
  const rev = opt('before') ?? 'main';
  const dir = worktree(rev);
  try {
    const before = run(dir, compiler, seed, cases);
    const after = run(resolve('.'), compiler, seed, cases);
    process.stdout.write(`sched fuzz --compiler ${compiler} --seed ${seed}, ${cases} cases: ${rev} (before) and this checkout (after)\n\n${table(before, after)}\n`);
  } finally {
    spawnSync('git', ['worktree', 'remove', '--force', dir]);
  }
  return 0;
}

process.exitCode = main();
