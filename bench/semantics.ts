// Benchmark of the executable semantics (issue 3):
// - big-step throughput (assignments per second) on the 64×64×64 matrix product of
//   corpus/examples/matmul.sched (outer loop `par`: every access goes through U-PARLOOP's checks),
//   and on the same program with a sequential outer loop;
// - a hand-written JavaScript loop nest computing the same product in the same order with the
//   same f32 rounding, measured in the same run, as the reference (outputs compared bit for bit);
// - explorer throughput (states per second) on racy programs, with and without partial-order
//   reduction;
// - the spec's model (SARE evaluation) on the same product, for information.
// Medians of several repetitions. `--json` prints one JSON document; `--quick` fewer repetitions.
//
//   npx tsx bench/semantics.ts [--json] [--quick]

import { readFileSync } from 'node:fs';
import { parseProgram } from '../core/parser.ts';
import { typecheckProgram } from '../core/typecheck.ts';
import { execute } from '../semantics/bigstep.ts';
import { explore, smallSetup } from '../semantics/explore.ts';
import { implProgram, initialMemory, specModel } from '../semantics/run.ts';

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
const REPS = quick ? 5 : 15;
const log = (s: string): void => {
  if (!json) process.stdout.write(s + '\n');
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function cpuMs<T>(f: () => T): { ms: number; value: T } {
  const t = performance.now();
  const value = f();
  return { ms: performance.now() - t, value };
}

const N = 64;
const src = readFileSync('corpus/examples/matmul.sched', 'utf8');
const params = new Map([
  ['N', N],
  ['M', N],
  ['P', N],
]);

function bigStepBench(text: string, label: string): { label: string; assignments: number; medianMs: number; perSecond: number; outputs: Float32Array; a: Float32Array; b: Float32Array } {
  const ci = typecheckProgram(parseProgram('matmul.sched', text)).impls[0]!;
  const model = specModel(ci, params, { seed: 1 });
  const prog = implProgram(ci);
  const times: number[] = [];
  let writes = 0;
  let last: ReturnType<typeof initialMemory> | null = null;
  for (let r = 0; r < REPS + 2; r++) {
    const m = initialMemory(ci, params, model);
    const { ms, value } = cpuMs(() => execute(prog.big, m.frame, m.space, {}));
    if (!value.ok) throw new Error(`big-step failed: ${value.error.message}`);
    writes = value.stats.writes;
    if (r >= 2) times.push(ms); // the first runs include V8's compilation
    last = m;
  }
  const med = median(times);
  const arr = (name: string): Float32Array => last!.arrays.get(name)!.cells!.data as Float32Array;
  return { label, assignments: writes, medianMs: med, perSecond: writes / (med / 1000), outputs: arr('c'), a: arr('a'), b: arr('b') };
}

/** The same product, by hand: c[i,j] = 0; for k: c[i,j] = f32(c[i,j] + f32(a[i,k] * b[k,j])). */
function handWritten(a: Float32Array, b: Float32Array): { medianMs: number; out: Float32Array } {
  const c = new Float32Array(N * N);
  const run = (): void => {
    for (let i = 0; i < N; i++)
      for (let j = 0; j < N; j++) {
        c[i * N + j] = 0;
        for (let k = 0; k < N; k++) c[i * N + j] = Math.fround(c[i * N + j]! + Math.fround(a[i * N + k]! * b[k * N + j]!));
      }
  };
  const times: number[] = [];
  for (let r = 0; r < REPS + 2; r++) {
    const { ms } = cpuMs(run);
    if (r >= 2) times.push(ms);
  }
  return { medianMs: median(times), out: c };
}

function sameBits(x: Float32Array, y: Float32Array): boolean {
  const a = new Uint32Array(x.buffer, x.byteOffset, x.length);
  const b = new Uint32Array(y.buffer, y.byteOffset, y.length);
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

// -- big-step ----------------------------------------------------------------------------------

const par = bigStepBench(src, 'matmul 64³, par i (U-PARLOOP checks)');
const seq = bigStepBench(src.replace('par i < N do', 'for i < N do'), 'matmul 64³, for i');
const hand = handWritten(par.a, par.b);
const handPerSecond = par.assignments / (hand.medianMs / 1000);
const identical = sameBits(par.outputs, hand.out) && sameBits(seq.outputs, hand.out);

log(`big-step semantics, ${REPS} repetitions, medians`);
for (const r of [par, seq]) log(`  ${r.label.padEnd(40)} ${r.medianMs.toFixed(2).padStart(8)} ms  ${(r.perSecond / 1e6).toFixed(1).padStart(7)} M assignments/s  ×${(r.medianMs / hand.medianMs).toFixed(1)} the hand-written loop`);
log(`  ${'hand-written JavaScript loop nest'.padEnd(40)} ${hand.medianMs.toFixed(2).padStart(8)} ms  ${(handPerSecond / 1e6).toFixed(1).padStart(7)} M assignments/s`);
log(`  outputs identical bit for bit: ${identical ? 'yes' : 'NO'}`);

// -- spec model --------------------------------------------------------------------------------

const ci0 = typecheckProgram(parseProgram('matmul.sched', src)).impls[0]!;
const modelTimes: number[] = [];
let points = 0;
for (let r = 0; r < (quick ? 2 : 4); r++) {
  const { ms, value } = cpuMs(() => {
    const m = specModel(ci0, params, { seed: 1 });
    for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) m.tensor('C', [i, j]);
    return m.computed;
  });
  modelTimes.push(ms);
  points = value;
}
const modelMs = median(modelTimes);
log(`spec model (SARE evaluation): ${points} points in ${modelMs.toFixed(0)} ms (${((points / modelMs) * 1000 / 1e6).toFixed(2)} M points/s)`);

// -- explorer ----------------------------------------------------------------------------------

const EXPLORE = `
spec counter {
  param N;
  input X(i): i32;
  output Z(): i32 = 0;
  output Y(i): i32 = 0 where 0 <= i && i < N;
}
// Lost updates: each thread copies the counter, then writes back copy + x[i].
impl lost_update of counter {
  input  x: i32[N] = X;
  output z: i32[] = Z;
  z[] := 0;
  par i < N do
    allocate t: i32[] in {
      t[] := z[];
      z[] := t[] + x[i]
    }
}
// Independent threads with a shared read-only input: partial-order reduction's best case.
impl independent of counter {
  input  x: i32[N] = X;
  output y: i32[N] = Y;
  par i < N do
    for k < 3 do
      y[i] := x[i] + x[min(i + 1, N - 1)] + i32(k)
}
`;
const exProg = typecheckProgram(parseProgram('explore.sched', EXPLORE));
interface ExploreRow {
  impl: string;
  n: number;
  por: boolean;
  states: number;
  finals: number;
  medianMs: number;
  statesPerSecond: number;
}
const rows: ExploreRow[] = [];
for (const [name, n, porModes] of [
  ['lost_update', 4, [true, false]],
  ['independent', 5, [true, false]],
] as const) {
  const ci = exProg.impls.find((i) => i.impl.name === name)!;
  const ps = new Map([['N', BigInt(n)]]);
  const model = specModel(ci, new Map([['N', n]]), { seed: 1 });
  for (const por of porModes) {
    const times: number[] = [];
    let res: ReturnType<typeof explore> | null = null;
    for (let r = 0; r < (quick ? 2 : 4); r++) {
      const s = smallSetup(ci, ps, model, { mutable: false });
      const { ms, value } = cpuMs(() => explore(s.prog, s.space, s.init, s.globals, { por, maxStates: 2_000_000 }));
      times.push(ms);
      res = value;
    }
    const med = median(times);
    rows.push({ impl: name, n, por, states: res!.states, finals: res!.finals, medianMs: med, statesPerSecond: res!.states / (med / 1000) });
  }
}
log('explorer (small-step, state hashing), medians');
for (const r of rows) log(`  ${`${r.impl} N=${r.n}${r.por ? '' : ' (no POR)'}`.padEnd(30)} ${String(r.states).padStart(8)} states  ${String(r.finals).padStart(3)} finals  ${r.medianMs.toFixed(0).padStart(6)} ms  ${Math.round(r.statesPerSecond).toLocaleString('en-US').padStart(9)} states/s`);

if (json) {
  process.stdout.write(
    JSON.stringify(
      {
        repetitions: REPS,
        bigStep: [par, seq].map((r) => ({ label: r.label, assignments: r.assignments, medianMs: r.medianMs, assignmentsPerSecond: r.perSecond, ratioToHandWritten: r.medianMs / hand.medianMs })),
        handWritten: { medianMs: hand.medianMs, assignmentsPerSecond: handPerSecond },
        outputsIdentical: identical,
        model: { points, medianMs: modelMs },
        explorer: rows,
      },
      null,
      2,
    ) + '\n',
  );
}
