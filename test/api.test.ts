// The library API used from outside, as a user would: a project whose node_modules holds the
// package (here a link to this repository, as `npm install ../sched` makes), a plain ES module
// importing `sched` (resolved through package.json `exports` to the compiled dist/), and a
// TypeScript file type-checked against the published declarations.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tempDir } from './temp-dirs.ts';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SAFETY_NET_MS } from './safety-net.ts';

const ROOT = resolve('.');
let project = '';

beforeAll(() => {
  // What `npm ci` runs through `prepare`; run here so the test does not depend on install order.
  execFileSync(process.execPath, [join(ROOT, 'cli/build.js')], { cwd: ROOT, stdio: 'pipe' });
  project = tempDir('sched-user-');
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(ROOT, join(project, 'node_modules', 'sched'), 'dir');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user', type: 'module', private: true }));
});

const SOURCE = `
spec inc { param N; assume N >= 1; input A(i): i32; output C(i): i32 = A(i) + 1 where 0 <= i && i < N; }
impl good of inc { input a: i32[N] = A; output c: i32[N] = C; for i < N do c[i] {C(i)} := a[i] + 1 }
impl bad of inc { input a: i32[N] = A; output c: i32[N] = C; for i < N do c[i] {C(i)} := a[i] + 2 }
`;

describe('library API (import from "sched")', () => {
  it('checks, runs, explores and verifies from a plain ES module', () => {
    writeFileSync(join(project, 'use.mjs'), `
import { check, run, explore, verify, shutdown, SchedInputError, SliceError } from 'sched';
const prog = await check(${JSON.stringify(SOURCE)}, 'inc.sched');
const out = {};
for (const impl of prog.impls) {
  const r = await verify(impl);
  out[impl.impl.name] = { verdict: r.verdict, class: r.class, replay: r.replay && r.replay.params };
  out[impl.impl.name].run = run(impl, { N: 3 }).report.outcome;
  out[impl.impl.name].explore = explore(impl, { N: 2 }).outcome;
  // Iteration 1 of the loop of line 3 or 4 (iteration 0 first: a for loop), its annotations checked.
  const line = impl.impl.pos.line;
  const s = run(impl, { N: 3 }, { slice: line + ':i=1', checkAnnotations: true });
  out[impl.impl.name].slice = [s.report.outcome, s.report.writes, s.annotations ? s.annotations.line : null];
}
try { run(prog.impls[0], { N: 3 }, { slice: '3:j=1' }); } catch (e) { out.sliceError = e instanceof SliceError ? e.message : 'other'; }
try { await check('spec s {', 'broken.sched'); } catch (e) { out.error = e instanceof SchedInputError ? e.diagnostics[0].file + ':' + e.diagnostics[0].line : 'other'; }
await shutdown();
console.log(JSON.stringify(out));
`);
    const r = spawnSync(process.execPath, ['use.mjs'], { cwd: project, encoding: 'utf8', timeout: SAFETY_NET_MS });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as Record<string, { verdict: string; class: string | null; run: string; explore: string; replay: Record<string, string> | null; slice: unknown[] }> & { error: string; sliceError: string };
    expect(out['good']).toMatchObject({ verdict: 'valid', run: 'match', explore: 'deterministic', slice: ['sliced', 2, null] });
    expect(out['bad']).toMatchObject({ verdict: 'invalid', class: 'output-mismatch', run: 'mismatch', slice: ['sliced', 2, 4] });
    expect(out['sliceError']).toMatch(/the loops around line 3 of impl 'good' are, outermost first, for i/);
    expect(out['bad']!.replay).not.toBeNull();
    expect(out.error).toBe('broken.sched:1');
  });

  it('type-checks a TypeScript user of the published declarations', () => {
    writeFileSync(join(project, 'use.ts'), `
import { check, verify, type VerifyResult, type CheckedImpl } from 'sched';
export async function verdicts(text: string): Promise<string[]> {
  const prog = await check(text);
  const rs: VerifyResult[] = await Promise.all(prog.impls.map((i: CheckedImpl) => verify(i, { float: 'ieee' })));
  return rs.map((r) => r.verdict);
}
`);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, types: [], skipLibCheck: false }, files: ['use.ts'] }));
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
