// Micro-benchmark of the Presburger layer (issue 5) on the thesis's examples: lexmax (Examples 8
// and 9, Fig. 5.5), iterated update ▶ (the same), and inclusion checks (Z3, cold cache). Every
// repetition re-parses its inputs (fresh tuple variables, so no memoised result is reused).
// Medians of CPU time (lexmax, ▶; the layer is synchronous) and of wall time (inclusion: the
// solver runs in worker threads). `--json` prints one JSON document; `--quick` fewer repetitions.
//
//   npx tsx bench/presburger.ts [--json] [--quick]

import {
  bind, clearDecisionCache, constant, domain, heapOf, isSubset, iteratedUpdate, lexmax, parseFormula,
  parseRel, parseSet, tupleSet, update, variable as v, type PRel,
} from '../core/presburger/index.ts';
import { shutdownZ3, z3Stats } from '../smt/z3.ts';
import { median } from '../proofs/fuzz/stats.ts';

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
const REPS = quick ? 7 : 31;

function cpuMs(f: () => unknown): number {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

const ex8 = () => parseRel('[x, N] -> { a[i] -> "A(□)"[j] : 0 <= x < N and i = x and j = x + 2 }');
const ex9 = () => parseRel('[x] -> { a[i] -> "A(□)"[j] : j = x + 3 and i = x mod 4 }');
const matK = () => heapOf([{ array: 'c', index: [v('i'), v('j')], ctx: 'R(□,□,□)', args: [v('i'), v('j'), v('k')] }]);
const matJ = () => update(
  heapOf([{ array: 'c', index: [v('i'), v('j')], ctx: 'R(□,□,□)', args: [v('i'), v('j'), constant(-1)] }]),
  iteratedUpdate(matK(), 'k', v('P')),
);

interface Case { readonly name: string; readonly input: () => PRel; readonly x: string; readonly lo: ReturnType<typeof constant>; readonly hi: ReturnType<typeof constant> }

const cases: Case[] = [
  { name: 'Example 8 (▶_{0≤x<4})', input: ex8, x: 'x', lo: constant(0), hi: constant(4) },
  { name: 'Example 9 (▶_{0≤x<N}, x mod 4)', input: ex9, x: 'x', lo: constant(0), hi: v('N') },
  { name: 'Fig. 5.5 loop k', input: matK, x: 'k', lo: constant(0), hi: v('P') },
  { name: 'Fig. 5.5 loop j', input: matJ, x: 'j', lo: constant(0), hi: v('M') },
];

const results: { kind: string; name: string; medianMs: number; reps: number }[] = [];
const log = (s: string) => { if (!json) process.stdout.write(`${s}\n`); };

function bench(kind: string, name: string, prepare: () => () => unknown): void {
  const ts: number[] = [];
  for (let r = 0; r < REPS; r++) {
    const run = prepare();
    ts.push(cpuMs(run));
  }
  const m = median(ts);
  results.push({ kind, name, medianMs: m, reps: REPS });
  log(`${kind.padEnd(16)} ${name.padEnd(34)} ${m.toFixed(3).padStart(9)} ms`);
}

log(`Presburger layer, medians of ${REPS} repetitions (CPU time; inclusion: wall time, cold cache)`);
for (const c of cases) {
  bench('lexmax', c.name, () => {
    const b = bind(domain(c.input()), [c.x], [{ lo: c.lo, hi: c.hi }]);
    return () => lexmax(b);
  });
}
for (const c of cases) {
  bench('iterated update', c.name, () => {
    const h = c.input();
    return () => iteratedUpdate(h, c.x, c.hi, c.lo);
  });
}

// Inclusion checks, each one Z3 query unless the simplifier decides it.
const inclusions: { name: string; make: () => [Parameters<typeof isSubset>[0], Parameters<typeof isSubset>[1], Parameters<typeof isSubset>[2]] }[] = [
  {
    name: 'Example 9 ▶ ⊆ thesis closed form',
    make: () => [iteratedUpdate(ex9(), 'x', v('N')), parseRel('[N] -> { a[i] -> "A(□)"[N + 2 - (N - 1 + 3i) mod 4] : 0 <= i < min(N, 4) }'), {}],
  },
  {
    name: 'Fig. 5.5 S-Seq ⊆ max(P, 0) − 1 form',
    make: () => [matJ(), parseRel('[P, i, j] -> { c[i, j] -> "R(□,□,□)"[i, j, max(P, 0) - 1] }'), {}],
  },
  {
    name: 'S-Assign bounds {c⟨i,j⟩} ⊆ c[N×M]',
    make: () => [tupleSet('c', [v('i'), v('j')]), parseSet('[N, M] -> { c[x, y] : 0 <= x < N and 0 <= y < M }'), { context: parseFormula('0 <= i < N and 0 <= j < M') }],
  },
  {
    name: 'reads ⊆ dom(h) (Fig. 5.5, k loop)',
    make: () => [parseSet('[i, j, k] -> { c[i, j]; a[i, k]; b[k, j] }'), domain(parseRel('[N, M, P] -> { c[x, y] -> C[x, y] : 0 <= x < N and 0 <= y < M; a[x, z] -> A[x, z] : 0 <= x < N and 0 <= z < P; b[z, y] -> B[z, y] : 0 <= z < P and 0 <= y < M }')), { context: parseFormula('0 <= i < N and 0 <= j < M and 0 <= k < P') }],
  },
];

const z0 = z3Stats();
for (const inc of inclusions) {
  const ts: number[] = [];
  let status = '';
  for (let r = 0; r < REPS; r++) {
    const [a, b, o] = inc.make();
    clearDecisionCache();
    const t0 = performance.now();
    status = (await isSubset(a, b, o)).status;
    ts.push(performance.now() - t0);
  }
  const m = median(ts);
  results.push({ kind: 'inclusion', name: inc.name, medianMs: m, reps: REPS });
  log(`${'inclusion'.padEnd(16)} ${inc.name.padEnd(34)} ${m.toFixed(3).padStart(9)} ms  (${status})`);
}
const z1 = z3Stats();
log(`solver: ${z1.calls - z0.calls} calls, ${(z1.ms - z0.ms).toFixed(0)} ms in total`);
if (json) process.stdout.write(`${JSON.stringify({ bench: 'presburger', reps: REPS, results, solver: { calls: z1.calls - z0.calls, ms: z1.ms - z0.ms } }, null, 2)}\n`);
await shutdownZ3();
