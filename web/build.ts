// Building the playground page: web/page/ (TypeScript, CodeMirror from node_modules) bundled by
// esbuild into one script and one stylesheet. Runs from the project's own files, no download:
// on the first `sched serve` (and again whenever a page source is newer than the bundle), or
// for a static folder (`sched serve --out DIR`).

import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { BuildOptions } from 'esbuild';
import { listExamples } from './server.ts';
import { fileURLToPath } from 'node:url';

export const PAGE_DIR = fileURLToPath(new URL('./page/', import.meta.url));
/** Where `sched serve` keeps its bundle (git-ignored). */
export const DIST_DIR = fileURLToPath(new URL('./dist/', import.meta.url));

const SOURCES = [PAGE_DIR, fileURLToPath(new URL('./protocol.ts', import.meta.url))];

function newest(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(path).map((e) => newest(join(path, e))));
}

/** Node modules the engines import, as the page has them. */
const SHIMS: Record<string, string> = {
  'node-os': 'export const availableParallelism = () => 1;',
  'node-url': 'export const fileURLToPath = (u) => String(u);',
  // smt/cpu-time.ts reads /proc (the fuzzer's budgets): never called on the page.
  'node-fs': "const none = () => { throw new Error('no file system on the page'); }; export const readFileSync = none; export const readdirSync = none;",
};

/**
 * esbuild options that bundle the engines (web/api.ts and everything below it) for a browser:
 * smt/z3.ts is kept as it is, and its solver child becomes z3-solver on the page.
 */
export function browserEngines(): Pick<BuildOptions, 'define' | 'plugins'> {
  return {
    define: { global: 'globalThis', 'process.env.SCHED_DEBUG': 'undefined', 'process.env.SCHED_SOLVER': 'undefined', 'process.env.SCHED_JOBS': 'undefined', 'process.env.SCHED_SOLVER_LIMIT': 'undefined', 'process.env.SCHED_Z3_TRACE': 'undefined', 'process.env.SCHED_Z3_TRACE_SCRIPTS': 'undefined' },
    plugins: [{
      name: 'z3-on-the-page',
      setup(b) {
        b.onResolve({ filter: /^node:child_process$/ }, () => ({ path: fileURLToPath(new URL('./page-engines/z3-child.ts', import.meta.url)) }));
        b.onResolve({ filter: /^node:url$/ }, () => ({ path: 'node-url', namespace: 'shim' }));
        // The solver pool sizes itself by the cores; the page has one z3-solver.
        b.onResolve({ filter: /^node:os$/ }, () => ({ path: 'node-os', namespace: 'shim' }));
        // The CPU time of a solver process (smt/cpu-time.ts, /proc): none on the page.
        b.onResolve({ filter: /^node:fs$/ }, () => ({ path: 'node-fs', namespace: 'shim' }));
        b.onLoad({ filter: /.*/, namespace: 'shim' }, (a) => ({ contents: SHIMS[a.path]!, loader: 'js' }));
      },
    }],
  };
}

/** z3-solver's browser files (its Emscripten loader and the WASM), copied beside a page. */
export function copyZ3(outDir: string): void {
  const z3 = dirname(createRequire(import.meta.url).resolve('z3-solver/build/z3-built.js'));
  for (const f of ['z3-built.js', 'z3-built.wasm']) copyFileSync(join(z3, f), join(outDir, f));
}

/** The headers a static host must send for Z3's threads (Netlify / Cloudflare Pages `_headers`). */
export const ISOLATION_HEADERS = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' } as const;

/**
 * The page and, for a static folder, the engines and Z3 it runs itself (`engines.js`,
 * `z3-built.*`, a `_headers` file with the isolation headers).
 */
export async function buildStatic(outDir: string, corpus: string): Promise<{ name: string; bytes: number }[]> {
  const { build } = await import('esbuild');
  const files = await buildPage(outDir);
  const examples = listExamples(corpus);
  for (const e of examples) {
    mkdirSync(join(outDir, 'examples', dirname(e.path)), { recursive: true });
    copyFileSync(join(corpus, e.path), join(outDir, 'examples', e.path));
  }
  writeFileSync(join(outDir, 'examples.json'), JSON.stringify(examples, null, 1) + '\n');
  await build({ entryPoints: { engines: join(PAGE_DIR, '../page-engines/engines.ts') }, bundle: true, format: 'esm', platform: 'browser', target: 'es2022', minify: true, legalComments: 'none', outdir: outDir, logLevel: 'silent', ...browserEngines() });
  copyZ3(outDir);
  writeFileSync(join(outDir, '_headers'), `/*\n${Object.entries(ISOLATION_HEADERS).map(([k, v]) => `  ${k}: ${v}`).join('\n')}\n`);
  return [...files, ...['engines.js', 'z3-built.js', 'z3-built.wasm', 'examples.json'].map((name) => ({ name, bytes: statSync(join(outDir, name)).size }))];
}

/** Bundle the page into `outDir`; returns the files written and their sizes. */
export async function buildPage(outDir: string = DIST_DIR): Promise<{ name: string; bytes: number }[]> {
  const { build } = await import('esbuild');
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: { app: join(PAGE_DIR, 'main.ts') },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    outdir: outDir,
    logLevel: 'silent',
  });
  copyFileSync(join(PAGE_DIR, 'index.html'), join(outDir, 'index.html'));
  return ['index.html', 'app.js', 'app.css'].filter((n) => existsSync(join(outDir, n))).map((name) => ({ name, bytes: statSync(join(outDir, name)).size }));
}

/** The bundle in DIST_DIR, rebuilt when missing or older than a page source. */
export async function ensureBuilt(): Promise<boolean> {
  const out = join(DIST_DIR, 'app.js');
  if (existsSync(out) && existsSync(join(DIST_DIR, 'index.html')) && statSync(out).mtimeMs >= Math.max(...SOURCES.map(newest))) return false;
  // Built aside and renamed into place: another process (a parallel test file, a second serve)
  // may be serving or building the same folder.
  mkdirSync(DIST_DIR, { recursive: true });
  const tmp = mkdtempSync(join(DIST_DIR, '.build-'));
  try {
    for (const f of await buildPage(tmp)) renameSync(join(tmp, f.name), join(DIST_DIR, f.name));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return true;
}
