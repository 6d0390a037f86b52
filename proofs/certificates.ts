// Certificate bundles (`verify --certs DIR`): one standalone SMT-LIB 2.6 file per proof
// obligation and per quantifier elimination the Presburger layer performed, and a manifest with
// their hashes, so that a third party can re-check a verdict with a solver of their choice
// (`sched recheck`, or by hand: every file is `(check-sat)` against the `:status` it declares).
// The bundle is byte-identical for the same input; solver times go to a separate timings.json.

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ElimEntry } from '../core/presburger/elimlog.ts';
import { eliminationCertificates } from '../core/presburger/certificate.ts';
import type { VerifyResult } from './verify.ts';
import { canonicalNames } from './symbolic.ts';

export const TOOL_VERSION = 'sched 0.1.0';
export const BUNDLE_FORMAT = 1;

export interface ManifestEntry {
  readonly id: string;
  /** What it proves: obligation kind (or `elimination`), rule, source position, description. */
  readonly kind: string;
  readonly rule: string;
  readonly line: number;
  readonly col: number;
  readonly description: string;
  readonly file: string;
  readonly sha256: string;
  /** The answer that supports the verdict: `unsat` for proved obligations. */
  readonly expected: 'unsat' | 'sat' | 'unknown';
  /** The solver that produced the expected answer when the bundle was written. */
  readonly solver: string;
  /** The value encoding of the script (`ieee`, `uf`, `real`), or null (integers only). */
  readonly float: string | null;
}

export interface Manifest {
  readonly tool: string;
  readonly format: number;
  readonly input: { readonly file: string; readonly sha256: string };
  readonly impl: string;
  readonly spec: string;
  readonly verdict: string;
  readonly class: string | null;
  readonly float: string;
  readonly entries: readonly ManifestEntry[];
}

export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

function withStatus(script: string, status: string): string {
  return script.replace(/\(set-info :status [a-z]+\)/, `(set-info :status ${status})`);
}

function header(lines: readonly string[]): string {
  return lines.map((l) => `; ${l.replace(/\n/g, ' ')}`).join('\n');
}

/** Write the bundle of one verified implementation into `dir` (replacing what was there). */
export function writeBundle(dir: string, inputFile: string, result: VerifyResult, eliminations: readonly ElimEntry[]): Manifest {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const entries: ManifestEntry[] = [];
  const timings: Record<string, number> = {};
  for (const o of result.outcomes) {
    const ob = o.obligation;
    const expected = o.status === 'proved' ? 'unsat' : o.status === 'refuted' ? 'sat' : 'unknown';
    const file = `${ob.id}.smt2`;
    const text = `${header([`${TOOL_VERSION} certificate ${ob.id} of impl '${result.impl}' (spec '${result.spec}')`, `${ob.rule}, ${ob.kind}, line ${ob.line}: ${ob.description}`, `expected: ${expected}`])}\n${withStatus(ob.script, expected)}\n(check-sat)\n`;
    writeFileSync(join(dir, file), text);
    entries.push({ id: ob.id, kind: ob.kind, rule: ob.rule, line: ob.line, col: ob.col, description: ob.description, file, sha256: sha256(text), expected, solver: 'z3-wasm', float: ob.float });
    timings[ob.id] = Math.round(o.ms);
  }
  eliminations.forEach((e, k) => {
    const base = `elim${String(k + 1).padStart(3, '0')}`;
    eliminationCertificates(e).forEach((cert, d) => {
      const id = `${base}.${d + 1}`;
      const file = `${id}.smt2`;
      const text = canonicalNames(`(set-logic ALL)\n(set-info :status unsat)\n${cert}`);
      writeFileSync(join(dir, file), text);
      const description = `an exact quantifier elimination used by the symbolic heaps, ${d === 0 ? 'one direction: the original formula implies its replacement' : 'other direction: the replacement implies the original formula'}`;
      entries.push({ id, kind: 'elimination', rule: `QE (${e.method})`, line: 0, col: 0, description, file, sha256: sha256(text), expected: 'unsat', solver: e.method === 'exact' ? 'sched (exact QE)' : 'z3-wasm qe', float: null });
    });
  });
  const manifest: Manifest = {
    tool: TOOL_VERSION,
    format: BUNDLE_FORMAT,
    input: { file: inputFile, sha256: sha256(readFileSync(inputFile)) },
    impl: result.impl,
    spec: result.spec,
    verdict: result.verdict,
    class: result.class,
    float: result.float,
    entries,
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  writeFileSync(join(dir, 'timings.json'), JSON.stringify({ note: 'solver milliseconds when the bundle was written (not part of the byte-identical bundle)', ms: timings }, null, 2) + '\n');
  return manifest;
}
