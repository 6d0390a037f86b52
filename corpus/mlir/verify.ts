// Runs every pipeline of MLIR corpus files (docs/mlir.md § Corpus files) through `sched mlir`'s
// validation (mlir-opt 16, translation, verification, confirmation under mlir-cpu-runner) and
// checks each pipeline's `// EXPECT <label>: verdict [class]` line.
//
//   npx tsx corpus/mlir/verify.ts [--json] [--only LABEL] [--timeout-ms T] FILE.mlir|DIR ...
//
// Exit 0 when every EXPECT line holds, 1 when one does not, 3 on bad input, 2 when MLIR is missing.

import { readFileSync } from 'node:fs';
import { formatDiagnostic, SchedInputError } from '../../core/language/diagnostics.ts';
import { type Expect, readHeader } from '../../compilers/mlir/corpus-header.ts';
import { MlirRunError } from '../../compilers/mlir/runner.ts';
import { mlirMissing } from '../../compilers/mlir/tools.ts';
import { validateMlir } from '../../proofs/validate/mlir.ts';
import { mlirFiles } from './check.ts';

export interface VerdictCheck {
  readonly file: string;
  readonly label: string;
  readonly args: string;
  readonly expected: string;
  /** `valid`, `invalid <class>`, `unknown <class>: reason`, or `error: …`. */
  readonly seen: string;
  readonly ok: boolean;
  /** For an invalid: confirmed by mlir-cpu-runner (source and target outputs differ there). */
  readonly confirmed: boolean | null;
  readonly obligations: number;
  /** Wall-clock milliseconds of the whole validation (a measurement). */
  readonly ms: number;
}

function expectText(e: Expect): string {
  return e.verdict === 'valid' ? 'valid' : e.verdict === 'invalid' ? `invalid${e.cls ? ` ${e.cls}` : ''}` : `unknown${e.reason ? ` ${e.reason}` : ''}`;
}

function matches(e: Expect, verdict: string, cls: string | null, reason: string): boolean {
  if (e.verdict !== verdict) return false;
  if (e.verdict === 'invalid') return e.cls === null || e.cls === cls;
  if (e.verdict === 'unknown') return e.reason === null || (cls ?? '') === e.reason || reason.includes(e.reason);
  return true;
}

/** Validate every pipeline of FILE and compare with its EXPECT lines. */
export async function verifyFile(file: string, o: { only?: (label: string) => boolean; timeoutMs?: number } = {}): Promise<VerdictCheck[]> {
  const text = readFileSync(file, 'utf8');
  const h = readHeader(text, file);
  const out: VerdictCheck[] = [];
  for (const p of h.pipelines) {
    if (o.only && !o.only(p.label)) continue;
    const t0 = performance.now();
    const expected = p.expect!;
    let seen: string;
    let ok = false;
    let confirmed: boolean | null = null;
    let obligations = 0;
    try {
      const v = await validateMlir({ source: text, passes: p.args, func: h.kernel, sourceFile: file, assumes: h.assumes, verify: { timeoutMs: o.timeoutMs ?? 10_000 } });
      if (v.unsupported !== null) {
        seen = `unknown unsupported: ${v.unsupported}`;
        ok = matches(expected, 'unknown', 'unsupported', v.unsupported);
      } else {
        const r = v.result!;
        obligations = r.vcs;
        seen = r.verdict === 'valid' ? 'valid' : `${r.verdict} ${r.class ?? ''}${r.verdict === 'unknown' ? `: ${r.reason ?? ''}` : ''}`;
        ok = matches(expected, r.verdict, r.class, r.reason ?? '');
        if (r.verdict === 'invalid') confirmed = v.confirmation !== null && v.confirmation.skipped === null && v.confirmation.compiler!.differences > 0;
      }
    } catch (e) {
      if (e instanceof SchedInputError) seen = `error: ${e.diagnostics.map(formatDiagnostic).join('; ')}`;
      else if (e instanceof MlirRunError) seen = `error: ${e.kind}: ${e.message.split('\n')[0]}`;
      else throw e;
    }
    out.push({ file, label: p.label, args: p.args, expected: expectText(expected), seen, ok, confirmed, obligations, ms: performance.now() - t0 });
  }
  return out;
}

async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const onlyAt = argv.indexOf('--only');
  const only = onlyAt >= 0 ? argv[onlyAt + 1] : undefined;
  const tAt = argv.indexOf('--timeout-ms');
  const timeoutMs = tAt >= 0 ? Number(argv[tAt + 1]) : undefined;
  const paths = argv.filter((a, k) => !a.startsWith('--') && argv[k - 1] !== '--only' && argv[k - 1] !== '--timeout-ms');
  const missing = mlirMissing();
  if (missing !== null) {
    process.stderr.write(`${missing}\n`);
    return 2;
  }
  const all: VerdictCheck[] = [];
  try {
    for (const f of mlirFiles(paths)) {
      const rs = await verifyFile(f, { ...(only ? { only: (l: string) => l === only } : {}), ...(timeoutMs ? { timeoutMs } : {}) });
      for (const r of rs) {
        all.push(r);
        if (!json) process.stdout.write(`${r.ok ? 'ok  ' : 'FAIL'} ${r.file} ${r.label}: ${r.seen}${r.ok ? '' : ` (expected ${r.expected})`}${r.confirmed === null ? '' : r.confirmed ? ' [confirmed by mlir-cpu-runner]' : ' [not confirmed by mlir-cpu-runner]'} — ${r.obligations} obligations, ${(r.ms / 1000).toFixed(1)} s\n`);
      }
    }
  } catch (e) {
    if (e instanceof SchedInputError) {
      for (const d of e.diagnostics) process.stderr.write(formatDiagnostic(d) + '\n');
      return 3;
    }
    throw e;
  }
  if (json) process.stdout.write(JSON.stringify(all, null, 1) + '\n');
  else process.stdout.write(`${all.filter((r) => r.ok).length} of ${all.length} pipelines as expected\n`);
  return all.every((r) => r.ok) ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then((c) => process.exit(c), (e) => { console.error(e); process.exit(4); });
}
