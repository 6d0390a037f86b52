// Runs every pipeline of MLIR corpus files through the `sched mlir` command line as a user would
// (`sched mlir FILE --passes ARGS --func K [--assume A] --json`, a fresh process each), checks the
// verdict against the file's `// EXPECT <label>:` line, and for every `invalid` runs the `replay:`
// command exactly as printed (`sh -c`, from the repository's root) and checks that it fails and
// shows the verdict's class; it also reports whether mlir-cpu-runner confirmed the verdict.
//
//   npx tsx corpus/mlir/replay.ts [--json] [--expect valid|invalid|unknown] FILE.mlir|DIR ...
//
// `--expect V` runs only the pipelines whose EXPECT line says V (the miscompilations of PolyBench:
// `--expect invalid corpus/mlir/polybench`; bench/mlir-polybench.ts runs the valid ones).
//
// Exit 0 when every pipeline is as expected and every replay shows its class, 1 otherwise, 3 on
// bad input, 2 when MLIR is missing. corpus/mlir/verify.ts checks the same EXPECT lines in one
// process (faster); this one checks what the command prints.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readHeader, type PipelineEntry } from '../../compilers/mlir/corpus-header.ts';
import { SchedInputError } from '../../core/language/diagnostics.ts';
import { RUN_CLASS } from '../../proofs/verifier/replay.ts';
import { mlirFiles, reportMissingMlir } from './check.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** One `sched mlir` run of a corpus pipeline, as its --json output reports it. */
export interface CliValidation {
  readonly file: string;
  readonly label: string;
  readonly args: string;
  /** `valid`, `invalid <class>`, `unknown <class>: reason`, or `error: …` (exit 3/4, no result). */
  readonly seen: string;
  readonly verdict: string | null;
  readonly cls: string | null;
  readonly reason: string;
  /** Verification time of the implementation as --json reports it (results[0].ms). */
  readonly verifyMs: number | null;
  /** mlir-opt and translation times as --json reports them (mlir.ms). */
  readonly mlirMs: Record<string, number>;
  readonly obligations: number;
  /** The printed replay command of an invalid verdict. */
  readonly replay: string | null;
  readonly exit: number;
  /** Wall-clock milliseconds of the whole process (a measurement). */
  readonly wallMs: number;
}

/** `sched mlir FILE --passes ARGS` for one pipeline of a corpus file, in a fresh process. */
export function cliValidate(file: string, p: PipelineEntry, kernel: string, assumes: readonly string[], extra: readonly string[] = []): CliValidation {
  const argv = [join(ROOT, 'cli', 'sched.js'), 'mlir', file, '--passes', p.args, '--func', kernel, ...assumes.flatMap((a) => ['--assume', a]), '--json', ...extra];
  const t0 = performance.now();
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8', maxBuffer: 1 << 28 });
  const wallMs = performance.now() - t0;
  const base = { file, label: p.label, args: p.args, exit: r.status ?? -1, wallMs };
  let doc: { results?: { verdict: string; class: string | null; reason: string | null; ms: number; vcs: number; replay: { command: string } | null }[]; mlir?: { ms?: Record<string, number> }; error?: string; message?: string; diagnostics?: { message: string }[] };
  try {
    doc = JSON.parse(r.stdout) as typeof doc;
  } catch {
    return { ...base, seen: `error: exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}`, verdict: null, cls: null, reason: '', verifyMs: null, mlirMs: {}, obligations: 0, replay: null };
  }
  const res = doc.results?.[0];
  if (!res) {
    const why = doc.message ?? doc.diagnostics?.map((d) => d.message).join('; ') ?? r.stderr.trim();
    return { ...base, seen: `error: ${doc.error ?? 'no result'}: ${why}`, verdict: null, cls: null, reason: why, verifyMs: null, mlirMs: doc.mlir?.ms ?? {}, obligations: 0, replay: null };
  }
  const seen = res.verdict === 'valid' ? 'valid' : `${res.verdict} ${res.class ?? ''}${res.verdict === 'unknown' ? `: ${res.reason ?? ''}` : ''}`;
  return { ...base, seen, verdict: res.verdict, cls: res.class, reason: res.reason ?? '', verifyMs: res.ms ?? null, mlirMs: doc.mlir?.ms ?? {}, obligations: res.vcs ?? 0, replay: res.replay?.command ?? null };
}

/** What `sched run` prints when a run shows CLS: `mismatch` for wrong outputs, `error (KIND)` with the run's kind of CLS otherwise. */
function showsClass(out: string, cls: string): boolean {
  if (cls === 'output-mismatch') return /: mismatch —/.test(out);
  const kinds = Object.entries(RUN_CLASS).filter(([, c]) => c === cls).map(([k]) => k);
  return kinds.some((k) => out.includes(`error (${k})`));
}

export interface ReplayCheck extends CliValidation {
  readonly expected: string;
  readonly ok: boolean;
  /** For an invalid: did the printed replay command fail and show the class? */
  readonly replayShows: boolean | null;
  readonly replayOutput: string;
  /** For an invalid: did mlir-cpu-runner confirm it (source and target differ at the counterexample)? */
  readonly confirmed: boolean | null;
}

export function replayFile(file: string, only?: (label: string, expected: string) => boolean): ReplayCheck[] {
  const text = readFileSync(file, 'utf8');
  const h = readHeader(text, file);
  const out: ReplayCheck[] = [];
  for (const p of h.pipelines) {
    if (p.expect === null || (only && !only(p.label, p.expect.verdict))) continue;
    const v = cliValidate(file, p, h.kernel, h.assumes);
    const e = p.expect;
    const expected = e.verdict === 'invalid' ? `invalid${e.cls ? ` ${e.cls}` : ''}` : e.verdict === 'unknown' ? `unknown${e.reason ? ` ${e.reason}` : ''}` : 'valid';
    let ok = v.verdict === e.verdict && (e.verdict !== 'invalid' || e.cls === null || e.cls === v.cls) && (e.verdict !== 'unknown' || e.reason === null || v.cls === e.reason || v.reason.includes(e.reason));
    let replayShows: boolean | null = null;
    let replayOutput = '';
    let confirmed: boolean | null = null;
    if (v.verdict === 'invalid') {
      confirmed = v.reason.includes('confirmed by mlir-cpu-runner');
      if (v.replay === null) replayShows = false;
      else {
        const r = spawnSync('sh', ['-c', v.replay], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
        replayOutput = `${r.stdout}${r.stderr}`.trim();
        replayShows = r.status === 1 && showsClass(replayOutput, v.cls ?? '');
      }
      ok &&= replayShows;
    }
    out.push({ ...v, expected, ok, replayShows, replayOutput, confirmed });
  }
  return out;
}

function main(argv: string[]): number {
  const json = argv.includes('--json');
  const at = argv.indexOf('--expect');
  const want = at >= 0 ? argv[at + 1] : undefined;
  const paths = argv.filter((a, k) => !a.startsWith('--') && (at < 0 || k !== at + 1));
  if (reportMissingMlir()) return 2;
  const all: ReplayCheck[] = [];
  for (const f of mlirFiles(paths.length > 0 ? paths : ['corpus/bugs/mlir'])) {
    let rows: ReplayCheck[];
    try {
      rows = replayFile(f, want === undefined ? undefined : (label, e) => e === want);
    } catch (e) {
      if (e instanceof SchedInputError) {
        process.stderr.write(`${e.message}\n`);
        return 3;
      }
      throw e;
    }
    all.push(...rows);
    if (json) continue;
    for (const r of rows) {
      const conf = r.confirmed === null ? '' : r.confirmed ? ' [confirmed by mlir-cpu-runner]' : ' [not confirmed by mlir-cpu-runner]';
      const rep = r.replayShows === null ? '' : r.replayShows ? ` [replay shows ${r.cls}: ${r.replay}]` : ` [REPLAY DOES NOT SHOW ${r.cls}: ${r.replay ?? 'no replay'} -> ${r.replayOutput.split('\n')[0]}]`;
      const t = r.verifyMs === null ? '' : ` — verify ${(r.verifyMs / 1000).toFixed(1)} s`;
      process.stdout.write(`${r.ok ? 'ok  ' : 'FAIL'} ${r.file} ${r.label}: ${r.seen}${r.ok ? '' : ` (expected ${r.expected})`}${conf}${rep}${t}, process ${(r.wallMs / 1000).toFixed(1)} s\n`);
    }
  }
  if (json) process.stdout.write(`${JSON.stringify(all, null, 1)}\n`);
  else {
    const inv = all.filter((r) => r.verdict === 'invalid');
    process.stdout.write(`${all.filter((r) => r.ok).length} of ${all.length} pipelines as expected; ${inv.filter((r) => r.replayShows).length} of ${inv.length} invalid verdicts replay as printed, ${inv.filter((r) => r.confirmed).length} confirmed by mlir-cpu-runner\n`);
  }
  return all.every((r) => r.ok) ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
