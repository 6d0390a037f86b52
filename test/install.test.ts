// Installing sched without `npm ci` first: the build is made with the runtime dependencies only
// when TypeScript (a development dependency) is absent (`npm install --omit=dev`), and a packed
// tarball (`npm pack`) holds everything the compiled command and library read, so that the bin
// runs the build it ships (cli/freshness.js: every source the build stamp lists is there).

import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './temp-dirs.ts';

const ROOT = join(import.meta.dirname, '..');

describe('installing sched', () => {
  // A build of its own (test/api.test.ts rebuilds the project's dist/ meanwhile).
  const out = tempDir('sched-build-');
  let log = '';
  beforeAll(() => {
    // Its packages are the project's (as an install's node_modules would hold them).
    symlinkSync(join(ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');
    log = execFileSync(process.execPath, ['cli/build.js', '--esbuild', '--out', out], { cwd: ROOT, encoding: 'utf8' });
  }, 120_000);

  it('builds with the runtime dependencies only (esbuild), and the build runs the command and the library', () => {
    expect(log).toMatch(/compiled by esbuild/);
    const check = spawnSync(process.execPath, [join(out, 'dist/cli/main.js'), 'check', 'corpus/examples/matmul.sched'], { cwd: ROOT, encoding: 'utf8' });
    expect(check.stdout).toContain('corpus/examples/matmul.sched: ok (1 spec, 1 impl)');
    expect(check.status).toBe(0);
    const api = spawnSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(join(out, 'dist/api/index.js'))}); const p = await m.check('spec s { param N; input A(i): i32; output B(i): i32 = A(i) where 0 <= i && i < N; }\\nimpl c of s { input a: i32[N] = A; output b: i32[N] = B; for i < N do b[i] {B(i)} := a[i] }', 'c.sched'); console.log(m.run(p.impls[0], { N: 3 }).report.outcome); await m.shutdown();`], { cwd: ROOT, encoding: 'utf8' });
    expect(api.stdout.trim()).toBe('match');
  }, 120_000);

  it('a packed tarball holds every file the build stamp lists and every compiled output', () => {
    const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
    expect(pack.status).toBe(0);
    const files = new Set((JSON.parse(pack.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path));
    const stamp = JSON.parse(readFileSync(join(out, 'dist/build-stamp.json'), 'utf8')) as { files: Record<string, unknown>; outputs: string[] };
    const missing = [...Object.keys(stamp.files), ...stamp.outputs, 'dist/api/index.d.ts', 'cli/sched.js', 'cli/thread.js', 'cli/freshness.js', 'corpus/quick.txt', 'web/page/index.html', 'README.md'].filter((f) => !files.has(f));
    expect(missing).toEqual([]);
    // Nothing of the development checkout: no tests, no generated page bundle.
    expect([...files].filter((f) => /^(test|bench|web\/dist|node_modules)\//.test(f))).toEqual([]);
  }, 120_000);
});
