#!/usr/bin/env node
// `npm run build` (also `prepare`, run by `npm ci`): compiles the library (api/index.ts), the
// command line (cli/main.ts) and the workers it starts by path, with everything they import, to
// dist/, copies the solver server's plain-JavaScript files, and writes dist/build-stamp.json (cli/freshness.js), by which the bin
// decides to run dist/ (no TypeScript compilation at start-up) or the sources through tsx.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileEntry, STAMP } from './freshness.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIRS = ['api', 'core', 'semantics', 'proofs', 'smt', 'cli', 'corpus', 'web', 'compilers'];
const SKIP = new Set(['node_modules', 'dist', 'page']);
// Files the compiled code reads beside itself at run time (the solver server, the Halide driver).
const COPIED = ['smt/z3-server.mjs', 'smt/z3-eval.mjs', 'compilers/halide/driver.py'];

function* walk(dir) {
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const rel = join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP.has(e.name)) yield* walk(rel);
    } else if (/\.(ts|js|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts')) yield rel;
  }
}

rmSync(join(ROOT, STAMP), { force: true });
// Hashed before compiling: a source edited while tsc runs makes the stamp stale, not wrong.
const before = new Map();
for (const d of DIRS) for (const rel of walk(d)) before.set(rel, fileEntry(ROOT, rel));
for (const f of ['tsconfig.json', 'tsconfig.build.json', ...COPIED]) before.set(f, fileEntry(ROOT, f));

const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
for (const f of COPIED) {
  mkdirSync(dirname(join(ROOT, 'dist', f)), { recursive: true });
  copyFileSync(join(ROOT, f), join(ROOT, 'dist', f));
}

const files = {};
for (const [rel, entry] of before) {
  const compiled = rel.endsWith('.ts') && existsSync(join(ROOT, 'dist', rel.replace(/\.ts$/, '.js')));
  if (compiled || COPIED.includes(rel) || rel.startsWith('tsconfig')) files[rel] = entry;
}
// The entry points, and the workers that are started by path (no import reaches them).
const outputs = ['dist/cli/main.js', 'dist/api/index.js', 'dist/proofs/batch/parallel-worker.js', 'dist/proofs/fuzz/verifier-worker.js', ...COPIED.map((f) => `dist/${f}`)];
writeFileSync(join(ROOT, STAMP), JSON.stringify({ built: new Date().toISOString(), files, outputs }, null, 1) + '\n');
process.stdout.write(`dist/: ${Object.keys(files).length} sources compiled (${relative(process.cwd(), join(ROOT, STAMP)) || STAMP})\n`);
