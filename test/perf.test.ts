// Performance machinery that must never change an answer: the bin's choice between the compiled
// dist/ and the sources (cli/freshness.js).

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript module without declarations
import { fileEntry, STAMP, staleness } from '../cli/freshness.js';

describe('dist/ freshness (cli/freshness.js)', () => {
  const tree = (): string => {
    const root = mkdtempSync(join(tmpdir(), 'sched-fresh-'));
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
    expect(staleness(mkdtempSync(join(tmpdir(), 'sched-fresh-')))).toMatch(/no dist\/build-stamp\.json/);
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
  }, 120_000);
});
