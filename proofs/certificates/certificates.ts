// Certificate bundles (`verify --certs DIR`): one standalone SMT-LIB 2.6 file per proof
// obligation and per quantifier elimination the Presburger layer performed, and a manifest with
// their hashes, so that a third party can re-check a verdict with a solver of their choice
// (`sched recheck`, or by hand: every file is `(check-sat)` against the `:status` it declares).
// The bundle is byte-identical for the same input; solver times go to a separate timings.json.

import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { ElimEntry } from '../../core/presburger/elimlog.ts';
import { eliminationCertificates } from '../../core/presburger/certificate.ts';
import type { VerifyResult } from '../verifier/verify.ts';
import { canonicalNames } from '../verifier/symbolic.ts';
import { solverName } from '../../smt/z3.ts';
import type { BudgetRecord } from '../../smt/identity.ts';
import { TOOL_VERSION } from '../../core/language/version.ts';

export { TOOL_VERSION };

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

/** An obligation the verification left undecided (it stopped at a refutation, or timed out). */
export interface UndecidedEntry {
  readonly id: string;
  readonly kind: string;
  readonly description: string;
  readonly reason: string;
}

export interface Manifest {
  readonly tool: string;
  readonly format: number;
  /** The input file, as given (relative to where `verify` ran), and the hash of its text. */
  readonly input: { readonly file: string; readonly sha256: string };
  readonly impl: string;
  readonly spec: string;
  readonly verdict: string;
  /** What a `valid` holds up to ("up to reassociation": a reordered float reduction), if anything. */
  readonly qualifier?: string;
  readonly class: string | null;
  readonly float: string;
  readonly entries: readonly ManifestEntry[];
  /**
   * Obligations without a certificate: no solver answer supports anything about them (a
   * verification stops at its first refutation; a timeout is no answer), and refutations under
   * quantifiers, whose evidence is the replay. Listed, not written.
   */
  readonly undecided: readonly UndecidedEntry[];
  /** For `invalid`: the `sched run` arguments that reproduce the counterexample, or null. */
  readonly replay: VerifyResult['replay'];
  /**
   * The solver budget of the verification and how it was enforced (smt/identity.ts): what its
   * `unknown` and undecided entries mean. Under resource limits (the default) the same input and
   * budget give the same bundle on any machine at any load.
   */
  readonly budget?: BudgetRecord;
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

/**
 * The directory of the bundle of `impl` of the file at `path`, under `root`: the file's path
 * (relative to the working directory, or absolute without its root) mirrored, then the impl, so
 * that two files with the same base name never share a bundle.
 */
export function bundleDir(root: string, path: string, impl: string): string {
  if (path === '-') return join(root, 'stdin', impl);
  const rel = relative(process.cwd(), path);
  const inside = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : resolve(path).replace(/^[A-Za-z]:/, '').replace(/^[\\/]+/, '');
  return join(root, inside.replace(/\.sched$/, ''), impl);
}

/** Write the bundle of one verified implementation into `dir` (replacing what was there). */
export function writeBundle(dir: string, input: { readonly name: string; readonly text: string }, result: VerifyResult, eliminations: readonly ElimEntry[], budget?: BudgetRecord): Manifest {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const entries: ManifestEntry[] = [];
  const undecided: UndecidedEntry[] = [];
  const timings: Record<string, number> = {};
  for (const o of result.outcomes) {
    const ob = o.obligation;
    if (o.status === 'unknown') {
      undecided.push({ id: ob.id, kind: ob.kind, description: ob.description, reason: o.reason ?? 'not decided' });
      continue;
    }
    if (o.status === 'refuted' && /\((forall|exists) /.test(ob.script)) {
      // A satisfiable claim under quantifiers (the spec's equations as axioms) is confirmed by a
      // solver only through model-based instantiation, which cvc5 and z3 4.8 may not finish; the
      // evidence of this refutation is its concrete replay (`replay` below), not a certificate.
      undecided.push({ id: ob.id, kind: ob.kind, description: ob.description, reason: 'refuted; a satisfiable quantified claim is not a portable certificate: the replay shows the counterexample' });
      continue;
    }
    const expected = o.status === 'proved' ? 'unsat' : 'sat';
    const file = `${ob.id}.smt2`;
    const text = `${header([`${TOOL_VERSION} certificate ${ob.id} of impl '${result.impl}' (spec '${result.spec}')`, `${ob.rule}, ${ob.kind}, line ${ob.line}: ${ob.description}`, `expected: ${expected}`])}\n${withStatus(ob.script, expected)}\n(check-sat)\n`;
    writeFileSync(join(dir, file), text);
    entries.push({ id: ob.id, kind: ob.kind, rule: ob.rule, line: ob.line, col: ob.col, description: ob.description, file, sha256: sha256(text), expected, solver: solverName(), float: ob.float });
    timings[ob.id] = Math.round(o.ms);
  }
  eliminations.forEach((e, k) => {
    const base = `elim${String(k + 1).padStart(3, '0')}`;
    eliminationCertificates(e).forEach((cert, d) => {
      const id = `${base}.${d + 1}`;
      const file = `${id}.smt2`;
      const text = canonicalNames(cert.replace(/^(\(set-logic [A-Z_]+\)\n)/, '$1(set-info :status unsat)\n'));
      writeFileSync(join(dir, file), text);
      const description = `an exact quantifier elimination used by the symbolic heaps, ${d === 0 ? 'one direction: the original formula implies its replacement' : 'other direction: the replacement implies the original formula'}`;
      entries.push({ id, kind: 'elimination', rule: `QE (${e.method})`, line: 0, col: 0, description, file, sha256: sha256(text), expected: 'unsat', solver: e.method === 'exact' ? 'sched (exact QE)' : `${solverName()} qe`, float: null });
    });
  });
  const manifest: Manifest = {
    tool: TOOL_VERSION,
    format: BUNDLE_FORMAT,
    input: { file: input.name, sha256: sha256(input.text) },
    impl: result.impl,
    spec: result.spec,
    verdict: result.verdict,
    ...(result.qualifier ? { qualifier: result.qualifier } : {}),
    class: result.class,
    float: result.float,
    entries,
    undecided,
    replay: result.replay,
    ...(budget ? { budget } : {}),
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  writeFileSync(join(dir, 'timings.json'), JSON.stringify({ note: 'solver milliseconds when the bundle was written (not part of the byte-identical bundle)', ms: timings }, null, 2) + '\n');
  return manifest;
}
