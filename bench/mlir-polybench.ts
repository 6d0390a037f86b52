// The PolyBench table of `npm run bench -- --only mlir`: every PolyBench/C 4.2 kernel of
// corpus/mlir/polybench/ through `sched mlir FILE --passes ARGS` (Debian's mlir-opt 16 runs the
// pipeline; source and output are translated and verified), for each pipeline whose EXPECT line says
// `valid`, each run in a fresh process as a user runs it (corpus/mlir/replay.ts's cliValidate).
// Verify: the verification time as --json reports it; whole: the process (Node's start, mlir-opt,
// translation, verification). Wall-clock times on a shared machine: the load is recorded per kernel.
//
//   npm run bench -- --only mlir [--kernels gemm,lu,…] [--quick]
//   npx tsx bench/mlir-polybench.ts [--kernels …] [--reps R]        (this table alone, printed)

import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { loadavg } from 'node:os';
import { readHeader } from '../compilers/mlir/corpus-header.ts';
import { mlirMissing } from '../compilers/mlir/tools.ts';
import { cliValidate } from '../corpus/mlir/replay.ts';
import { median } from '../proofs/fuzz/stats.ts';

const DIR = 'corpus/mlir/polybench';

export interface MlirPipelineRow {
  readonly label: string;
  readonly args: string;
  /** The verdict of every run (the same in every run, or the note says otherwise). */
  readonly verdict: string;
  readonly expected: string;
  readonly runs: number;
  /** Medians, seconds. */
  readonly verifyS: number | null;
  readonly wholeS: number | null;
  readonly obligations: number;
  readonly note: string | null;
}

export interface MlirKernelRow {
  readonly kernel: string;
  readonly pipelines: readonly MlirPipelineRow[];
  readonly load: string;
}

const load = (): string => loadavg().map((x) => x.toFixed(1)).join(' ');

export interface MlirBenchOptions {
  readonly reps: number;
  readonly only?: ReadonlySet<string> | null;
  readonly say?: (s: string) => void;
}

/** The rows: `reps` runs of every valid pipeline of every kernel, the pipelines taking turns. */
export function benchMlir(opts: MlirBenchOptions): MlirKernelRow[] | null {
  const missing = mlirMissing();
  if (missing !== null) {
    opts.say?.(`mlir: not measured: ${missing}`);
    return null;
  }
  const rows: MlirKernelRow[] = [];
  for (const f of readdirSync(DIR).filter((x) => x.endsWith('.mlir')).sort()) {
    const kernel = basename(f, '.mlir');
    if (opts.only && !opts.only.has(kernel)) continue;
    const file = join(DIR, f);
    const h = readHeader(readFileSync(file, 'utf8'), file);
    const valid = h.pipelines.filter((p) => p.expect?.verdict === 'valid');
    const l0 = load();
    const runs = valid.map(() => [] as ReturnType<typeof cliValidate>[]);
    for (let i = 0; i < opts.reps; i++) valid.forEach((p, k) => runs[k]!.push(cliValidate(file, p, h.kernel, h.assumes)));
    const pipelines = valid.map((p, k): MlirPipelineRow => {
      const rs = runs[k]!;
      const verdicts = [...new Set(rs.map((r) => r.seen))];
      const ok = rs.filter((r) => r.verifyMs !== null);
      return {
        label: p.label,
        args: p.args,
        verdict: verdicts.join(' / '),
        expected: 'valid',
        runs: rs.length,
        verifyS: ok.length ? median(ok.map((r) => r.verifyMs! / 1000)) : null,
        wholeS: median(rs.map((r) => r.wallMs / 1000)),
        obligations: rs[0]?.obligations ?? 0,
        note: verdicts.length > 1 ? 'verdicts differ between runs' : null,
      };
    });
    const row: MlirKernelRow = { kernel, pipelines, load: `${l0} → ${load()}` };
    rows.push(row);
    for (const p of pipelines) opts.say?.(`mlir ${kernel.padEnd(15)} ${p.label.padEnd(12)} ${p.verdict.slice(0, 60).padEnd(20)} verify ${fmt(p.verifyS)} s, whole ${fmt(p.wholeS)} s, ${p.obligations} obligations`);
  }
  return rows;
}

function fmt(x: number | null, d = 2): string {
  return x === null || Number.isNaN(x) ? '—' : x.toFixed(d);
}

/** Per kernel: the valid pipelines, how many `sched mlir` proved valid, the median and the largest verification time. */
export function mlirMarkdown(rows: readonly MlirKernelRow[], reps: number): string {
  const all = rows.flatMap((r) => r.pipelines);
  const valid = all.filter((p) => p.verdict === 'valid');
  const kernels3 = rows.filter((r) => r.pipelines.filter((p) => p.verdict === 'valid').length >= 3).length;
  const out = [
    `PolyBench/C 4.2 kernels written as affine MLIR (corpus/mlir/polybench/) through \`sched mlir FILE --passes ARGS\` (Debian's mlir-opt 16), every pipeline the file expects to be valid, each command in a fresh process, ${reps === 1 ? 'once' : `medians of ${reps} runs`}. Verify: the verification time as \`--json\` reports it (per kernel: the median over its pipelines, and the largest); whole: the process (Node's start, mlir-opt, translation, verification). ${valid.length} of ${all.length} pipelines valid; ${kernels3} kernels with at least 3 valid pipelines.`,
    '',
    '| kernel | pipelines | valid | verify, median (s) | verify, max (s) | whole, median (s) | obligations (max) | load |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const r of rows) {
    const v = r.pipelines.filter((p) => p.verdict === 'valid');
    const times = r.pipelines.map((p) => p.verifyS).filter((x): x is number => x !== null);
    const labels = r.pipelines.map((p) => (p.verdict === 'valid' ? p.label : `${p.label} (**${p.verdict.slice(0, 80)}**)`)).join(', ');
    out.push(`| ${r.kernel} | ${labels} | ${v.length} of ${r.pipelines.length} | ${times.length ? fmt(median(times)) : '—'} | ${times.length ? fmt(Math.max(...times)) : '—'} | ${fmt(median(r.pipelines.map((p) => p.wholeS ?? 0)))} | ${Math.max(0, ...r.pipelines.map((p) => p.obligations))} | ${r.load} |`);
  }
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--kernels');
  const repsAt = argv.indexOf('--reps');
  const reps = repsAt >= 0 ? Number(argv[repsAt + 1]) : 1;
  const rows = benchMlir({ reps, only: at >= 0 ? new Set(argv[at + 1]!.split(',')) : null, say: (s) => process.stderr.write(s + '\n') });
  if (rows) process.stdout.write(mlirMarkdown(rows, reps) + '\n');
  process.exitCode = rows ? 0 : 2;
}
