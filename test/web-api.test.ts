// The playground's engine façade and server without a browser (issue 18): what each view is drawn
// from is what the engines compute; bad input comes back as located diagnostics; the certificate
// bundle downloads as a .tar.gz whose files match its manifest; the static folder builds.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mutantArb, mutate } from '../proofs/metatheory/gen/mutate.ts';
import * as api from '../web/api.ts';
import type { ExploreAnswer, Refused, RunAnswer, StepAnswer, VerifyAnswer } from '../web/protocol.ts';
import { DIST_DIR, ensureBuilt } from '../web/build.ts';
import { startServer } from '../web/server.ts';
import { shutdownZ3 } from '../smt/z3.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (p: string): string => readFileSync(join(ROOT, 'corpus', p), 'utf8');
const MATMUL = read('thesis/ch1-matmul-accumulator.sched');
const RACE = read('thesis/race_yxz.sched');

function ok<T extends object>(r: T | Refused): T {
  if ('refused' in r) throw new Error(`refused: ${JSON.stringify(r.diagnostics)}`);
  return r;
}

afterAll(async () => {
  await shutdownZ3();
});

describe('web/api: input errors are diagnostics', () => {
  it('a syntax error is located, and every engine refuses with it', async () => {
    const bad = MATMUL.replace('impl corrected of', 'impl corrected off');
    const c = await api.check(bad, 'm.sched');
    expect(c.impls).toEqual([]);
    expect(c.diagnostics[0]).toMatchObject({ line: 75, col: 16, phase: 'syntax' });
    const r = await api.run({ source: bad, file: 'm.sched', impl: 'corrected', params: { N: '5', M: '2', P: '3' } });
    expect('refused' in r && r.diagnostics[0]!.line).toBe(75);
  });

  it('bad parameters and violated assumptions are refused, not thrown', async () => {
    const r1 = await api.step({ source: MATMUL, file: 'm.sched', impl: 'corrected', params: { N: 'x', M: '2', P: '3' }, choices: [] });
    expect('refused' in r1 && r1.diagnostics[0]!.message).toMatch(/parameter N needs an integer/);
    const r2 = await api.run({ source: MATMUL, file: 'm.sched', impl: 'corrected', params: { N: '2', M: '2', P: '3' } });
    expect('refused' in r2 && r2.diagnostics[0]!.message).toMatch(/violate this assumption/);
    const r3 = await api.exploreStates({ source: MATMUL, file: 'm.sched', impl: 'nope', params: {}, por: true });
    expect('refused' in r3 && r3.diagnostics[0]!.message).toMatch(/no impl named 'nope'/);
  });

  it('the corpus lines give the parameters to start from', async () => {
    const c = await api.check(MATMUL, 'm.sched');
    const corrected = c.impls.find((i) => i.name === 'corrected')!;
    expect(corrected.defaults).toEqual({ N: '5', M: '2', P: '3' });
    expect(corrected.expect).toBe('valid');
    expect(c.impls.find((i) => i.name === 'parallel_tiles_shared_r')!.expect).toBe('invalid race');
  });
});

describe('web/api: the views are what the engines compute', () => {
  it('run: memories before and after, the derivation with rule names, the race with both accesses', async () => {
    const good = ok(await api.run({ source: MATMUL, file: 'm.sched', impl: 'corrected', params: { N: '5', M: '2', P: '3' } })) as RunAnswer;
    expect(good.outcome).toBe('match');
    const c0 = good.before.find((t) => t.name === 'c')!;
    const c1 = good.after.find((t) => t.name === 'c')!;
    expect(c0.cells.every((v) => v === null)).toBe(true);
    expect(c1.cells.every((v) => typeof v === 'number')).toBe(true);
    const rules = new Set<string>();
    const walk = (n: NonNullable<RunAnswer['derivation']>): void => {
      rules.add(n.rule);
      n.premises.forEach(walk);
    };
    walk(good.derivation!);
    expect([...rules]).toEqual(expect.arrayContaining(['U-ALLOCATE', 'U-FOR', 'U-LET', 'U-SEQ', 'U-ASSIGN']));
    const race = ok(await api.run({ source: RACE, file: 'r.sched', impl: 'yxz_par', params: {} })) as RunAnswer;
    expect(race.outcome).toBe('error');
    expect(race.error).toMatchObject({ kind: 'race', rule: 'U-PARLOOP', line: 35 });
    expect(race.error!.other!.line).toBe(32);
    expect(race.derivation).toBeNull();
  });

  it('step: ten chosen steps, each with its rule; going back is a prefix', async () => {
    const q = { source: MATMUL, file: 'm.sched', impl: 'parallel_tiles_shared_r', params: { N: '8', M: '1', P: '1' } };
    const ten = ok(await api.step({ ...q, choices: Array(10).fill(0) })) as StepAnswer;
    expect(ten.taken).toHaveLength(10);
    expect(ten.taken[0]!.rule).toBe('ALLOCATE');
    expect(ten.enabled.length).toBeGreaterThan(1); // two threads of the par loop
    expect(new Set(ten.enabled.map((s) => s.thread)).size).toBe(ten.enabled.length);
    const nine = ok(await api.step({ ...q, choices: Array(9).fill(0) })) as StepAnswer;
    expect(nine.taken).toEqual(ten.taken.slice(0, 9));
    const other = ok(await api.step({ ...q, choices: [...Array(9).fill(0), ten.enabled.length - 1] })) as StepAnswer;
    expect(other.taken[9]).toEqual(ten.enabled[ten.enabled.length - 1]);
    expect(other.taken[9]!.thread).not.toBe(ten.enabled[0]!.thread);
  });

  it('explore: the state graph with and without reduction, two final memories with their schedules', async () => {
    const q = { source: RACE, file: 'r.sched', impl: 'yxz_par', params: {} };
    const por = ok(await api.exploreStates({ ...q, por: true })) as ExploreAnswer;
    const all = ok(await api.exploreStates({ ...q, por: false })) as ExploreAnswer;
    for (const e of [por, all]) {
      expect(e.outcome).toBe('nondeterministic');
      expect(e.graph.nodes).toHaveLength(e.states);
      expect(e.graph.edges).toHaveLength(e.transitions);
      expect(e.graph.nodes.filter((n) => n.kind === 'final').map((n) => n.final).sort()).toEqual([0, 1]);
      expect(e.witnesses).toHaveLength(2);
    }
    expect(all.states).toBeGreaterThan(por.states);
    const z = por.witnesses.map((w) => w.memory.find((m) => m.name === 'z')!.cells[0]);
    expect(z[0]).not.toEqual(z[1]);
    expect(por.bigStep).toMatch(/no derivation/);
  });
});

describe('web/api: broken text never breaks an engine', () => {
  it('mutants of corpus files: every engine answers or refuses with located diagnostics', async () => {
    const sources = [RACE, read('thesis/which_thread_wrote_x.sched'), read('runtime/race.sched'), read('examples/matmul.sched')];
    const lines = sources.flatMap((t) => t.split('\n'));
    const located = (r: object): void => {
      if ('refused' in r) for (const d of (r as Refused).diagnostics) expect(d.line).toBeGreaterThanOrEqual(1);
    };
    await fc.assert(
      fc.asyncProperty(mutantArb(sources.length), async ({ src, muts }) => {
        const text = mutate(sources[src]!, muts, lines);
        const c = await api.check(text, 'mutant.sched');
        for (const d of c.diagnostics) expect(d.line).toBeGreaterThanOrEqual(1);
        const impl = c.impls[0];
        if (impl === undefined) return;
        const q = { source: text, file: 'mutant.sched', impl: impl.name, params: impl.defaults };
        located(await api.run(q));
        located(await api.step({ ...q, choices: [0, 0, 0, 0, 0] }));
        located(await api.exploreStates({ ...q, por: true, maxStates: 2000 }));
      }),
      { numRuns: 40, seed: 18 },
    );
  });
});

describe('web/server', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    await ensureBuilt();
    server = await startServer({ port: 0, host: '127.0.0.1', dist: DIST_DIR, corpus: join(ROOT, 'corpus') });
  });
  afterAll(async () => {
    await server.close();
  });
  const post = (name: string, body: string): Promise<Response> => fetch(`${server.url}api/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('serves the page and the corpus, and nothing outside them', async () => {
    expect((await fetch(server.url)).headers.get('content-type')).toMatch(/text\/html/);
    const list = (await (await fetch(`${server.url}api/examples`)).json()) as { path: string }[];
    expect(list.map((e) => e.path)).toEqual(expect.arrayContaining(['thesis/ch1-matmul-accumulator.sched', 'thesis/race_yxz.sched']));
    expect(await (await fetch(`${server.url}api/example/thesis/race_yxz.sched`)).text()).toBe(RACE);
    expect((await fetch(`${server.url}api/example/..%2F..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${server.url}..%2Fpackage.json`)).status).toBe(404);
    expect((await post('nope', '{}')).status).toBe(404);
    expect((await post('run', '{not json')).status).toBe(400);
  });

  it('verify: an invalid verdict with its counterexample and replay; the bundle matches its manifest', async () => {
    const buggy = MATMUL.replace('min(i0 * 4, N - 4) + i1 in {\n            r[] {0.0} := 0.0;', 'min(i0 * 4, N - 3) + i1 in {\n            r[] {0.0} := 0.0;');
    const v = (await (await post('verify', JSON.stringify({ source: buggy, file: 'tiles.sched', impl: 'corrected' }))).json()) as VerifyAnswer;
    expect(v.verdict).toBe('invalid');
    expect(v.class).toBe('out-of-bounds');
    expect(v.counterexample).toMatchObject({ line: 86 });
    expect(v.replay!.params).toMatchObject({ N: expect.any(String) });
    expect(v.obligations.some((o) => o.status === 'refuted')).toBe(true);
    expect(v.log.some((l) => /S-Assign/.test(l.text))).toBe(true);
    expect(v.cost.wallMs).toBeGreaterThan(0);
    const replay = (await (await post('run', JSON.stringify({ source: buggy, file: 'tiles.sched', impl: 'corrected', params: v.replay!.params, seed: String(v.replay!.seed), family: v.replay!.inputs }))).json()) as RunAnswer;
    expect(replay.error!.kind).toBe('out-of-bounds');

    const tgz = Buffer.from(await (await fetch(`${server.url}${v.bundle}`)).arrayBuffer());
    const tar = gunzipSync(tgz);
    const files = new Map<string, Buffer>();
    for (let at = 0; at + 512 <= tar.length; ) {
      const name = tar.subarray(at, at + 100).toString('utf8').replace(/\0.*$/s, '');
      if (!name) break;
      const size = parseInt(tar.subarray(at + 124, at + 136).toString('utf8'), 8);
      files.set(name, tar.subarray(at + 512, at + 512 + size));
      at += 512 + Math.ceil(size / 512) * 512;
    }
    const dir = 'tiles.corrected';
    const manifest = JSON.parse(files.get(`${dir}/manifest.json`)!.toString('utf8')) as { input: { file: string; sha256: string }; verdict: string; entries: { file: string; sha256: string }[] };
    expect(manifest.verdict).toBe('invalid');
    expect(manifest.input).toEqual({ file: 'tiles.sched', sha256: createHash('sha256').update(buggy).digest('hex') });
    for (const e of manifest.entries) expect(createHash('sha256').update(files.get(`${dir}/${e.file}`)!).digest('hex')).toBe(e.sha256);
  });
});

describe('the page', () => {
  it('type-checks (esbuild bundles it without checking)', () => {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', join(ROOT, 'web/page')], { encoding: 'utf8' });
  });
});

describe('sched serve --out', () => {
  it('writes the page and its examples to a static folder', () => {
    const out = mkdtempSync(join(tmpdir(), 'sched-static-'));
    try {
      execFileSync(process.execPath, [join(ROOT, 'cli/sched.js'), 'serve', '--out', out], { encoding: 'utf8' });
      for (const f of ['index.html', 'app.js', 'app.css', 'examples.json', 'examples/thesis/race_yxz.sched']) expect(existsSync(join(out, f)), f).toBe(true);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
