// Running coqc on exported runs against the built Coq development (proofs/coq, docs/coq.md).
// Neither coqc nor a build is required by the rest of the toolkit: `coqSetup` says which is
// missing and how to get it, and the callers skip or exit 3 with that message.

import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const INSTALL_COQ = 'apt-get install -y coq libcoq-stdlib libcoq-flocq';
export const BUILD_COQ = 'make -C proofs/coq';

/** The development's directory: SCHED_COQ_DIR, or proofs/coq of the checkout this file is in. */
export function coqDir(): string {
  const env = process.env['SCHED_COQ_DIR'];
  if (env) return resolve(env);
  // From proofs/coq/coqc.ts or dist/proofs/coq/coqc.js, up to the directory holding proofs/coq/_CoqProject.
  let d = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(d, 'proofs', 'coq', '_CoqProject'))) return join(d, 'proofs', 'coq');
    if (existsSync(join(d, '_CoqProject')) && existsSync(join(d, 'theories'))) return d;
    d = dirname(d);
  }
  return resolve('proofs/coq');
}

/** The theories whose compiled form an export needs (Run.v and everything it loads). */
const THEORIES = ['Maps', 'Values', 'Syntax', 'Memory', 'Eval', 'BigStep', 'Exec', 'Ops', 'Run'];

export type CoqSetup = { readonly ok: true; readonly coqc: string; readonly dir: string; readonly version: string } | { readonly ok: false; readonly missing: string };

function coqcCommand(): string {
  return process.env['SCHED_COQC'] ?? 'coqc';
}

/** What is missing to build the development (coqc, or Flocq), or null when both are there. */
export function coqMissing(): string | null {
  const v = spawnSync(coqcCommand(), ['-where'], { encoding: 'utf8' });
  if (v.error || v.status !== 0) return `coqc is not installed (Debian: ${INSTALL_COQ})`;
  if (!existsSync(join(v.stdout.trim(), 'user-contrib', 'Flocq'))) return `Flocq is not installed for this coqc (Debian: ${INSTALL_COQ})`;
  return null;
}

/** Is coqc installed, and is the development built and up to date with its sources? */
export function coqSetup(): CoqSetup {
  const missing = coqMissing();
  if (missing !== null) return { ok: false, missing };
  const coqc = coqcCommand();
  const v = spawnSync(coqc, ['--version'], { encoding: 'utf8' });
  const dir = coqDir();
  for (const t of THEORIES) {
    const src = join(dir, 'theories', `${t}.v`);
    const vo = join(dir, 'theories', `${t}.vo`);
    if (!existsSync(src)) return { ok: false, missing: `the Coq development is not at ${dir} (set SCHED_COQ_DIR)` };
    if (!existsSync(vo) || statSync(vo).mtimeMs < statSync(src).mtimeMs) {
      return { ok: false, missing: `the Coq development at ${dir} is not built or is stale (${BUILD_COQ})` };
    }
  }
  const version = /version ([0-9.]+)/.exec(v.stdout)?.[1] ?? v.stdout.trim();
  return { ok: true, coqc, dir, version };
}

export interface CoqcResult {
  /** coqc accepted the file. */
  readonly ok: boolean;
  /** coqc's own message when it rejected the file (or its output when it accepted it). */
  readonly message: string;
}

/** Run coqc on `file` against the development; `setup` from coqSetup(). */
export function runCoqc(setup: Extract<CoqSetup, { ok: true }>, file: string, opts: { timeoutMs?: number } = {}): CoqcResult {
  const r = spawnSync(setup.coqc, ['-q', '-R', join(setup.dir, 'theories'), 'Sched', file], {
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 600_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) return { ok: false, message: `coqc did not finish: ${r.error.message}` };
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
  return { ok: r.status === 0, message: out };
}
