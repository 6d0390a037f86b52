// `npm run bench`: the benchmark suite (issue 10).
// - verification time per Halide kernel of thesis Table 6.1 (median of fresh-process runs), split
//   into symbolic evaluation (of which Presburger work), solver and replay, beside the OCaml
//   prototype's time and the ratio; with the solver pool on every core (the default), on one core
//   (`--jobs 1`), and, when the Z3 command line is installed (then the default's first solver),
//   with the WASM build alone (SCHED_SOLVER=wasm), the configurations taking turns run by run so
//   that they see the same load;
// - concrete execution and small-step exploration (bench/semantics.ts), Presburger micro-benchmarks
//   (bench/presburger.ts);
// - the "real Halide 14" table (bench/halide-real.ts): each Table 6.1 kernel through `sched halide`
//   (lowering, translation, verification and the whole process) beside the prototype's time and
//   the hand translation's, measured side by side;
// - how verification time grows with the stencil chain's length (table, least-squares seconds per
//   stage, bench/scaling.svg) and with the tile count (blur with strips of 2…256 rows);
// - wall time of the whole corpus (`sched corpus --all`) and of the test suite (`npm test`), not in
//   --quick runs.
// Writes bench/results.json and the generated block of bench/RESULTS.md, and with the Halide
// table the README's (its `halide table` block), then says which kernels miss issue 36's limits.
//
//   npm run bench [-- --quick] [--json] [--only verify|halide|semantics|presburger|scaling|tiles|suite]
//                 [--kernels blur,sgemm1024,…]

import { spawnSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { median } from '../proofs/fuzz/stats.ts';
import { benchHalide, halideMarkdown, halideReadmeTable, mergeRows, shortfallSummary, writeReadmeBlock, type RealRow } from './halide-real.ts';

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const json = argv.includes('--json');
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : null;
const REPS = quick ? 1 : 3;
const kernelsOnly = argv.includes('--kernels') ? new Set(argv[argv.indexOf('--kernels') + 1]!.split(',')) : null;
const CORES = availableParallelism();
/** The Z3 command line: the default then asks it first, and a SCHED_SOLVER=wasm column is added. */
const NATIVE = spawnSync('z3', ['--version'], { encoding: 'utf8' }).status === 0;
const load = (): string => loadavg().map((x) => x.toFixed(1)).join(' ');
const TSX = join('node_modules', '.bin', 'tsx');
const say = (s: string): void => {
  if (!json) process.stderr.write(s + '\n');
};

/** Thesis Table 6.1: the OCaml prototype's verification times (seconds; Intel i9-9900). */
interface Kernel {
  readonly name: string;
  readonly file: string;
  readonly impl: string;
  /** Seconds, or null when the prototype timed out (> 900 s). `<1` is recorded as 1. */
  readonly thesis: number | null;
  readonly thesisText: string;
  readonly expected: string;
}

const KERNELS: readonly Kernel[] = [
  { name: 'blur', file: 'corpus/halide/blur.sched', impl: 'blur_halide', thesis: 1, thesisText: '<1', expected: 'valid' },
  { name: 'cmm1024', file: 'corpus/halide/cmm1024.sched', impl: 'cmm1024_halide', thesis: 2.6, thesisText: '2.6', expected: 'valid' },
  { name: 'sgemm1024', file: 'corpus/halide/sgemm1024.sched', impl: 'sgemm1024_halide', thesis: 1, thesisText: '1', expected: 'valid' },
  { name: 'sqsgemm', file: 'corpus/halide/sqsgemm.sched', impl: 'sqsgemm_halide', thesis: 15.1, thesisText: '15.1', expected: 'valid' },
  { name: 'bigsqsgemm', file: 'corpus/halide/bigsqsgemm.sched', impl: 'bigsqsgemm_halide', thesis: 2.7, thesisText: '2.7', expected: 'valid' },
  { name: 'sgemm', file: 'corpus/halide/sgemm.sched', impl: 'sgemm_halide', thesis: 204, thesisText: '204', expected: 'valid' },
  { name: 'bigsgemm', file: 'corpus/halide/bigsgemm.sched', impl: 'bigsgemm_halide', thesis: 12.1, thesisText: '12.1', expected: 'valid' },
  { name: 'sc1', file: 'corpus/halide/sc1.sched', impl: 'sc1_halide', thesis: 12.5, thesisText: '12.5', expected: 'valid' },
  { name: 'sc32', file: 'corpus/halide/sc32.sched', impl: 'sc32_halide', thesis: 293, thesisText: '293', expected: 'valid' },
  { name: 'dsc', file: 'corpus/halide/dsc.sched', impl: 'dsc_halide', thesis: 103, thesisText: '103', expected: 'valid' },
  { name: 'conv', file: 'corpus/halide/conv_layer.sched', impl: 'conv_layer_halide', thesis: 132, thesisText: '132', expected: 'valid' },
  { name: 'sdot', file: 'corpus/halide/sdot.sched', impl: 'sdot_halide', thesis: 1, thesisText: '<1', expected: 'valid' },
  { name: 'harris', file: 'corpus/halide/harris.sched', impl: 'harris_halide', thesis: 44.8, thesisText: '44.8', expected: 'valid' },
  { name: 'unsharp', file: 'corpus/halide/unsharp.sched', impl: 'unsharp_halide', thesis: 6.1, thesisText: '6.1', expected: 'valid' },
  { name: 'nl_means', file: 'corpus/halide/nl_means.sched', impl: 'nl_means_halide', thesis: null, thesisText: 'timeout (>900)', expected: 'valid' },
  { name: 'sgemmTA', file: 'corpus/halide/sgemmTA.sched', impl: 'sgemmTA_halide', thesis: 10.4, thesisText: '10.4 (rejected)', expected: 'invalid' },
  { name: 'sgemmTB', file: 'corpus/halide/sgemmTB.sched', impl: 'sgemmTB_halide', thesis: 34.7, thesisText: '34.7 (rejected)', expected: 'invalid' },
];

interface One {
  verdict: string;
  class: string | null;
  ms: number;
  vcs: number;
  timings: { symbolic: number; presburger: number; smt: number; replay: number };
}

/** How a kernel is verified: solver processes, and which solver. */
interface Config {
  readonly key: 'all' | 'one' | 'wasm';
  readonly jobs: number;
  /** SCHED_SOLVER: the default (`auto`), or the WASM build alone. */
  readonly solver: 'auto' | 'wasm';
}
const ALL: Config = { key: 'all', jobs: CORES, solver: 'auto' };
const WASM: Config = { key: 'wasm', jobs: CORES, solver: 'wasm' };
const CONFIGS: readonly Config[] = [ALL, { key: 'one', jobs: 1, solver: 'auto' }, ...(NATIVE ? [WASM] : [])];

/** One verification in a fresh process; null on a crash or the time limit. */
function verifyOnce(file: string, impl: string, timeoutS: number, stdin?: string, config: Config = ALL): One | { error: string } {
  const env = { ...process.env, SCHED_SOLVER: config.solver };
  const r = spawnSync(TSX, ['bench/verify-one.ts', file, impl, '--jobs', String(config.jobs), ...(stdin ? ['--stdin'] : [])], { input: stdin, encoding: 'utf8', timeout: timeoutS * 1000, maxBuffer: 1 << 24, env });
  if (r.error || r.status !== 0) return { error: r.error ? `${r.error.message}` : `exit ${r.status}: ${(r.stderr ?? '').split('\n').filter((l) => l && !/nodedir/.test(l)).slice(-2).join(' ')}` };
  const line = r.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as One;
  } catch {
    return { error: `no result (${line.slice(0, 80)})` };
  }
}

interface KernelRow {
  kernel: string;
  thesis: string;
  ratio: number | null;
  verdict: string;
  expected: string;
  medianS: number | null;
  symbolicS: number | null;
  presburgerS: number | null;
  smtS: number | null;
  replayS: number | null;
  vcs: number | null;
  runs: number;
  note: string | null;
  /** Medians on one core (`--jobs 1`) and with the WASM build alone (all cores), if measured. */
  oneCoreS?: number | null;
  wasmS?: number | null;
  /** Load average when the kernel was measured (other processes share the machine). */
  load?: string;
}

function benchVerify(): KernelRow[] {
  const rows: KernelRow[] = [];
  for (const k of KERNELS) {
    if (kernelsOnly && !kernelsOnly.has(k.name)) continue;
    const runs = new Map<Config['key'], One[]>(CONFIGS.map((c) => [c.key, []]));
    const failed = new Set<Config['key']>();
    let note: string | null = null;
    const l0 = load();
    // The configurations take turns, so that each sees the same load.
    for (let i = 0; i < REPS; i++) {
      let long = false;
      for (const c of CONFIGS) {
        if (failed.has(c.key)) continue;
        const r = verifyOnce(k.file, k.impl, quick ? 300 : 1800, undefined, c);
        if ('error' in r) {
          failed.add(c.key);
          if (c === ALL) note = r.error;
          continue;
        }
        runs.get(c.key)!.push(r);
        if (r.ms > 60_000) long = true;
      }
      // A kernel that takes minutes is measured once (the table says how many runs).
      if (long) break;
    }
    const main = runs.get('all')!;
    const med = (key: Config['key']): number | null => {
      const xs = runs.get(key) ?? [];
      return xs.length ? median(xs.map((o) => o.ms)) / 1000 : null;
    };
    const pick = (f: (o: One) => number): number | null => (main.length ? median(main.map(f)) / 1000 : null);
    const medianS = med('all');
    const row: KernelRow = {
      kernel: k.name,
      thesis: k.thesisText,
      ratio: medianS !== null && k.thesis !== null ? medianS / k.thesis : null,
      verdict: main.length ? `${main[0]!.verdict}${main[0]!.class ? ` ${main[0]!.class}` : ''}` : 'error',
      expected: k.expected,
      medianS,
      symbolicS: pick((o) => o.timings.symbolic),
      presburgerS: pick((o) => o.timings.presburger),
      smtS: pick((o) => o.timings.smt),
      replayS: pick((o) => o.timings.replay),
      vcs: main.length ? main[0]!.vcs : null,
      runs: main.length,
      note,
      oneCoreS: med('one'),
      wasmS: NATIVE ? med('wasm') : null,
      load: `${l0} → ${load()}`,
    };
    // Every configuration must give the kernel's verdict: speed never changes an answer.
    for (const c of CONFIGS) {
      for (const o of runs.get(c.key) ?? []) {
        const v = `${o.verdict}${o.class ? ` ${o.class}` : ''}`;
        if (v !== row.verdict) row.note = `${row.note ?? ''} ${c.key}: ${v}`.trim();
      }
    }
    rows.push(row);
    say(`verify ${k.name.padEnd(11)} ${row.verdict.padEnd(22)} ${fmt(medianS)} s all cores, ${fmt(row.oneCoreS ?? null)} s one core${NATIVE ? `, ${fmt(row.wasmS ?? null)} s WASM only` : ''} (thesis ${k.thesisText}; load ${row.load})${row.note ? ` ${row.note}` : ''}`);
  }
  return rows;
}

function childJson(script: string): unknown {
  const r = spawnSync(TSX, [script, '--json', ...(quick ? ['--quick'] : [])], { encoding: 'utf8', maxBuffer: 1 << 24, timeout: 1_800_000 });
  if (r.status !== 0) return { error: `exit ${r.status}` };
  try {
    return JSON.parse(r.stdout);
  } catch {
    return { error: 'unparsable output' };
  }
}

/** REPS verifications of one generated program: the median time, the verdict, the obligations. */
function timed(file: string, impl: string, timeoutS: number, config: Config = ALL): { medianS: number | null; verdict: string; vcs: number | null } {
  const runs: One[] = [];
  for (let i = 0; i < REPS; i++) {
    const r = verifyOnce(file, impl, timeoutS, undefined, config);
    if ('error' in r) break;
    runs.push(r);
  }
  return { medianS: runs.length ? median(runs.map((o) => o.ms)) / 1000 : null, verdict: runs[0]?.verdict ?? 'error', vcs: runs[0]?.vcs ?? null };
}

interface ScalingRow {
  stages: number;
  medianS: number | null;
  verdict: string;
  vcs: number | null;
  /** With the WASM build alone, when the Z3 command line is installed (else that is the default). */
  wasmS?: number | null;
}

/** Least-squares seconds per stage, and R² of the line (linear growth: R² near 1). */
function growth(rows: readonly { stages: number; s: number | null }[]): { perStage: number; r2: number } | null {
  const pts = rows.filter((r): r is { stages: number; s: number } => r.s !== null);
  if (pts.length < 2) return null;
  const n = pts.length;
  const mx = pts.reduce((a, p) => a + p.stages, 0) / n;
  const my = pts.reduce((a, p) => a + p.s, 0) / n;
  const sxy = pts.reduce((a, p) => a + (p.stages - mx) * (p.s - my), 0);
  const sxx = pts.reduce((a, p) => a + (p.stages - mx) ** 2, 0);
  const syy = pts.reduce((a, p) => a + (p.s - my) ** 2, 0);
  const perStage = sxy / sxx;
  return { perStage, r2: syy === 0 ? 1 : (sxy * sxy) / (sxx * syy) };
}

async function benchScaling(): Promise<ScalingRow[]> {
  const gen = (await import('../corpus/halide/gen/stencil_chain.mjs')) as { chain(S: number): string };
  const dir = mkdtempSync(join(tmpdir(), 'sched-bench-'));
  const rows: ScalingRow[] = [];
  for (const S of quick ? [1, 2, 4, 8] : [1, 2, 4, 8, 16, 32]) {
    const file = join(dir, `sc${S}.sched`);
    writeFileSync(file, gen.chain(S));
    const row: ScalingRow = { stages: S, ...timed(file, `sc${S}_halide`, quick ? 300 : 900) };
    if (NATIVE) row.wasmS = timed(file, `sc${S}_halide`, quick ? 300 : 900, WASM).medianS;
    rows.push(row);
    say(`scaling stencil chain ${S} stages: ${row.medianS?.toFixed(2) ?? '—'} s${NATIVE ? `, ${fmt(row.wasmS ?? null)} s WASM only` : ''} (${row.verdict}; load ${load()})`);
  }
  return rows;
}

interface TileRow {
  stripHeight: number;
  medianS: number | null;
  verdict: string;
  vcs: number | null;
}

/**
 * How verification time grows with the tile count: blur with its strip height T instead of 32
 * (the strips of one image: ⌈H / T⌉, a parameter of the proof, never enumerated). The file is
 * corpus/halide/blur.sched's spec and blur_halide with 32 replaced by T.
 */
function blurWithStrips(T: number): string {
  const text = readFileSync('corpus/halide/blur.sched', 'utf8');
  const spec = text.slice(text.indexOf('spec blur {'), text.indexOf('impl blur_halide'));
  const implStart = text.indexOf('impl blur_halide');
  const impl = text.slice(implStart, text.indexOf('\n}\n', implStart) + 3);
  const strips = impl
    .replace('H >= 32', `H >= ${T}`)
    .replace('(H + 31) / 32', `(H + ${T - 1}) / ${T}`)
    .replace('min(32 * yo, H - 32)', `min(${T} * yo, H - ${T})`)
    .replace('for yr < 34', `for yr < ${T + 2}`);
  const originals = ['H >= 32', '(H + 31) / 32', 'min(32 * yo, H - 32)', 'for yr < 34'];
  if (T !== 32 && originals.some((o) => strips.includes(o) || !impl.includes(o))) throw new Error('blur.sched changed: the strip height was not substituted');
  return `${spec}${strips}`;
}

function benchTiles(): TileRow[] {
  const dir = mkdtempSync(join(tmpdir(), 'sched-bench-'));
  const rows: TileRow[] = [];
  for (const T of quick ? [4, 32, 256] : [2, 4, 8, 16, 32, 64, 128, 256]) {
    const file = join(dir, `blur${T}.sched`);
    writeFileSync(file, blurWithStrips(T));
    const row = { stripHeight: T, ...timed(file, 'blur_halide', 300) };
    rows.push(row);
    say(`tiles: blur with strips of ${T} rows: ${row.medianS?.toFixed(2) ?? '—'} s (${row.verdict})`);
  }
  return rows;
}

/** A small SVG line plot of verification time against the number of stages (log2 x axis). */
function scalingSvg(rows: readonly ScalingRow[]): string {
  const pts = rows.filter((r) => r.medianS !== null);
  const W = 480;
  const H = 300;
  const pad = 50;
  const maxX = Math.log2(Math.max(...pts.map((r) => r.stages), 2));
  const maxY = Math.max(...pts.map((r) => r.medianS!), 1);
  const x = (s: number): number => pad + (Math.log2(s) / maxX) * (W - 2 * pad);
  const y = (t: number): number => H - pad - (t / maxY) * (H - 2 * pad);
  const path = pts.map((r, i) => `${i ? 'L' : 'M'}${x(r.stages).toFixed(1)},${y(r.medianS!).toFixed(1)}`).join(' ');
  const ticks = pts.map((r) => `<text x="${x(r.stages)}" y="${H - pad + 18}" text-anchor="middle">${r.stages}</text>`).join('');
  const yt = [0, 0.5, 1].map((f) => `<text x="${pad - 6}" y="${y(f * maxY) + 4}" text-anchor="end">${(f * maxY).toFixed(1)}</text>`).join('');
  const dots = pts.map((r) => `<circle cx="${x(r.stages)}" cy="${y(r.medianS!)}" r="3"/>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="11">
<rect width="100%" height="100%" fill="white"/>
<line x1="${pad}" y1="${H - pad}" x2="${W - pad}" y2="${H - pad}" stroke="black"/><line x1="${pad}" y1="${pad}" x2="${pad}" y2="${H - pad}" stroke="black"/>
${ticks}${yt}
<text x="${W / 2}" y="${H - 10}" text-anchor="middle">stages of the stencil chain</text>
<text x="14" y="${H / 2}" transform="rotate(-90 14 ${H / 2})" text-anchor="middle">verification time (s, median)</text>
<path d="${path}" fill="none" stroke="steelblue" stroke-width="2"/>${dots}
</svg>
`;
}

function fmt(x: number | null, d = 2): string {
  return x === null || Number.isNaN(x) ? '—' : x.toFixed(d);
}

function machine(): string {
  const c = cpus();
  return `${c[0]?.model ?? 'unknown CPU'}, ${c.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
}

function markdown(r: Results): string {
  const out: string[] = [`Machine: ${r.machine}. ${quick ? 'Quick run (1 repetition).' : `Medians of ${REPS} runs, each in a fresh process.`}`, ''];
  if (r.verify) {
    out.push(`Ours: the default, all cores (${r.cores ?? '?'} solver slots; each asks Debian's z3 command line when it is installed, and z3-solver's WASM build on what it leaves undecided); one core: \`--jobs 1\`; WASM only: \`SCHED_SOLVER=wasm\` (all cores; the default without z3), when z3 is installed. The configurations take turns run by run. Ratio: ours / thesis. Symbolic, Presburger, solver: of the default runs (solver: time summed over the queries, which overlap).`, '');
    out.push('| kernel | verdict | ours (s) | one core (s) | WASM only (s) | runs | thesis (s) | ratio | WASM only ratio | symbolic (s) | of which Presburger | solver (s) | replay (s) | obligations | load |');
    out.push('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
    for (const k of r.verify) {
      const v = k.verdict.startsWith(k.expected) ? k.verdict : `**${k.verdict}** (expected ${k.expected})`;
      const th = KERNELS.find((x) => x.name === k.kernel)?.thesis ?? null;
      const wasmRatio = k.wasmS != null && th !== null ? fmt(k.wasmS / th) : '—';
      out.push(`| ${k.kernel} | ${v}${k.note ? ` (${k.note})` : ''} | ${fmt(k.medianS)} | ${fmt(k.oneCoreS ?? null)} | ${fmt(k.wasmS ?? null)} | ${k.runs} | ${k.thesis} | ${k.ratio === null ? '—' : fmt(k.ratio)} | ${wasmRatio} | ${fmt(k.symbolicS)} | ${fmt(k.presburgerS)} | ${fmt(k.smtS)} | ${fmt(k.replayS)} | ${k.vcs ?? '—'} | ${k.load ?? '—'} |`);
    }
    out.push('');
  }
  if (r.halide) out.push('Real Halide 14: each Table 6.1 kernel through `sched halide` (bench/halide-real.ts).', '', halideMarkdown(r.halide, REPS), '');
  if (r.scaling) {
    out.push('Stencil chain: verification time against the number of stages (bench/scaling.svg).', '');
    out.push(`| stages | ${r.scaling.map((s) => s.stages).join(' | ')} |`, `| --- | ${r.scaling.map(() => '---:').join(' | ')} |`);
    out.push(`| time (s) | ${r.scaling.map((s) => fmt(s.medianS)).join(' | ')} |`);
    if (r.scaling.some((s) => s.wasmS != null)) out.push(`| WASM only (s) | ${r.scaling.map((s) => fmt(s.wasmS ?? null)).join(' | ')} |`);
    out.push('');
    const g = growth(r.scaling.map((s) => ({ stages: s.stages, s: s.medianS })));
    const gw = growth(r.scaling.map((s) => ({ stages: s.stages, s: s.wasmS ?? null })));
    if (g) out.push(`Growth (least squares): ${fmt(g.perStage)} s per stage, R² ${fmt(g.r2, 3)}${gw ? `; WASM only ${fmt(gw.perStage)} s per stage, R² ${fmt(gw.r2, 3)}` : ''}.`, '');
  }
  if (r.tiles) {
    out.push('Tile count: blur verified with strips of T rows instead of 32 (⌈H / T⌉ parallel strips, a symbolic count):', '');
    out.push(`| strip height T | ${r.tiles.map((t) => t.stripHeight).join(' | ')} |`, `| --- | ${r.tiles.map(() => '---:').join(' | ')} |`);
    out.push(`| time (s) | ${r.tiles.map((t) => fmt(t.medianS)).join(' | ')} |`);
    out.push(`| verdict | ${r.tiles.map((t) => t.verdict).join(' | ')} |`, '');
  }
  if (r.suite) {
    out.push('Whole runs (wall clock, one run each):', '');
    out.push('| run | wall (s) | load at start | result |', '| --- | ---: | --- | --- |');
    for (const x of r.suite) out.push(`| \`${x.command}\` | ${fmt(x.wallS, 0)} | ${x.load} | ${x.result} |`);
    out.push('');
  }
  const pres = r.presburger as { results?: { kind: string; name: string; medianMs: number; reps: number }[] } | null;
  if (pres?.results) {
    out.push('Presburger layer on the thesis\'s examples (bench/presburger.ts, medians):', '');
    out.push('| operation | example | median (ms) | runs |', '| --- | --- | ---: | ---: |');
    for (const x of pres.results) out.push(`| ${x.kind} | ${x.name} | ${fmt(x.medianMs, 3)} | ${x.reps} |`);
    out.push('');
  }
  const sem = r.semantics as { bigStep?: { label: string; assignmentsPerSecond: number; ratioToHandWritten: number }[]; handWritten?: { assignmentsPerSecond: number }; explorer?: { impl: string; n: number; por: boolean; states: number; statesPerSecond: number }[] } | null;
  if (sem?.bigStep) {
    out.push('Concrete execution, 64×64×64 matrix product (CPU-time medians, same run):', '');
    out.push('| run | assignments/s | time vs hand-written JS |', '| --- | ---: | ---: |');
    for (const b of sem.bigStep) out.push(`| ${b.label} | ${Math.round(b.assignmentsPerSecond).toLocaleString('en-US')} | ×${fmt(b.ratioToHandWritten)} |`);
    if (sem.handWritten) out.push(`| hand-written JavaScript loop nest | ${Math.round(sem.handWritten.assignmentsPerSecond).toLocaleString('en-US')} | ×1.00 |`);
    out.push('');
    if (sem.explorer) {
      out.push('| exploration | states | states/s |', '| --- | ---: | ---: |');
      for (const e of sem.explorer) out.push(`| ${e.impl} N=${e.n}${e.por ? ' (POR)' : ' (no POR)'} | ${e.states} | ${Math.round(e.statesPerSecond).toLocaleString('en-US')} |`);
      out.push('');
    }
  }
  return out.join('\n');
}

interface SuiteRow {
  command: string;
  wallS: number;
  load: string;
  result: string;
}

/** The whole corpus and the test suite, timed once each (minutes; not in --quick runs). */
function benchSuite(): SuiteRow[] {
  const rows: SuiteRow[] = [];
  const runs: { command: string; args: string[]; env?: Record<string, string> }[] = [
    { command: 'sched corpus --all', args: ['cli/sched.js', 'corpus', '--all'] },
    ...(NATIVE ? [{ command: 'SCHED_SOLVER=wasm sched corpus --all', args: ['cli/sched.js', 'corpus', '--all'], env: { SCHED_SOLVER: 'wasm' } }] : []),
    { command: 'npm test', args: ['node_modules/vitest/vitest.mjs', 'run'] },
  ];
  for (const x of runs) {
    const l0 = load();
    const t0 = performance.now();
    const r = spawnSync(process.execPath, x.args, { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 3_600_000, env: { ...process.env, ...x.env } });
    const wallS = (performance.now() - t0) / 1000;
    const last = `${r.stdout ?? ''}`.trim().split('\n').filter((l) => /cases:|Tests |passed|failed/.test(l)).pop() ?? `exit ${r.status}`;
    rows.push({ command: x.command, wallS, load: l0, result: last.replace(/\x1b\[[0-9;]*m/g, '').trim() });
    say(`suite: ${x.command}: ${wallS.toFixed(0)} s (load ${l0}) ${last}`);
  }
  return rows;
}

interface Results {
  machine: string;
  cores?: number;
  suite?: SuiteRow[] | null;
  quick: boolean;
  verify: KernelRow[] | null;
  /** The real Halide 14 table (bench/halide-real.ts). */
  halide?: RealRow[] | null;
  scaling: ScalingRow[] | null;
  tiles?: TileRow[] | null;
  semantics: unknown;
  presburger: unknown;
}

// `--only X` refreshes one part: the others are kept from the last bench/results.json.
const previous = only && existsSync('bench/results.json') ? (JSON.parse(readFileSync('bench/results.json', 'utf8')) as Results) : null;
const results: Results = previous ? { ...previous, machine: machine(), cores: CORES } : { machine: machine(), cores: CORES, quick, verify: null, scaling: null, tiles: null, semantics: null, presburger: null, suite: null };
if (!only || only === 'verify') results.verify = benchVerify();
// A --kernels run replaces those kernels' rows and keeps the others of the last run.
const halideRun = !only || only === 'halide';
if (halideRun) results.halide = mergeRows(previous?.halide, benchHalide({ reps: REPS, only: kernelsOnly, say }));
if (!only || only === 'scaling') results.scaling = await benchScaling();
if (!only || only === 'tiles') results.tiles = benchTiles();
if (!only || only === 'semantics') results.semantics = childJson('bench/semantics.ts');
if (!only || only === 'presburger') results.presburger = childJson('bench/presburger.ts');
if ((!only && !quick) || only === 'suite') results.suite = benchSuite();

writeFileSync('bench/results.json', JSON.stringify(results, null, 2) + '\n');
if (results.scaling) writeFileSync('bench/scaling.svg', scalingSvg(results.scaling));
const md = markdown(results);
// bench/RESULTS.md: the block between its markers is this run's; the measurement logs around
// it are written by hand.
const page = existsSync('bench/RESULTS.md') ? readFileSync('bench/RESULTS.md', 'utf8') : '# Benchmark results\n\n<!-- bench:start -->\n<!-- bench:end -->\n';
const start = '<!-- bench:start -->';
const end = '<!-- bench:end -->';
if (!page.includes(start) || !page.includes(end)) throw new Error(`bench/RESULTS.md has no ${start} … ${end} block to rewrite`);
writeFileSync('bench/RESULTS.md', page.slice(0, page.indexOf(start) + start.length) + `\n${md}\n` + page.slice(page.indexOf(end)));
// The README's Halide table: from the same rows as the bench table's.
if (halideRun && results.halide) writeReadmeBlock('README.md', halideReadmeTable(results.halide, results.machine, REPS));
if (json) process.stdout.write(JSON.stringify(results, null, 2) + '\n');
else process.stdout.write(md + '\n' + (halideRun && results.halide ? `\n${shortfallSummary(results.halide)}\n` : ''));
