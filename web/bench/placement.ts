// Where should Z3 run for the playground: in the browser (z3-solver's WASM build on the page) or
// in the serving process? Measured on the scenario (verify the tiled matrix product,
// then the same with a wrong tile shift) in Debian's Chromium:
//
//   browser: the engines (web/api.ts) and Z3 bundled for the page, smt/z3.ts unchanged but its
//            solver child replaced by z3-solver on the page (web/page-engines/z3-child.ts); the server
//            only sends files, with the cross-origin isolation headers SharedArrayBuffer needs;
//   server:  the playground as shipped (sched serve), started cold for the measurement.
//
// Prints page weight, time to Z3 ready, time to the first verdict since navigation, and the time
// of each verification. Usage: npx tsx web/bench/placement.ts

import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserEngines, copyZ3, DIST_DIR, ensureBuilt, ISOLATION_HEADERS } from '../build.ts';
import { startServer } from '../server.ts';
import { shutdownZ3 } from '../../smt/z3.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const EXAMPLE = 'thesis/ch1-matmul-accumulator.sched';

async function buildProbe(dir: string): Promise<void> {
  const { build } = await import('esbuild');
  await build({
    entryPoints: { probe: join(ROOT, 'web/bench/probe.ts') },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    outdir: dir,
    logLevel: 'warning',
    ...browserEngines(),
  });
  copyZ3(dir);
  copyFileSync(join(ROOT, 'corpus', EXAMPLE), join(dir, 'ch1-matmul-accumulator.sched'));
  const html = '<!doctype html><meta charset="utf-8"><title>probe</title><script src="z3-built.js"></script><script type="module" src="probe.js"></script><body>running</body>';
  (await import('node:fs')).writeFileSync(join(dir, 'index.html'), html);
}

type Browser = Awaited<ReturnType<(typeof import('playwright-core'))['chromium']['launch']>>;
type Page = Awaited<ReturnType<Browser['newPage']>>;

/** A network link to emulate (Chromium's DevTools protocol), or null for the loopback. */
interface Link {
  readonly name: string;
  readonly bitsPerSecond: number;
  readonly latencyMs: number;
}

/** A fresh context (an empty cache: a first visit), on `link`. */
async function freshPage(browser: Browser, link: Link | null): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  page.on('pageerror', (e) => process.stderr.write(`page error: ${e.message}\n`));
  if (link) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: link.latencyMs, downloadThroughput: link.bitsPerSecond / 8, uploadThroughput: link.bitsPerSecond / 8 });
  }
  return page;
}

async function inTheBrowser(browser: Browser, link: Link | null): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'sched-probe-'));
  await buildProbe(dir);
  const files = await startServer({ port: 0, host: '127.0.0.1', dist: dir, corpus: join(ROOT, 'corpus'), headers: ISOLATION_HEADERS });
  const page = await freshPage(browser, link);
  try {
    await page.goto(files.url, { timeout: 300_000 });
    await page.waitForFunction(() => (globalThis as unknown as { probe?: unknown }).probe !== undefined, null, { timeout: 300_000 });
    const p = (await page.evaluate(() => (globalThis as unknown as { probe: unknown }).probe)) as { z3ReadyMs: number; checkMs: number; valid: { verdict: string; ms: number }; invalid: { verdict: string; ms: number }; firstVerdictSinceNavigationMs: number; resources: { name: string; bytes: number }[] };
    const weight = statSync(join(dir, 'index.html')).size + p.resources.reduce((s, r) => s + r.bytes, 0);
    return `| Z3 in the browser | ${link?.name ?? 'loopback'} | ${(weight / 2 ** 20).toFixed(1)} MiB | ${Math.round(p.z3ReadyMs)} ms | ${Math.round(p.checkMs)} ms | ${p.valid.verdict} ${Math.round(p.valid.ms)} ms | ${p.invalid.verdict} ${Math.round(p.invalid.ms)} ms | ${Math.round(p.firstVerdictSinceNavigationMs)} ms |`;
  } finally {
    await page.context().close();
    await files.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function inTheServer(browser: Browser, link: Link | null): Promise<string> {
  // A fresh server, given the second it takes to start its solver.
  await shutdownZ3();
  await ensureBuilt();
  const served = await startServer({ port: 0, host: '127.0.0.1', dist: DIST_DIR, corpus: join(ROOT, 'corpus') });
  await new Promise((ok) => setTimeout(ok, 3000));
  const page = await freshPage(browser, link);
  try {
    const t0 = Date.now();
    await page.goto(`${served.url}?example=${EXAMPLE}`);
    await page.locator('#impl option[value=corrected]').waitFor({ state: 'attached', timeout: 60_000 });
    const tc = Date.now();
    const times: number[] = [];
    const verdicts: string[] = [];
    let first = 0;
    for (const shift of ['N - 4', 'N - 3']) {
      if (shift === 'N - 3') {
        await page.evaluate(() => {
          const ed = (globalThis as unknown as { schedPlayground: { editor: { text(): string; setText(t: string): void } } }).schedPlayground.editor;
          ed.setText(ed.text().replace('min(i0 * 4, N - 4) + i1 in {\n            r[] {0.0} := 0.0;', 'min(i0 * 4, N - 3) + i1 in {\n            r[] {0.0} := 0.0;'));
        });
      }
      const tv = Date.now();
      await page.click('#do-verify');
      await page.locator('#panel-verify .answer[data-verdict]').waitFor({ timeout: 60_000 });
      times.push(Date.now() - tv);
      verdicts.push((await page.getAttribute('#panel-verify .answer', 'data-verdict'))!);
      if (first === 0) first = Date.now() - t0;
    }
    const weight = (await page.evaluate(() => performance.getEntriesByType('resource').map((r) => (r as unknown as { encodedBodySize: number }).encodedBodySize).reduce((a, b) => a + b, 0))) + readFileSync(join(DIST_DIR, 'index.html')).length;
    return `| Z3 in the serving process | ${link?.name ?? 'loopback'} | ${(weight / 2 ** 20).toFixed(2)} MiB | (at server start) | ${tc - t0} ms (page, example, check) | ${verdicts[0]} ${times[0]} ms | ${verdicts[1]} ${times[1]} ms | ${first} ms |`;
  } finally {
    await page.context().close();
    await served.close();
  }
}

async function main(): Promise<void> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  const load0 = loadavg()[0]!;
  const rows: string[] = [];
  const links: (Link | null)[] = [null, { name: '50 Mbit/s, 20 ms', bitsPerSecond: 50e6, latencyMs: 20 }];
  for (const link of links) {
    rows.push(await inTheBrowser(browser, link));
    rows.push(await inTheServer(browser, link));
  }
  await browser.close();
  await shutdownZ3();
  process.stdout.write(`Z3 placement (load average ${load0.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end, on 2 cores; first visits, empty cache)\n\n| placement | link | page weight | Z3 ready | check | verify tiled matmul | verify wrong tile shift | first verdict since navigation |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n${rows.join('\n')}\n`);
}

await main();
