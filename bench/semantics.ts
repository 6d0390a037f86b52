// Benchmark of the executable semantics (issue 3):
// - big-step throughput (assignments per second) on the 64×64×64 matrix product of
//   corpus/examples/matmul.sched (outer loop `par`: every access goes through U-PARLOOP's checks),
//   and on the same program with a sequential outer loop;
// - a hand-written JavaScript loop nest computing the same product in the same order with the
//   same f32 rounding, measured in the same run, as the reference (outputs compared bit for bit);
// - explorer throughput (states per second) on racy programs, with and without partial-order
//   reduction;
// - the spec's model (SARE evaluation) on the same product, for information.
// Medians of several repetitions of CPU time. `--json` prints one JSON document; `--quick` fewer
// repetitions.
//
//   npx tsx bench/semantics.ts [--json] [--quick]

import { readFileSync } from 'node:fs';
import { parseProgram } from '../core/language/parser.ts';
import { typecheckProgram } from '../core/language/typecheck.ts';
import { execute } from '../semantics/bigstep.ts';
import { explore, smallSetup } from '../semantics/explore.ts';
import { implProgram, initialMemory, specModel } from '../semantics/run.ts';
import { median } from '../proofs/fuzz/stats.ts';

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
const REPS = quick ? 5 : 15;
const log = (s: string): void => {
  if (!json) process.stdout.write(s + '\n');
};

/**
 * CPU time of f in ms (user + system of this process): on a shared machine, wall time measures the
 * other processes too, and penalises longer runs more (they are preempted more often).
 */
function cpuMs<T>(f: () => T): { ms: number; value: T } {
  const c0 = process.cpuUsage();
  const value = f();
  const c = process.cpuUsage(c0);
  return { ms: (c.user + c.system) / 1000, value };
}

const N = 64;
const src = readFileSync('corpus/examples/matmul.sched', 'utf8');
const params = new Map([
  ['N', N],
  ['M', N],
  ['P', N],
]);

interface Runner {
  readonly label: string;
  /** One timed run (setup excluded); returns its time in ms and the assignments it executed. */
  run(): { ms: number; writes: number };
  outputs(): Float32Array;
  input(name: string): Float32Array;
}

function bigStepRunner(text: string, label: string): Runner {
  const ci = typecheckProgram(parseProgram('matmul.sched', text)).impls[0]!;
  const model = specModel(ci, params, { seed: 1 });
  const prog = implProgram(ci);
  let last: ReturnType<typeof initialMemory> | null = null;
  return {
    label,
    run() {
      const m = initialMemory(ci, params, model);
      const { ms, value } = cpuMs(() => execute(prog.big, m.frame, m.space, {}));
      if (!value.ok) throw new Error(`big-step failed: ${value.error.message}`);
      last = m;
      return { ms, writes: value.stats.writes };
    },
    outputs: () => last!.arrays.get('c')!.cells!.data as Float32Array,
    input: (name) => last!.arrays.get(name)!.cells!.data as Float32Array,
  };
}

/** The same product, by hand: c[i,j] = 0; for k: c[i,j] = f32(c[i,j] + f32(a[i,k] * b[k,j])). */
function handRunner(a: () => Float32Array, b: () => Float32Array): Runner {
  const c = new Float32Array(N * N);
  const product = (A: Float32Array, B: Float32Array): void => {
    for (let i = 0; i < N; i++)
      for (let j = 0; j < N; j++) {
        c[i * N + j] = 0;
        for (let k = 0; k < N; k++) c[i * N + j] = Math.fround(c[i * N + j]! + Math.fround(A[i * N + k]! * B[k * N + j]!));
      }
  };
  return {
    label: 'hand-written JavaScript loop nest',
    run() {
      const A = a();
      const B = b();
      return { ms: cpuMs(() => product(A, B)).ms, writes: N * N * (N + 1) };
    },
    outputs: () => c,
    input: () => c,
  };
}

function sameBits(x: Float32Array, y: Float32Array): boolean {
  const a = new Uint32Array(x.buffer, x.byteOffset, x.length);
  const b = new Uint32Array(y.buffer, y.byteOffset, y.length);
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

// -- big-step ----------------------------------------------------------------------------------

// The three are measured in turn within each repetition, so that the load of the machine affects
// them alike; the first two repetitions (V8 compiling) are dropped.
const parR = bigStepRunner(src, 'matmul 64³, par i (U-PARLOOP checks)');
const seqR = bigStepRunner(src.replace('par i < N do', 'for i < N do'), 'matmul 64³, for i');
parR.run();
const handR = handRunner(() => parR.input('a'), () => parR.input('b'));
const runners = [parR, seqR, handR];
const times = runners.map(() => [] as number[]);
let assignments = 0;
for (let r = 0; r < REPS + 2; r++) {
  runners.forEach((x, i) => {
    const { ms, writes } = x.run();
    assignments = writes;
    if (r >= 2) times[i]!.push(ms);
  });
}
const med = times.map(median);
const [parMs, seqMs, handMs] = med as [number, number, number];
const identical = sameBits(parR.outputs(), handR.outputs()) && sameBits(seqR.outputs(), handR.outputs());
const perSecond = (ms: number): number => assignments / (ms / 1000);

log(`big-step semantics, ${REPS} repetitions, medians (${assignments} assignments per run)`);
for (const [x, ms] of [
  [parR, parMs],
  [seqR, seqMs],
] as const)
  log(`  ${x.label.padEnd(40)} ${ms.toFixed(2).padStart(8)} ms  ${(perSecond(ms) / 1e6).toFixed(1).padStart(7)} M assignments/s  ×${(ms / handMs).toFixed(1)} the hand-written loop`);
log(`  ${handR.label.padEnd(40)} ${handMs.toFixed(2).padStart(8)} ms  ${(perSecond(handMs) / 1e6).toFixed(1).padStart(7)} M assignments/s`);
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
        bigStep: [
          { label: parR.label, assignments, medianMs: parMs, assignmentsPerSecond: perSecond(parMs), ratioToHandWritten: parMs / handMs },
          { label: seqR.label, assignments, medianMs: seqMs, assignmentsPerSecond: perSecond(seqMs), ratioToHandWritten: seqMs / handMs },
        ],
        handWritten: { medianMs: handMs, assignmentsPerSecond: perSecond(handMs) },
        outputsIdentical: identical,
        model: { points, medianMs: modelMs },
        explorer: rows,
      },
      null,
      2,
    ) + '\n',
  );
}
