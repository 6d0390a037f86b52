// The MLIR front end (compilers/mlir/, docs/mlir.md): the generic-form reader, the operation table,
// the dataflow spec against the real execution of the source, annotation inference, and end-to-end
// verdicts. Without MLIR 16 only the reader and the table are tested (the rest needs mlir-opt).

import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dirs.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { parseGeneric, MlirSyntaxError } from '../compilers/mlir/parse.ts';
import { locKey } from '../compilers/mlir/ir.ts';
import { OPS, opsTableMarkdown, Unsupported } from '../compilers/mlir/ops.ts';
import { lowerFunction } from '../compilers/mlir/lower.ts';
import { storesOf } from '../compilers/mlir/kernel.ts';
import { MLIR_PACKAGES, mlirMissing } from '../compilers/mlir/tools.ts';
import { runPasses } from '../compilers/mlir/runner.ts';
import { checkedImpl, defaultParams, executionOracle, oracleRun, prepareMlir, validateMlir } from '../proofs/validate/mlir.ts';
import { checkSource } from '../core/language/check.ts';
import { verifyImpl } from '../proofs/verifier/verify.ts';
import { seededInputs } from '../semantics/model.ts';
import { shutdownZ3 } from '../smt/z3.ts';

afterAll(async () => {
  await shutdownZ3();
});

const MISSING = mlirMissing();
if (MISSING !== null) process.stderr.write(`mlir-frontend.test: tests needing mlir-opt skipped: ${MISSING}\n`);

// mlir-opt 16's generic printing of a small kernel, location aliases at the end (as it prints them).
const GENERIC = `#loc2 = loc("k.mlir":1:20)
#map = affine_map<(d0)[s0] -> (d0 + s0 floordiv 2, d0 mod 3, -d0 + 4)>
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: memref<8x?xf32> loc(#loc2), %arg1: index loc("k.mlir":1:40)):
    %0 = "arith.constant"() {value = 1.500000e+00 : f32} : () -> f32 loc(#loc3)
    "affine.for"(%arg1) ({
    ^bb0(%arg2: index loc("k.mlir":3:7)):
      %1 = "affine.load"(%arg0, %arg2, %arg2) {map = affine_map<(d0, d1) -> (d0, d1 + 1)>} : (memref<8x?xf32>, index, index) -> f32 loc(callsite("k.mlir":9:9 at "k.mlir":4:5))
      %2 = "arith.addf"(%1, %0) {fastmath = #arith.fastmath<none>} : (f32, f32) -> f32 loc(fused["k.mlir":5:5, "k.mlir":5:9])
      "affine.store"(%2, %arg0, %arg2, %arg2) {map = affine_map<(d0, d1) -> (d0, d1)>} : (f32, memref<8x?xf32>, index, index) -> () loc("S1"("k.mlir":6:5))
      "affine.yield"() : () -> () loc(#loc3)
    }) {lower_bound = affine_map<() -> (0)>, step = 2 : index, upper_bound = affine_map<()[s0] -> (8, s0)>} : (index) -> () loc(#loc3)
    "func.return"() : () -> () loc(unknown)
  }) {function_type = (memref<8x?xf32>, index) -> (), sym_name = "k"} : () -> () loc("k.mlir":1:1)
}) : () -> () loc("k.mlir":0:0)
#loc3 = loc("k.mlir":2:3)
`;

describe('the generic-form reader', () => {
  it('reads ops, regions, affine maps and every kind of location, aliases defined after use', () => {
    const m = parseGeneric(GENERIC);
    const f = m.op.regions[0]!.blocks[0]!.ops[0]!;
    expect(f.name).toBe('func.func');
    const body = f.regions[0]!.blocks[0]!;
    expect(body.args.map((a) => a.name)).toEqual(['%arg0', '%arg1']);
    expect(locKey(body.args[0]!.loc)).toBe('1:20');
    const loop = body.ops[1]!;
    expect(loop.name).toBe('affine.for');
    const ub = loop.attrs.get('upper_bound');
    expect(ub?.kind === 'map' && ub.map.syms).toBe(1);
    const inner = loop.regions[0]!.blocks[0]!.ops;
    expect(inner.map((o) => o.loc.kind)).toEqual(['callsite', 'fused', 'name', 'file']);
    expect(locKey(inner[3]!.loc)).toBe('2:3');
  });

  it('lowers it: a strided loop with a min bound, a dynamic extent as a parameter, the store and its read', () => {
    const k = lowerFunction(parseGeneric(GENERIC));
    expect(k.params.map((p) => p.name)).toEqual(['arg0_d1', 'arg1']);
    const [s] = storesOf(k.body);
    expect(s!.array).toBe('arg0');
    expect(s!.value.k).toBe('bin');
  });

  it('never crashes on malformed text: a syntax error with its line and column', () => {
    const bad = [GENERIC.replace('"affine.load"(', '"affine.load"'), GENERIC.replace('loc(#loc3)\n', 'loc(#nope)\n'), GENERIC.slice(0, 700), '"a.b"() : () -> () loc(', '%0 = "x"() : (i32) -> f32'];
    for (const t of bad) {
      let err: unknown = null;
      try {
        parseGeneric(t);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(MlirSyntaxError);
      expect((err as MlirSyntaxError).pos.line).toBeGreaterThan(0);
    }
    // Random cuts and byte flips of the valid text: a module or a syntax error, nothing else.
    let seed = 7;
    const rnd = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let i = 0; i < 300; i++) {
      const at = rnd(GENERIC.length);
      const t = i % 2 === 0 ? GENERIC.slice(0, at) : GENERIC.slice(0, at) + '({[<%#"'[rnd(7)]! + GENERIC.slice(at + 1);
      try {
        parseGeneric(t);
      } catch (e) {
        expect(e).toBeInstanceOf(MlirSyntaxError);
      }
    }
  });
});

describe('the operation table', () => {
  it('is printed in docs/mlir.md as it is in the code (every op, its meaning and translation)', () => {
    const doc = readFileSync('docs/mlir.md', 'utf8');
    const m = /<!-- ops -->\n([\s\S]*?)\n<!-- \/ops -->/.exec(doc);
    expect(m, 'docs/mlir.md has the table between <!-- ops --> and <!-- /ops -->').not.toBeNull();
    expect(m![1]).toBe(opsTableMarkdown());
    for (const [op, e] of Object.entries(OPS)) {
      expect(e.meaning.length, op).toBeGreaterThan(10);
      expect(e.sched.trim(), op).not.toBe('');
    }
  });

  it('refuses what it does not translate, naming the op, and never a division it cannot prove defined', () => {
    const fn = (body: string, args = '%a: memref<4xi32>, %x: i32'): string => `"builtin.module"() ({
  "func.func"() ({
  ^bb0(${args.replace(/%(\w+): /g, '%$1: ')}):
${body}
    "func.return"() : () -> ()
  }) {function_type = (memref<4xi32>, i32) -> (), sym_name = "f"} : () -> ()
}) : () -> ()`;
    const cases: [string, RegExp][] = [
      [`    %0 = "gpu.thread_id"() {dimension = #gpu<dim x>} : () -> index`, /unsupported: gpu\.thread_id/],
      [`    %0 = "arith.divsi"(%x, %x) : (i32, i32) -> i32\n    %c = "arith.constant"() {value = 0 : index} : () -> index\n    "memref.store"(%0, %a, %c) : (i32, memref<4xi32>, index) -> ()`, /division by a value that is not a constant/],
      [`    %k = "arith.constant"() {value = -1 : i32} : () -> i32\n    %0 = "arith.divsi"(%x, %k) : (i32, i32) -> i32\n    %c = "arith.constant"() {value = 0 : index} : () -> index\n    "memref.store"(%0, %a, %c) : (i32, memref<4xi32>, index) -> ()`, /division by -1/],
      [`    %0 = "arith.fptosi"(%x) : (i32) -> i32`, /unsupported: arith\.fptosi/],
      [`    "func.call"(%a) {callee = @ext} : (memref<4xi32>) -> ()`, /@ext has no body/],
      [`    %0 = "arith.index_cast"(%x) : (i32) -> index\n    "memref.store"(%x, %a, %0) : (i32, memref<4xi32>, index) -> ()`, /non-affine index/],
    ];
    for (const [body, re] of cases) {
      let err: unknown = null;
      try {
        lowerFunction(parseGeneric(fn(body)));
      } catch (e) {
        err = e;
      }
      expect(err, body).toBeInstanceOf(Unsupported);
      expect((err as Error).message).toMatch(re);
    }
  });
});

const KERNELS: Record<string, string> = {
  // In-place stencil: each read sees a write of the same sweep or of the one before.
  seidel: `func.func @seidel(%A: memref<10x10xf32>) {
  affine.for %t = 0 to 3 {
    affine.for %i = 1 to 9 {
      affine.for %j = 1 to 9 {
        %a = affine.load %A[%i - 1, %j] : memref<10x10xf32>
        %b = affine.load %A[%i, %j - 1] : memref<10x10xf32>
        %c = affine.load %A[%i + 1, %j + 1] : memref<10x10xf32>
        %s = arith.addf %a, %b : f32
        %u = arith.addf %s, %c : f32
        affine.store %u, %A[%i, %j] : memref<10x10xf32>
      }
    }
  }
  return
}`,
  // Two writers of one array, an if, a loop-carried value, a subview alias, integer division and
  // remainder by constants, a call with a body, a data-dependent condition.
  mixed: `func.func @put(%m: memref<3xi32, strided<[1], offset: 3>>, %v: i32) {
  %c1 = arith.constant 1 : index
  memref.store %v, %m[%c1] : memref<3xi32, strided<[1], offset: 3>>
  return
}
func.func @mixed(%A: memref<12xi32>, %B: memref<6x4xi32>, %n: index) {
  %z = arith.constant 0 : i32
  %k3 = arith.constant -3 : i32
  %r = affine.for %i = 0 to 12 step 2 iter_args(%acc = %z) -> i32 {
    %a = affine.load %A[%i] : memref<12xi32>
    %q = arith.divsi %a, %k3 : i32
    %m = arith.remsi %a, %k3 : i32
    %s = arith.addi %acc, %q : i32
    affine.if affine_set<(d0) : (d0 - 4 >= 0)>(%i) {
      affine.store %m, %A[%i + 1] : memref<12xi32>
    }
    affine.yield %s : i32
  }
  affine.store %r, %A[0] : memref<12xi32>
  %w = memref.subview %B[1, 0][3, 4][1, 1] : memref<6x4xi32> to memref<3x4xi32, strided<[4, 1], offset: 4>>
  affine.for %i = 0 to 3 {
    affine.for %j = 0 to 4 {
      %b = affine.load %w[%i, %j] : memref<3x4xi32, strided<[4, 1], offset: 4>>
      %p = arith.cmpi sgt, %b, %z : i32
      scf.if %p {
        affine.store %b, %B[%i + 3, %j] : memref<6x4xi32>
      }
    }
  }
  %sub = memref.subview %A[3][3][1] : memref<12xi32> to memref<3xi32, strided<[1], offset: 3>>
  %c = memref.cast %sub : memref<3xi32, strided<[1], offset: 3>> to memref<3xi32, strided<[1], offset: ?>>
  %v = affine.load %B[5, 3] : memref<6x4xi32>
  func.call @put(%sub, %v) : (memref<3xi32, strided<[1], offset: 3>>, i32) -> ()
  return
}`,
};

describe.skipIf(MISSING !== null)(`with MLIR 16 (${MLIR_PACKAGES})`, () => {
  it('gives each source its real meaning: the spec model equals mlir-cpu-runner on the source, cell by cell', async () => {
    for (const [name, src] of Object.entries(KERNELS)) {
      const p = await prepareMlir({ source: src, passes: '--canonicalize', func: name, sourceFile: `${name}.mlir` });
      const ci = await checkedImpl(p.translation, `${name}.sched`);
      for (const seed of [0, 1]) {
        const rep = executionOracle(p.translation, ci, p.modules, defaultParams(p.translation), seededInputs(seed));
        expect(rep.skipped, name).toBeNull();
        expect(rep.source!.differences, `${name}: ${JSON.stringify(rep.source!.examples)}`).toBe(0);
        expect(rep.target!.differences, `${name}: ${JSON.stringify(rep.target!.examples)}`).toBe(0);
        expect(rep.source!.cells).toBeGreaterThan(10);
      }
    }
  });

  it('validates tiling and unrolling of an in-place stencil, and finds a miscompilation made by hand', async () => {
    // The time loop in a tile of its own (tile size 1): legal. The repetition coordinate, which
    // no access determines, is the tiled band's innermost unit-step loop.
    const v = await validateMlir({ source: KERNELS.seidel!, passes: '--affine-loop-tile=tile-sizes=1,4,4 --affine-loop-unroll=unroll-factor=2', sourceFile: 'seidel.mlir' });
    expect(v.result?.verdict).toBe('valid');
    expect(v.prepared!.translation.notes.filter((n) => n.startsWith('guessed'))).toEqual([]);
    // The target with the j loop reversed in one read (A[i, j - 1] read as A[i, j + 1]): wrong.
    const tgt = runPasses(KERNELS.seidel!, ['--affine-loop-tile=tile-size=4'], { debugInfo: true }).output;
    const broken = tgt.replace(/affine_map<\(d0, d1\) -> \(d0, d1 - 1\)>/g, 'affine_map<(d0, d1) -> (d0, d1 + 1)>');
    expect(broken).not.toBe(tgt);
    const w = await validateMlir({ source: KERNELS.seidel!, target: broken, sourceFile: 'seidel.mlir', targetFile: 'broken.mlir' });
    expect([w.result?.verdict, w.result?.class]).toEqual(['invalid', 'output-mismatch']);
    expect(w.result?.replay).not.toBeNull();
    expect(w.result?.reason).toMatch(/confirmed by mlir-cpu-runner/);
  });

  it('validates a normalized repetition loop: its iteration t is the source iteration lb + step·t', async () => {
    // The store does not use %j, so no access gives its source iteration; after
    // affine-loop-normalize the loop runs t from 0 for j = 2 + 2t (found by sched fuzz: unknown before).
    const src = `func.func @rep(%A: memref<4xi32>, %B: memref<i32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 2 to 7 step 2 {
      %v = affine.load %A[%i] : memref<4xi32>
      %b = affine.load %B[] : memref<i32>
      %w = arith.addi %v, %b : i32
      affine.store %w, %A[%i] : memref<4xi32>
    }
  }
  return
}`;
    const v = await validateMlir({ source: src, passes: '--affine-loop-normalize', sourceFile: 'rep.mlir' });
    expect(v.result?.verdict).toBe('valid');
  });

  it('braces a then branch before an else: an if without else inside it keeps its own meaning', async () => {
    // Tiling with `separate` puts the whole band under `if (0 == 0) … else …`; unbraced, the
    // else went to the inner guard (sched fuzz, case 44 of seed 0: a translation-vs-run disagreement).
    const src = `func.func @fuzz(%C: memref<5x6xi32>) {
  affine.for %i3 = 1 to 3 {
    affine.if affine_set<(d0) : (d0 - 1 == 0)>(%i3) {
      %v0 = affine.load %C[%i3 + 1, %i3 + 1] : memref<5x6xi32>
      %v1 = arith.constant 2 : i32
      %v2 = arith.muli %v0, %v1 : i32
      affine.store %v2, %C[%i3 + 1, %i3 + 1] : memref<5x6xi32>
    }
  }
  return
}`;
    const v = await validateMlir({ source: src, passes: "--pass-pipeline='builtin.module(func.func(affine-loop-tile{tile-size=2 separate}))'", sourceFile: 'guard.mlir' });
    expect(v.prepared!.translation.text).toMatch(/then \{/);
    expect(v.result?.verdict).toBe('valid');
    const rep = await oracleRun(v.prepared!, defaultParams(v.prepared!.translation), 0);
    expect(rep.target!.differences).toBe(0);
  });

  it('finds MLIR 16 tiling the time loop of the stencil across an anti-dependence (a real miscompilation)', async () => {
    const v = await validateMlir({ source: KERNELS.seidel!, passes: '--affine-loop-tile=tile-size=4', sourceFile: 'seidel.mlir' });
    expect([v.result?.verdict, v.result?.class]).toEqual(['invalid', 'output-mismatch']);
    expect(v.result?.reason).toMatch(/confirmed by mlir-cpu-runner: source and target differ/);
  });

  it('cannot be led to valid by a wrong inference: an annotation pointing at another instance is refuted', async () => {
    const p = await prepareMlir({ source: KERNELS.seidel!, passes: '--affine-loop-unroll=unroll-factor=2', sourceFile: 'seidel.mlir' });
    // Every inferred annotation shifted by one iteration of its innermost loop counter (the
    // statement tensors' arguments are schedule vectors: counters at the odd positions).
    const shift = (args: string): string => {
      const parts: string[] = [];
      let depth = 0;
      let cur = '';
      for (const ch of args) {
        if (ch === ',' && depth === 0) {
          parts.push(cur.trim());
          cur = '';
          continue;
        }
        if (ch === '(') depth++;
        if (ch === ')') depth--;
        cur += ch;
      }
      parts.push(cur.trim());
      const k = parts.map((x, i) => (i % 2 === 1 && !/^-?\d+$/.test(x) ? i : -1)).filter((i) => i >= 0).pop();
      if (k !== undefined) parts[k] = `${parts[k]} + 1`;
      return parts.join(', ');
    };
    const text = p.translation.text.replace(/\{(S\d+)\(([^{}]+)\)\}/g, (_, t: string, a: string) => `{${t}(${shift(a)})}`);
    expect(text).not.toBe(p.translation.text);
    const prog = await checkSource('shifted.sched', text);
    const r = await verifyImpl(prog.impls[0]!, { timeoutMs: 5000 });
    expect(r.verdict).not.toBe('valid');
  });

  it('says unknown (unsupported) for what it does not translate, never a verdict on a guess', async () => {
    const v = await validateMlir({ source: KERNELS.seidel!.replace('arith.addf %s, %c : f32', 'arith.addf %s, %c fastmath<fast> : f32'), passes: '--canonicalize', sourceFile: 'fast.mlir' });
    expect(v.result).toBeNull();
    expect(v.unsupported).toMatch(/fast-math/);
  });

  it('is a command: sched mlir with --passes or two files, --json, exit codes, replay commands that run as printed', () => {
    const dir = tempDir('sched-mlir-cli-');
    const src = join(dir, 'seidel.mlir');
    writeFileSync(src, KERNELS.seidel!);
    const sched = (...args: string[]) => spawnSync(process.execPath, ['cli/sched.js', ...args], { encoding: 'utf8', timeout: 300_000 });
    // A real miscompilation: exit 1, the replay command runs and shows the mismatch.
    const bad = sched('mlir', src, '--passes', '--affine-loop-tile=tile-size=4', '--emit', join(dir, 'out.sched'), '--json');
    expect(bad.status).toBe(1);
    const r = JSON.parse(bad.stdout) as { results: { verdict: string; class: string; replay: { command: string } }[]; mlir: { sched: string } };
    expect([r.results[0]!.verdict, r.results[0]!.class]).toEqual(['invalid', 'output-mismatch']);
    const replay = r.results[0]!.replay.command.replace(/^npx sched /, '').split(' ');
    const run = sched(...replay);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/mismatch/);
    // The same transformation made elsewhere (two files): the same verdict.
    const tgt = join(dir, 'tiled.mlir');
    writeFileSync(tgt, runPasses(KERNELS.seidel!, ['--affine-loop-tile=tile-size=4'], { debugInfo: true }).output);
    expect(sched('mlir', src, tgt).status).toBe(1);
    // Bad input: an input error (3), located.
    writeFileSync(join(dir, 'bad.mlir'), 'func.func @f( {');
    const e = sched('mlir', join(dir, 'bad.mlir'), '--passes', '--canonicalize');
    expect(e.status).toBe(3);
    expect(e.stderr).toMatch(/bad\.mlir:1:\d+: error/);
    // Not translated: unknown (2), the op named.
    writeFileSync(join(dir, 'gpu.mlir'), 'func.func @f(%a: memref<4xf32>) {\n  %c = arith.constant 1.0 : f32\n  %x = math.tanh %c : f32\n  %i = arith.constant 0 : index\n  memref.store %x, %a[%i] : memref<4xf32>\n  return\n}\n');
    const u = sched('mlir', join(dir, 'gpu.mlir'), '--passes', '--canonicalize');
    expect(u.status).toBe(2);
    expect(u.stdout).toMatch(/unsupported: math\.tanh/);
  });
});

