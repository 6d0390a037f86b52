// Building the playground page: web/page/ (TypeScript, CodeMirror from node_modules) bundled by
// esbuild into one script and one stylesheet. Runs from the project's own files, no download:
// on the first `sched serve` (and again whenever a page source is newer than the bundle), or
// for a static folder (`sched serve --out DIR`).

import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
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
  await buildPage(DIST_DIR);
  return true;
}
