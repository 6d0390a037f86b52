// Fuzz campaigns split into shards (`sched fuzz --shard K/N`, proofs/fuzz/harness.ts) whose logs
// merge (`sched fuzz --merge`, proofs/fuzz/logstats.ts) into the summary of the same run unsplit:
// shards run one after another here, and side by side under GNU parallel when it is installed.

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { tempDir } from './temp-dirs.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAFETY_NET_MS } from './safety-net.ts';

// An injected bug, so that the cases differ (ok, bugs found by the concrete oracles); no verifier
// and no shrinking, to keep the test short: what is tested is the split and the merge.
const RUN = ['fuzz', '--profile', 'smoke', '--seed', '5', '--iterations', '8', '--inject', 'off-by-one-tail', '--no-verify', '--no-shrink'];

function sched(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, ['cli/sched.js', ...args], { encoding: 'utf8', timeout: SAFETY_NET_MS });
}

/** The merged summary without its times (the only part that depends on the split). */
function merged(logs: readonly string[]): Record<string, unknown> {
  const r = sched(['fuzz', '--merge', ...logs, '--json']);
  expect(r.stderr).toBe('');
  const m = JSON.parse(r.stdout) as Record<string, unknown>;
  delete m.ms;
  delete m.msPerCase;
  return m;
}

const hasParallel = spawnSync('parallel', ['--version'], { encoding: 'utf8' }).status === 0;

describe('fuzz shards', () => {
  const dir = tempDir('fuzz-shard-');
  let whole: Record<string, unknown> = {};

  it('an unsplit run: its log merges into its own summary', () => {
    const r = sched([...RUN, '--log', join(dir, 'all.jsonl'), '--repro', join(dir, 'repro-all'), '--json']);
    expect([0, 1]).toContain(r.status);
    const summary = JSON.parse(r.stdout) as Record<string, unknown> & { firstDetection: { case: number; oracles: string[] } | null };
    whole = merged([join(dir, 'all.jsonl')]);
    for (const k of ['iterations', 'ok', 'bugsFound', 'disagreements', 'unknowns', 'rejected', 'redraws', 'verdicts', 'firstDisagreement', 'seed', 'profile', 'compiler', 'inject']) expect(whole[k], k).toEqual(summary[k]);
    expect(whole.firstDetection).toEqual(summary.firstDetection && { case: summary.firstDetection.case, oracles: summary.firstDetection.oracles });
    expect(whole.indices).toBe('0–7');
    // The run must have something to merge: found bugs and passed cases both.
    expect(summary.bugsFound).toBeGreaterThan(0);
  });

  it('3 shards, one after another, merge to the same summary', () => {
    const logs = [1, 2, 3].map((k) => join(dir, `seq${k}.jsonl`));
    for (const [i, log] of logs.entries()) {
      const r = sched([...RUN, '--shard', `${i + 1}/3`, '--log', log, '--repro', join(dir, 'repro-seq')]);
      expect([0, 1]).toContain(r.status);
    }
    expect(merged(logs)).toEqual(whole);
    // Each shard its own cases: a shard alone is not the run.
    expect(merged([logs[0]!]).iterations).toBe(3);
    expect(merged([logs[0]!]).indices).toBe('0, 3, 6');
  });

  it.skipIf(!hasParallel)('4 shards under GNU parallel merge to the same summary', () => {
    const out = join(dir, 'par');
    const r = spawnSync('parallel', ['--halt', 'never', '-j', '4', process.execPath, 'cli/sched.js', ...RUN, '--shard', '{}/4', '--log', `${out}{}.jsonl`, '--repro', join(dir, 'repro-par'), ':::', '1', '2', '3', '4'], { encoding: 'utf8', timeout: SAFETY_NET_MS });
    // parallel exits with the number of failed jobs; `sched fuzz` exits 1 when it finds a bug.
    expect(r.error).toBeUndefined();
    const logs = readdirSync(dir).filter((f) => /^par\d\.jsonl$/.test(f)).map((f) => join(dir, f));
    expect(logs).toHaveLength(4);
    expect(merged(logs)).toEqual(whole);
  });
  if (!hasParallel) it('(GNU parallel is not installed: apt-get install parallel to run the parallel variant)', () => undefined);

  it('refuses logs of different runs, and a bad --shard', () => {
    const other = join(dir, 'other.jsonl');
    sched(['fuzz', '--profile', 'smoke', '--seed', '6', '--iterations', '1', '--no-verify', '--log', other]);
    const r = sched(['fuzz', '--merge', join(dir, 'all.jsonl'), other]);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/another run/);
    expect(sched(['fuzz', '--shard', '5/4']).stderr).toMatch(/--shard needs K\/N/);
    // The same cases under wall-clock solver limits are another run (smt/limits.ts).
    const timed = join(dir, 'timed.jsonl');
    sched(['fuzz', '--profile', 'smoke', '--seed', '5', '--iterations', '1', '--inject', 'off-by-one-tail', '--no-verify', '--no-shrink', '--limits', 'time', '--log', timed, '--repro', join(dir, 'repro-timed')]);
    const t = sched(['fuzz', '--merge', join(dir, 'all.jsonl'), timed]);
    expect(t.status).toBe(3);
    expect(t.stderr).toMatch(/another run .*"limits":"time"/);
    expect(sched(['fuzz', '--limits', 'wall']).stderr).toMatch(/--limits must be rlimit or time/);
  });
});
