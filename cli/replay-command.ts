// The `sched run` command line that reproduces a verdict's counterexample (its parameters, the
// input family and seed, the solver's input values, whether annotations are checked, whether
// conditional stores run as `if (c) store`, the slice when the whole program is too large to run),
// runnable as printed: it names the spec file when the specs came from one (`--spec`), and a
// program read from standard input is saved to a file it can name.

import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stdinText } from '../core/language/load.ts';
import type { Replay } from '../proofs/verifier/verify.ts';

/** Where the program the replay runs comes from: the file given (or `-`), and `--spec`'s file. */
export interface ReplaySource {
  readonly file: string;
  readonly spec?: string;
}

/** Quoted for a POSIX shell when needed. */
export function shellQuote(x: string): string {
  return /^[A-Za-z0-9_./=:-]+$/.test(x) ? x : `'${x.replace(/'/g, `'\\''`)}'`;
}

/** Where standard input was saved, once (`<tmpdir>/sched-stdin/<sha256 prefix>.sched`). */
let savedStdin: string | undefined;

/**
 * A file that holds what standard input held, named by its content (two runs never overwrite each
 * other's, and the same input gets the same name), written whole, then renamed into place.
 */
export function stdinFile(): string {
  if (savedStdin !== undefined) return savedStdin;
  const text = stdinText() ?? '';
  const file = join(tmpdir(), 'sched-stdin', `${createHash('sha256').update(text).digest('hex').slice(0, 16)}.sched`);
  mkdirSync(join(tmpdir(), 'sched-stdin'), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, text);
  renameSync(partial, file);
  savedStdin = file;
  process.stderr.write(`sched: standard input saved to ${file} (the replay commands name it)\n`);
  return file;
}

/** A path the replay can name: standard input (`-` or `<stdin>`) becomes the file it was saved to. */
function named(path: string): string {
  return path === '-' || path === '<stdin>' ? stdinFile() : path;
}

/** The `sched run` command line that reproduces a counterexample. */
export function replayCommand(source: ReplaySource | string, impl: string, r: Replay): string {
  const src = typeof source === 'string' ? { file: source } : source;
  const parts = ['npx', 'sched', 'run', shellQuote(named(src.file))];
  if (src.spec !== undefined) parts.push('--spec', shellQuote(named(src.spec)));
  parts.push('--impl', shellQuote(impl), ...Object.entries(r.params).flatMap(([k, v]) => ['--param', shellQuote(`${k}=${v}`)]));
  if (r.seed !== 0) parts.push('--seed', String(r.seed));
  if (r.inputs !== 'default') parts.push('--inputs', r.inputs);
  for (const v of r.inputValues) parts.push('--input', shellQuote(`${v.tensor}(${v.point.join(',')})=${v.value}`));
  if (r.annotations) parts.push('--check-annotations');
  if (r.conditionalStores) parts.push('--conditional-stores');
  if (r.slice) parts.push('--slice', shellQuote(r.slice));
  return parts.join(' ');
}
