// `sched run`, `sched step`, `sched explore`: exit codes, JSON shapes of docs/commands.md,
// input errors. Most cases call the commands in this process (as cli/main.ts does, mapping input
// and usage errors to exit code 3); a few run the real binary end to end.

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tempDir } from './temp-dirs.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, SchedInputError } from '../core/language/diagnostics.ts';
import { parseArgs, UsageError } from '../cli/args.ts';
import { exploreCommand } from '../cli/commands/explore.ts';
import { runCommand } from '../cli/commands/run.ts';
import { stepCommand } from '../cli/commands/step.ts';

/** The real binary. */
function binary(args: string[]): { code: number; out: string; err: string } {
  try {
    const out = execFileSync(process.execPath, ['cli/sched.js', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { code: 0, out, err: '' };
  } catch (e) {
    const x = e as { status: number; stdout: string; stderr: string };
    return { code: x.status, out: x.stdout, err: x.stderr };
  }
}

/** A command run in this process, with its output captured. */
async function sched(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const [name, ...rest] = args;
  const cmd = [runCommand, stepCommand, exploreCommand].find((c) => c.name === name)!;
  let out = '';
  let err = '';
  const w1 = process.stdout.write.bind(process.stdout);
  const w2 = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((s: string) => ((out += s), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string) => ((err += s), true)) as typeof process.stderr.write;
  try {
    const code = await cmd.run(parseArgs(rest, cmd.options));
    return { code, out, err };
  } catch (e) {
    if (e instanceof SchedInputError) return { code: 3, out, err: err + e.diagnostics.map(formatDiagnostic).join('\n') };
    if (e instanceof UsageError) return { code: 3, out, err: err + e.message };
    throw e;
  } finally {
    process.stdout.write = w1;
    process.stderr.write = w2;
  }
}

describe('sched run / step / explore', () => {
  it('run: match, error with kind/rule/location/line, JSON shape, exit codes (the binary)', () => {
    const ok = binary(['run', 'corpus/examples/matmul.sched', '--param', 'N=3', '--param', 'M=2', '--param', 'P=4', '--json']);
    expect(ok.code).toBe(0);
    const j = JSON.parse(ok.out);
    expect(j).toMatchObject({ impl: 'matmul_naive', params: { N: 3, M: 2, P: 4 }, seed: 0, outcome: 'match', error: null, writes: 30 });
    expect(typeof j.reads).toBe('number');
    expect(typeof j.ms).toBe('number');
    const bad = binary(['run', 'corpus/runtime/race.sched', '--param', 'N=8', '--impl', 'scan_par', '--json']);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.out)).toMatchObject({ outcome: 'error', error: { kind: 'race', rule: 'U-PARLOOP', location: 'y[1]', line: 49 } });
  });
  it('run: several impls, limits', async () => {
    const several = await sched(['run', 'corpus/runtime/out_of_bounds.sched', '--param', 'N=4', '--json']);
    expect(several.code).toBe(1);
    expect(JSON.parse(several.out).results.map((r: { outcome: string }) => r.outcome)).toEqual(['match', 'error', 'error']);
    const lim = await sched(['run', 'corpus/examples/matmul.sched', '--param', 'N=3', '--param', 'M=2', '--param', 'P=4', '--max-steps', '5']);
    expect(lim.code).toBe(2);
  });
  it('run: input errors exit 3 with file:line:col', async () => {
    const noParam = binary(['run', 'corpus/examples/matmul.sched', '--param', 'N=3']);
    expect(noParam.code).toBe(3);
    expect(noParam.err).toMatch(/impl 'matmul_naive' needs --param M=… --param P=…/);
    // A misspelt parameter is named, with the closest one (not reported as a missing one).
    const typo = binary(['run', 'corpus/examples/matmul.sched', '--param', 'N=3', '--param', 'M=2', '--param', 'Q=4']);
    expect(typo.code).toBe(3);
    expect(typo.err).toMatch(/--param Q: no spec .* has a parameter 'Q'; did you mean 'P'\?/);
    const assume = await sched(['run', 'corpus/examples/matmul.sched', '--param', 'N=3', '--param', 'M=2', '--param', 'P=0']);
    expect(assume.code).toBe(3);
    expect(assume.err).toMatch(/matmul\.sched:\d+:\d+: error: the parameters .* violate this assumption/);
    expect((await sched(['run', 'corpus/examples/matmul.sched', '--param', 'N=x'])).code).toBe(3);
    expect((await sched(['run', 'corpus/examples/matmul.sched', '--impl', 'nope', '--param', 'N=1'])).code).toBe(3);
    expect((await sched(['run', 'no/such/file.sched'])).code).toBe(3);
  });
  it('run --derivation writes a derivation tree', async () => {
    const dir = tempDir('sched-');
    const f = join(dir, 'd.json');
    const r = await sched(['run', 'corpus/thesis/covered_race.sched', '--impl', 'covered', '--derivation', f]);
    expect(r.code).toBe(0);
    const d = JSON.parse(readFileSync(f, 'utf8'));
    expect(d.root.rule).toBe('U-PARLOOP');
    expect(d.root.premises).toHaveLength(2);
    expect(d.root.dmu).toEqual([['x[]', 7]]);
  });
  it('run --slice: one thread of a 1024³ product, its annotations checked; bad slices are usage errors', async () => {
    const file = 'corpus/halide/cmm1024.sched';
    const lineOf = (text: string): number => readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(text)) + 1;
    const line = lineOf('a_in[v, q] {A(64 * bx + 4 * tx + v, 8 * ro + (q + 1) % 8)}');
    const args = ['run', file, '--impl', 'cmm1024_staging_annotation', '--param', 'N=1024', '--check-annotations'];
    const bad = await sched([...args, '--slice', `${line}:by=0,bx=6,ty=0,tx=0`, '--json']);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.out)).toMatchObject({ outcome: 'error', slice: `${line}:by=0,bx=6,ty=0,tx=0`, error: { kind: 'annotation', line }, writes: 45120 });
    const good = await sched(['run', file, '--impl', 'cmm1024_halide', '--param', 'N=1024', '--check-annotations', '--slice', `${lineOf('a_in[v, q] {A(64 * bx + 4 * tx + v, 8 * ro + q)}')}:by=63,bx=15,ty=1,tx=15`]);
    expect(good.code).toBe(0);
    expect(good.out).toMatch(/\[slice \d+:by=63,bx=15,ty=1,tx=15\]: the slice ran without error \(outputs not compared\)/);
    // Sequential loops in the slice: iteration ro = 0 whole, then in ro = 1 the iterations q = 0, 1
    // whole and q = 2; the wrong annotation shows in the first of them.
    const seq = await sched([...args, '--slice', `${line}:by=0,bx=6,ty=0,tx=0,ro=1,q=2`, '--json']);
    expect(seq.code).toBe(1);
    expect(JSON.parse(seq.out)).toMatchObject({ outcome: 'error', error: { kind: 'annotation', line } });
    expect((await sched([...args, '--slice', `${line}:bx=6`])).err).toMatch(/outermost first, par by, par bx, par ty, par tx, for ro, for q, par v/);
    expect((await sched([...args, '--slice', 'by=0'])).err).toMatch(/--slice needs LINE:x=v/);
    expect((await sched([...args, '--slice', `${line}:by=0`, '--derivation', '/dev/null'])).err).toMatch(/--slice has no derivation/);
  });
  it('step prints a trace with rule names; explore gives the documented shape', async () => {
    const st = await sched(['step', 'corpus/thesis/race_yxz.sched', '--seed', '2']);
    expect([0, 1]).toContain(st.code);
    expect(st.out).toMatch(/PARLOOP par i < 2 do/);
    expect(st.out).toMatch(/PAR-L ▸ SEQ-CTX/);
    const ex = await sched(['explore', 'corpus/thesis/race_yxz.sched', '--json']);
    expect(ex.code).toBe(1);
    const j = JSON.parse(ex.out);
    expect(j).toMatchObject({ impl: 'yxz_par', params: {}, outcome: 'nondeterministic', finals: 2 });
    expect(typeof j.states).toBe('number');
    expect(typeof j.ms).toBe('number');
    expect(j.witnesses).toHaveLength(2);
    const det = await sched(['explore', 'corpus/thesis/covered_race.sched', '--impl', 'benign', '--json']);
    expect(det.code).toBe(0);
    expect(JSON.parse(det.out)).toMatchObject({ outcome: 'deterministic', finals: 1, bigStep: { outcome: 'ok', agrees: true } });
    const lim = await sched(['explore', 'corpus/examples/matmul.sched', '--param', 'N=3', '--param', 'M=2', '--param', 'P=2', '--max-states', '10', '--no-por']);
    expect(lim.code).toBe(2);
  });
  it('a file that does not type-check is an input error for every command', async () => {
    const dir = tempDir('sched-');
    const f = join(dir, 'bad.sched');
    writeFileSync(f, 'spec s { output X(): i32 = 1; }\nimpl p of s { output x: i32[] = X; x[] := 1.5 }\n');
    for (const c of ['run', 'step', 'explore']) {
      const r = await sched([c, f]);
      expect(r.code).toBe(3);
      expect(r.err).toMatch(/bad\.sched:2:\d+: error/);
    }
  });
});
