// The generator of `sched fuzz --compiler mlir` (proofs/fuzz/mlir-gen.ts) and its runner-only
// campaign (proofs/fuzz/mlir-campaign.ts). Without MLIR: programs are deterministic, and every
// access of every generated or shrunk program is in bounds for every value of the parameter (an
// independent walk of the iteration domain, not the generator's interval arithmetic). With Debian's
// MLIR 16: a batch of random programs parses, runs, and agrees under a pipeline of passes MLIR 16
// compiles correctly; the unrolling bug the campaign found is found again and shrunk.

import { describe, expect, it } from 'vitest';
import { type Aff, caseSeed, genPipeline, genProgram, pipelineText, type Program, programText, Rng, shapes, shrinkPipeline, shrinkProgram, type Stmt, type Val } from '../proofs/fuzz/mlir-gen.ts';
import { campaign, caseFile, knownSignature, runCase, shrink, signatureOf } from '../proofs/fuzz/mlir-campaign.ts';
import { MLIR_PACKAGES, mlirMissing } from '../compilers/mlir/tools.ts';
import { type MlirCase, mergeMlirLogs } from '../proofs/fuzz/mlir.ts';

const MISSING = mlirMissing();
if (MISSING !== null) process.stderr.write(`mlir-fuzz.test: MLIR campaign runs skipped: ${MISSING}\n`);

/** Every access of P out of bounds when run with the parameter at N (a direct walk of the loops). */
function outOfBounds(p: Program, n: number): string[] {
  const sh = shapes(p);
  const bad: string[] = [];
  const ev = (a: Aff, env: Map<string, number>): number => a.terms.reduce((s, [v, k]) => s + k * env.get(v)!, a.c);
  const check = (array: string, idx: readonly Aff[], env: Map<string, number>): void => {
    const dims = sh.get(array)!;
    idx.forEach((a, d) => {
      const x = ev(a, env);
      if (x < 0 || x >= dims[d]!) bad.push(`${array}[${d}] = ${x} of ${dims[d]}`);
    });
  };
  const val = (v: Val, env: Map<string, number>): void => {
    if (v.k === 'load') check(v.array, v.idx, env);
    if (v.k === 'bin') {
      val(v.a, env);
      val(v.b, env);
    }
  };
  const run = (ss: readonly Stmt[], env: Map<string, number>): void => {
    for (const s of ss) {
      if (s.k === 'for') {
        const lo = Math.max(...s.lb.map((a) => ev(a, env)));
        const hi = s.fill ? sh.get(s.fill.array)![s.fill.dim]! : Math.min(...s.ub.map((a) => ev(a, env)));
        for (let i = lo; i < hi; i += s.step) run(s.body, new Map(env).set(s.iv, i));
      } else if (s.k === 'if') {
        const holds = s.conds.every((c) => (c.eq ? ev(c.aff, env) === 0 : ev(c.aff, env) >= 0));
        run(holds ? s.then : (s.else ?? []), env);
      } else {
        check(s.array, s.idx, env);
        val(s.value, env);
      }
    }
  };
  run(p.body, new Map(p.param ? [[p.param.name, n]] : []));
  return bad;
}

describe('the generator', () => {
  it('is deterministic and stays in bounds for every parameter value, shrunk programs too', () => {
    expect(programText(genProgram(new Rng(caseSeed(5, 3))))).toBe(programText(genProgram(new Rng(caseSeed(5, 3)))));
    let checked = 0;
    for (let i = 0; i < 60; i++) {
      const p = genProgram(new Rng(caseSeed(2, i)));
      for (const n of [0, 1, p.param?.value ?? 3, 40]) expect(outOfBounds(p, n), `program ${i} at N = ${n}`).toEqual([]);
      let k = 0;
      for (const q of shrinkProgram(p)) {
        if (k++ > 25) break;
        for (const n of [0, q.param?.value ?? 3, 40]) expect(outOfBounds(q, n), `a shrink of program ${i} at N = ${n}`).toEqual([]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('draws pipelines with options and shrinks them', () => {
    const rng = new Rng(9);
    const texts = Array.from({ length: 40 }, () => pipelineText(genPipeline(rng, 'i32')));
    expect(new Set(texts).size).toBeGreaterThan(30);
    expect(texts.every((t) => /^--pass-pipeline='builtin\.module\(func\.func\(.+\)\)'$/.test(t))).toBe(true);
    const f = genPipeline(new Rng(1), 'f64');
    expect(pipelineText(f)).not.toMatch(/vectorize-reductions|parallel-reductions/);
    const p = [{ name: 'affine-loop-tile', options: ['tile-size=3'] }, { name: 'affine-scalrep', options: [] }];
    expect([...shrinkPipeline(p)].map(pipelineText)).toEqual([
      "--pass-pipeline='builtin.module(func.func(affine-scalrep))'",
      "--pass-pipeline='builtin.module(func.func(affine-loop-tile{tile-size=3}))'",
      "--pass-pipeline='builtin.module(func.func(affine-loop-tile, affine-scalrep))'",
      "--pass-pipeline='builtin.module(func.func(affine-loop-tile{tile-size=2}, affine-scalrep))'",
    ]);
  });
});

describe('merging the logs of sharded runs', () => {
  const line = (index: number, verdict: string, verifyBudgetMs: number): MlirCase => ({ index, seed: index, pipeline: '', stmts: 1, outcome: verdict === 'valid' ? 'ok' : 'unknown', runner: 'agrees', verdict, disagreement: null, detail: null, bundle: null, ms: 1, verifyBudgetMs });
  it('counts the verdicts of one run, a case logged twice once, and refuses shards of different budgets', () => {
    const s = mergeMlirLogs([line(0, 'valid', 30_000), line(1, 'unknown budget', 30_000), line(1, 'unknown budget', 30_000)]);
    expect([s.iterations, s.verdicts]).toEqual([2, { valid: 1, 'unknown budget': 1 }]);
    // Case 1, over a budget of 30 s, may be decided under 60 s: not one run.
    expect(() => mergeMlirLogs([line(0, 'valid', 30_000), line(1, 'valid', 60_000)])).toThrow(/different --verify-budget-ms/);
  });
});

describe.skipIf(MISSING !== null)(`campaign under mlir-cpu-runner (${MLIR_PACKAGES})`, () => {
  it('runs a batch of random programs in one process; all agree under a pipeline that changes nothing of their meaning', () => {
    const s = campaign({ seed: 4, iterations: 12, pipelineList: [[{ name: 'cse', options: [] }]] });
    expect(s.byOutcome).toEqual({ agrees: 12 });
  });

  it('finds the unrolling of an empty loop and shrinks it', () => {
    // Campaign seed 3, case 4: found by the campaign (corpus/bugs/mlir/unroll_empty_loop_runs.mlir).
    const seed = caseSeed(3, 4);
    const program = genProgram(new Rng(seed));
    const pipeline = [{ name: 'affine-loop-unroll', options: [] }];
    expect(runCase(programText(program), pipeline, program, seed).outcome.kind).toBe('differs');
    const s = shrink(program, pipeline, seed, 'differs', 6);
    expect(s.run.outcome.kind).toBe('differs');
    expect(programText(s.program).length).toBeLessThan(programText(program).length);
    // A later finding with these passes among its own is another instance of the signature (not
    // shrunk again) when it keeps its kind with those passes alone; another kind never is.
    const sig = signatureOf('differs', s.pipeline);
    expect(sig).toBe('differs:affine-loop-unroll');
    const longer = [{ name: 'cse', options: [] }, ...pipeline];
    expect(knownSignature(['crash:affine-loop-unroll', sig], program, longer, seed, 'differs')).toBe(sig);
    expect(knownSignature(['crash:affine-loop-unroll'], program, longer, seed, 'differs')).toBeUndefined();
  });
});

describe('bundles of the MLIR fuzzer (caseFile)', () => {
  it("say the verdict the verifier gave and whether mlir-cpu-runner shows it: a race it cannot show is `invalid race` with the runner agreeing", () => {
    const rng = new Rng(caseSeed(0, 747));
    const p = genProgram(rng);
    const pl = genPipeline(rng, p.elem);
    const race = caseFile(p, pl, 1, 'agrees', ['found by the verifier'], 'invalid race');
    expect(race).toMatch(/^\/\/ EXPECT fuzz: invalid race$/m);
    expect(race).toMatch(/^\/\/ RUNNER fuzz: agrees$/m);
    // Without the verifier's verdict, what the runner's outcome says.
    expect(caseFile(p, pl, 1, 'differs')).toMatch(/^\/\/ EXPECT fuzz: invalid output-mismatch$\n^\/\/ RUNNER fuzz: differs$/m);
    expect(caseFile(p, pl, 1, 'agrees')).toMatch(/^\/\/ EXPECT fuzz: valid$/m);
  });
});
