// Performance machinery that must never change an answer: the bin's choice between the compiled
// dist/ and the sources (cli/freshness.js), the waves of the verifier (proofs/verifier/waves.ts), the
// solver pool (smt/z3.ts) and parallel verification (proofs/batch/parallel.ts).

import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tempDir } from './temp-dirs.ts';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inWaves } from '../proofs/verifier/waves.ts';
import { checkSat, setSolverJobs, shutdownZ3, z3Stats } from '../smt/z3.ts';
// @ts-expect-error plain JavaScript module without declarations
import { fileEntry, STAMP, staleness } from '../cli/freshness.js';
import { SAFETY_NET_MS } from './safety-net.ts';

describe('dist/ freshness (cli/freshness.js)', () => {
  const tree = (): string => {
    const root = tempDir('sched-fresh-');
    mkdirSync(join(root, 'dist/cli'), { recursive: true });
    mkdirSync(join(root, 'cli'));
    writeFileSync(join(root, 'cli/a.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'dist/cli/a.js'), 'export const a = 1;\n');
    writeFileSync(join(root, STAMP), JSON.stringify({ files: { 'cli/a.ts': fileEntry(root, 'cli/a.ts') }, outputs: ['dist/cli/a.js'] }));
    return root;
  };

  it('is fresh right after the build, and after a touch that keeps the content', () => {
    const root = tree();
    expect(staleness(root)).toBeNull();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'cli/a.ts'), later, later);
    expect(staleness(root)).toBeNull();
  });

  it('is stale when a source changes, even keeping its size and time', () => {
    const root = tree();
    const t = new Date(Date.now() + 60_000);
    writeFileSync(join(root, 'cli/a.ts'), 'export const a = 2;\n');
    utimesSync(join(root, 'cli/a.ts'), t, t);
    expect(staleness(root)).toMatch(/cli\/a\.ts changed/);
  });

  it('is stale without a stamp, with a source gone, or with an output gone', () => {
    expect(staleness(tempDir('sched-fresh-'))).toMatch(/no dist\/build-stamp\.json/);
    const root = tree();
    writeFileSync(join(root, STAMP), JSON.stringify({ files: { 'cli/b.ts': { size: 1, mtimeMs: 0, sha256: '' } } }));
    expect(staleness(root)).toMatch(/cli\/b\.ts is gone/);
    const r2 = tree();
    writeFileSync(join(r2, STAMP), JSON.stringify({ files: { 'cli/a.ts': fileEntry(r2, 'cli/a.ts') }, outputs: ['dist/cli/main.js'] }));
    expect(staleness(r2)).toMatch(/dist\/cli\/main\.js is missing/);
  });
});

describe('the bin runs dist/ when it is fresh', () => {
  it('as cli/freshness.js decides; the sources when asked', () => {
    // test/api.test.ts builds dist/ (npm ci does too); here no build, so as not to race with it.
    const why = staleness(process.cwd());
    const run = (env: Record<string, string>) => spawnSync(process.execPath, ['cli/sched.js', '--version'], { env: { ...process.env, SCHED_DEBUG: '1', ...env }, encoding: 'utf8' });
    const compiled = run({});
    expect(compiled.stdout).toBe('sched 0.1.0\n');
    expect(compiled.stderr).toContain(why === null ? 'running dist/ (compiled)' : `running the sources through tsx: ${why}`);
    const source = run({ SCHED_FROM_SOURCE: '1' });
    expect(source.stdout).toBe('sched 0.1.0\n');
    expect(source.stderr).toMatch(/running the sources through tsx: SCHED_FROM_SOURCE is set/);
  });
});

describe('waves (proofs/verifier/waves.ts): the order of the work does not depend on when answers come', () => {
  // Each task logs its synchronous steps and asks three questions; the "solver" answers after a
  // delay that differs per run. The log must be the same whatever the delays.
  const runOnce = async (delays: (k: number, q: number) => number): Promise<string[]> => {
    const log: string[] = [];
    await inWaves([0, 1, 2, 3], async (k, ask) => {
      for (let q = 0; q < 3 - (k % 2); q++) {
        log.push(`${k}:${q}`);
        const a = await ask(() => new Promise<number>((resolve) => setTimeout(() => resolve(k * 10 + q), delays(k, q))));
        expect(a).toBe(k * 10 + q);
      }
      log.push(`${k}:end`);
    });
    return log;
  };

  it('gives the same log for answers in order, in reverse, and at random', async () => {
    const inOrder = await runOnce((k, q) => k + q);
    const reverse = await runOnce((k, q) => 20 - k - q);
    let seed = 7;
    const random = await runOnce(() => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 15);
    expect(reverse).toEqual(inOrder);
    expect(random).toEqual(inOrder);
    // Waves: every task's first step before any task's second.
    expect(inOrder.slice(0, 4)).toEqual(['0:0', '1:0', '2:0', '3:0']);
  });

  it('asks the questions of a wave together', async () => {
    let running = 0;
    let most = 0;
    await inWaves([0, 1, 2], async (_k, ask) => {
      await ask(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 20));
        running--;
      });
    });
    expect(most).toBe(3);
  });

  it("puts a wave's batches together into one solver call, each task getting its own answers", async () => {
    setSolverJobs(2);
    const c0 = z3Stats().calls;
    const got: string[][] = [];
    await inWaves([0, 1, 2], async (k, ask) => {
      const scripts = [`(declare-const x Int)(assert (= x ${k}))(assert (> x 0))`, '(declare-const y Int)(assert (> y 0))'];
      got[k] = (await ask.batch(scripts, 5000)).map((a) => a.status);
    });
    expect(z3Stats().calls - c0).toBe(1);
    expect(got).toEqual([['unsat', 'sat'], ['sat', 'sat'], ['sat', 'sat']]);
    await shutdownZ3();
  });

  it('throws the first failing task (in order), as a loop would', async () => {
    await expect(inWaves([0, 1, 2], async (k, ask) => {
      await ask(() => new Promise((r) => setTimeout(r, 30 - 10 * k)));
      if (k > 0) throw new Error(`task ${k}`);
    })).rejects.toThrow('task 1');
  });
});

describe('solver pool and parallel verification: same answers, same bundles, same output', () => {
  const FILES = ['corpus/thesis/ch1-outer-product.sched', 'corpus/examples/matmul.sched'];
  const verify = (jobs: number, certs: string, extra: string[] = []) =>
    spawnSync(process.execPath, ['cli/sched.js', 'verify', ...FILES, '--certs', certs, '--jobs', String(jobs), ...extra], { encoding: 'utf8', timeout: SAFETY_NET_MS });
  /** Every file of a directory tree but the solver times, by relative path. */
  const tree = (root: string): Record<string, string> => {
    const out: Record<string, string> = {};
    const walk = (d: string): void => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name !== 'timings.json') out[relative(root, p)] = readFileSync(p, 'utf8');
      }
    };
    walk(root);
    return out;
  };
  const text = (out: string, certs: string): string => out.replaceAll(certs, 'CERTS').replace(/\d+ ms/g, 'T ms').replace(/· [\d.]+ s/, '· T s');

  it('verify --jobs 1 and --jobs 2 (worker threads): byte-identical bundles, the same output in the same order', () => {
    const a = tempDir('sched-j1-');
    const b = tempDir('sched-j2-');
    const one = verify(1, a);
    const two = verify(2, b);
    expect(two.status).toBe(one.status);
    expect(text(two.stdout, b)).toBe(text(one.stdout, a));
    const ta = tree(a);
    expect(Object.keys(ta).length).toBeGreaterThan(50);
    expect(tree(b)).toEqual(ta);
  });

  it('one implementation on 1 and 2 solver processes: byte-identical bundle', () => {
    const a = tempDir('sched-s1-');
    const b = tempDir('sched-s2-');
    const args = ['cli/sched.js', 'verify', 'corpus/halide/blur.sched', '--impl', 'blur_halide', '--certs'];
    const one = spawnSync(process.execPath, [...args, a, '--jobs', '1'], { encoding: 'utf8', timeout: SAFETY_NET_MS });
    const two = spawnSync(process.execPath, [...args, b, '--jobs', '2'], { encoding: 'utf8', timeout: SAFETY_NET_MS });
    expect(one.stdout).toMatch(/blur_halide: valid/);
    expect(text(two.stdout, b)).toBe(text(one.stdout, a));
    expect(tree(b)).toEqual(tree(a));
  });

  it('the pool answers concurrent queries each with its own answer', async () => {
    setSolverJobs(2);
    const scripts = Array.from({ length: 12 }, (_, k) => `(declare-const x Int)(assert (= (* 2 x) ${k}))`);
    const answers = await Promise.all(scripts.map((s) => checkSat(s)));
    expect(answers.map((a) => a.status)).toEqual(scripts.map((_, k) => (k % 2 === 0 ? 'sat' : 'unsat')));
    await shutdownZ3();
  });
});
