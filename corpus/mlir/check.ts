// Runs every pipeline of MLIR corpus files (docs/mlir.md § Corpus files) through the execution
// oracle: the real mlir-opt 16, then the source and the output under mlir-cpu-runner on the same
// seeded inputs; checks each pipeline's `// RUNNER <label>: differs | agrees` line.
//
//   npx tsx corpus/mlir/check.ts [--json] [--verbose] FILE.mlir|DIR ...
//
// Exit 0 when every RUNNER line holds, 1 when one does not, 3 on bad input, 2 when MLIR is missing.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { formatDiagnostic, SchedInputError } from '../../core/language/diagnostics.ts';
import { argSpecs, readHeader } from '../../compilers/mlir/corpus-header.ts';
import { differential, type Differential, execute, type Execution, MlirRunError, runPasses } from '../../compilers/mlir/runner.ts';
import { mlirMissing } from '../../compilers/mlir/tools.ts';

export interface PipelineCheck {
  readonly file: string;
  readonly label: string;
  readonly args: string;
  readonly expected: 'differs' | 'agrees';
  /** What the runner saw, or the failure that stopped it. */
  readonly seen: 'differs' | 'agrees' | `error: ${string}`;
  readonly ok: boolean;
  /** The pass printed the module unchanged (a pipeline that transforms nothing tests little). */
  readonly unchanged: boolean;
  readonly differences: number;
  readonly cells: number;
  readonly firstDifferences: readonly string[];
  /** Wall-clock milliseconds (measurements): mlir-opt with the pipeline; the source (once per file) and the output lowered and run. */
  readonly ms: { readonly pass: number; readonly source: number; readonly output: number };
}

export function mlirFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    if (statSync(p).isDirectory()) out.push(...mlirFiles(readdirSync(p).sort().map((f) => join(p, f)).filter((f) => statSync(f).isDirectory() || f.endsWith('.mlir'))));
    else out.push(p);
  }
  return out;
}

/** Check every pipeline of FILE (throws SchedInputError for a bad header). */
export function checkFile(file: string, opts: { readonly only?: (label: string) => boolean; readonly detectUnchanged?: boolean } = {}): PipelineCheck[] {
  const text = readFileSync(file, 'utf8');
  const h = readHeader(text, file);
  const specs = argSpecs(h, text, file);
  const out: PipelineCheck[] = [];
  // The source runs once; a failure there is every pipeline's.
  let before: Execution | undefined;
  let sourceError: string | null = null;
  let source = '';
  try {
    before = execute(text, h.kernel, specs, h.seed, { fileName: file });
    // One more mlir-opt run: the module as printed without passes, to tell a pipeline that did nothing.
    if (opts.detectUnchanged !== false) source = runPasses(text, []).output;
  } catch (e) {
    sourceError = failure(e);
  }
  for (const p of h.pipelines) {
    if (opts.only && !opts.only(p.label)) continue;
    let d: Differential | null = null;
    let seen: PipelineCheck['seen'];
    if (sourceError !== null) seen = `error: source: ${sourceError}`;
    else {
      try {
        d = differential(text, p.args, h.kernel, specs, h.seed, { fileName: file }, before);
        seen = d.comparison.equal ? 'agrees' : 'differs';
      } catch (e) {
        seen = `error: ${failure(e)}`;
      }
    }
    const c = d?.comparison;
    out.push({
      file,
      label: p.label,
      args: p.args,
      expected: p.runner!,
      seen,
      ok: seen === p.runner,
      unchanged: d !== null && source !== '' && d.pass.output === source,
      differences: c?.differences.length ?? 0,
      cells: c?.cells ?? 0,
      firstDifferences: c?.differences.slice(0, 4).map((x) => x.text) ?? [],
      ms: {
        pass: d?.pass.ms ?? 0,
        source: before ? before.ms.canonical + before.ms.lower + before.ms.run : 0,
        output: d ? d.after.ms.lower + d.after.ms.run : 0,
      },
    });
  }
  return out;
}

function failure(e: unknown): string {
  if (e instanceof MlirRunError) return `${e.kind}: ${e.message.split('\n')[0]!}`;
  if (e instanceof SchedInputError) return `input: ${e.diagnostics.map(formatDiagnostic).join('; ')}`;
  throw e;
}

/** Say which MLIR package is missing, if one is (the corpus scripts then exit with 2). */
export function reportMissingMlir(): boolean {
  const missing = mlirMissing();
  if (missing !== null) process.stderr.write(`${missing}\n`);
  return missing !== null;
}

function main(argv: string[]): number {
  const json = argv.includes('--json');
  const verbose = argv.includes('--verbose');
  const paths = argv.filter((a) => !a.startsWith('--'));
  if (reportMissingMlir()) return 2;
  const all: PipelineCheck[] = [];
  let bad = 0;
  for (const f of mlirFiles(paths.length > 0 ? paths : ['corpus/bugs/mlir', 'corpus/mlir'])) {
    let rows: PipelineCheck[];
    try {
      rows = checkFile(f);
    } catch (e) {
      if (e instanceof SchedInputError) {
        process.stderr.write(`${e.message}\n`);
        bad++;
        continue;
      }
      throw e;
    }
    all.push(...rows);
    if (!json) {
      for (const r of rows) {
        const ms = `pass ${Math.round(r.ms.pass)} ms, source ${Math.round(r.ms.source)} ms, output ${Math.round(r.ms.output)} ms`;
        process.stdout.write(`${r.ok ? 'ok  ' : 'FAIL'} ${r.file} ${r.label}: ${r.seen}${r.unchanged ? ' (the pass changed nothing)' : ''} (expected ${r.expected}; ${r.differences}/${r.cells} cells differ; ${ms})\n`);
        if (verbose || !r.ok) for (const t of r.firstDifferences) process.stdout.write(`       ${t}\n`);
      }
    }
  }
  if (json) process.stdout.write(`${JSON.stringify(all, null, 1)}\n`);
  const failed = all.filter((r) => !r.ok).length;
  if (!json) process.stdout.write(`${all.length - failed} of ${all.length} pipelines as expected${bad > 0 ? `; ${bad} files with bad headers` : ''}\n`);
  return bad > 0 ? 3 : failed > 0 ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
