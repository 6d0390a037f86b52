// The Halide 14 front end (compilers/halide/, docs/halide.md). Without Halide: the IR reader, the
// rejection of node kinds the translator does not handle, and the message naming the missing
// Debian packages. With Debian's python3-halide: apps/blur lowered by real Halide verifies valid,
// the JIT oracle agrees with the big-step run, and a broken translation is caught by both;
// apps/unsharp_strict and apps/conv_layer_strict verify valid (Gaussian weights compared by their
// IEEE values; conv_layer without strict_float only with floats as reals: Halide commutes max).

import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tempDir } from './temp-dirs.ts';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sample } from './tier.ts';
import { checkSource } from '../core/language/check.ts';
import { compareStripped, parseHExpr, parseHStmt, printHExpr, stripExpr } from '../compilers/halide/hir.ts';
import { halideCase, halideMissing, INSTALL_HINT, jitOracle, lowerScript } from '../compilers/halide/run.ts';
import { leastValues, sizeFacts } from '../compilers/halide/size-limits.ts';
import { formulaOf } from '../core/language/affine.ts';
import { parseExpr } from '../core/language/parser.ts';
import { type DriverOutput, translate, Unsupported } from '../compilers/halide/translate.ts';
import { verifyImpl } from '../proofs/verifier/verify.ts';
import { confirmationInputs, confirmGuarded } from '../proofs/validate/halide-guarded.ts';
import { withinBufferLimits } from '../proofs/validate/halide-limits.ts';
import { shutdownZ3 } from '../smt/z3.ts';
import { familyInputs } from '../semantics/inputs.ts';
import { runImpl } from '../semantics/run.ts';
import { SAFETY_NET_MS } from './safety-net.ts';

afterAll(shutdownZ3);

const ROOT = join(import.meta.dirname, '..');
const MISSING = halideMissing();
if (MISSING !== null) process.stderr.write(`halide.test: Halide tests skipped: ${MISSING}\n`);

/** A driver output around a hand-written IR section (the definitions of a 1-D copy). */
function fakeDriver(pass21: string): DriverOutput {
  return {
    output: 'g',
    outputType: 'i32',
    outputDims: 1,
    funcs: [{ name: 'g', args: ['x'], type: 'i32', pure: '(int32)input_im(x) + 1', updates: [] }],
    inputs: [{ name: 'input', dims: 1, type: 'i32' }],
    params: [],
    traced: { pass21, final: null, initial: null },
    plain: { pass21, final: null, initial: null },
    ms: { traced: 0, plain: 0 },
  };
}

const COPY = (body: string): string => `produce g {
 for (g.s0.x, 0, g.extent.0) {
${body}
 }
}`;
const STORE = '  g(g.s0.x) = (int32)return_second(halide_trace_helper("g", (void *)make_struct(input(g.s0.x) + 1), (int32_t *)make_struct(g.s0.x), 0, 32, 1, 1, 0, 0, 1, ""), input(g.s0.x) + 1)';

describe('Halide IR text', () => {
  it('reads expressions as Halide prints them: casts, lets, calls, negative constants', () => {
    const e = parseHExpr('let t0.s = ((uint16)input(x + -2, y) + (uint16)3) in (uint16)return_second(halide_trace_helper("f", (void *)make_struct(t0.s), (int32_t *)make_struct(x), 1), t0.s/(uint16)3)');
    expect(printHExpr(stripExpr(e))).toBe('(((uint16)input((x + -2), y) + (uint16)3) / (uint16)3)');
  });

  it('compares a traced lowering with an untraced one, trace calls and CSE names aside', () => {
    const traced = COPY(STORE.replace('input(g.s0.x) + 1), (int32', 'input(g.s0.x) + 1), (int32'));
    const plain = COPY('  g(g.s0.x) = input(g.s0.x) + 1');
    expect(compareStripped(traced, plain).same).toBe(true);
    const other = COPY('  g(g.s0.x) = input(g.s0.x) + 2');
    const c = compareStripped(traced, other);
    expect(c.same).toBe(false);
    expect(c.onlyPlain).toEqual(['g(g.s0.x) = (input(g.s0.x) + 2)']);
  });

  it('translates a traced store into an annotated assignment', () => {
    const t = translate(fakeDriver(COPY(STORE)), 'copy');
    expect(t.text).toContain('out_g[g_s0_x] {g(g_s0_x)} := ');
    expect(t.stores).toBe(1);
  });

  it("rejects every node kind it does not translate with 'unsupported: <kind>'", () => {
    const cases: [string, string][] = [
      [COPY(STORE).replace('for (g.s0.x', 'extern (g.s0.x'), 'unsupported: For(extern)'],
      [COPY(`  allocate tmp[int32 * 8]\n${STORE}`), 'unsupported: allocate'],
      [COPY(`  fork {\n${STORE}\n  }`), 'unsupported: fork'],
      [COPY('  g(g.s0.x) = input(g.s0.x) + 1'), 'unsupported: store without its trace'],
      [COPY(STORE.replaceAll('input(g.s0.x) + 1)', 'input(g.s0.x*g.s0.x) + 1)')), 'unsupported: non-affine access'],
      [COPY(`  if (input(g.s0.x) > 0) {\n${STORE}\n${STORE}\n  }`), 'unsupported: IfThenElse on a data-dependent condition'],
      [COPY(`  if (input(g.s0.x) > 0) {\n${STORE}\n  } else {\n${STORE}\n  }`), 'unsupported: IfThenElse on a data-dependent condition'],
      [COPY(`  if (input(g.s0.x) > 0) {\n   for (g.s1.r, 0, 2) {\n${STORE}\n   }\n  }`), 'unsupported: IfThenElse on a data-dependent condition'],
      [COPY(`  halide_print("x")\n${STORE}`), 'unsupported: Evaluate halide_print'],
      [COPY(`  g[g.s0.x] = 0`), 'unsupported: Store'],
    ];
    for (const [ir, msg] of cases) {
      let err: unknown = null;
      try {
        translate(fakeDriver(ir), 'copy');
      } catch (e) {
        err = e;
      }
      expect(err, msg).toBeInstanceOf(Unsupported);
      expect((err as Error).message.startsWith(msg), `${(err as Error).message} / ${msg}`).toBe(true);
    }
  });

  it('translates an if on memory around one store (a lowered RDom predicate) into a select of the old value', () => {
    const t = translate(fakeDriver(COPY(`  if (input(g.s0.x) > 0) {\n${STORE}\n  }`)), 'guarded');
    // Int(32) + is Halide's no-overflow addition: checked (add_nsw) in the implementation.
    expect(t.text).toContain('out_g[g_s0_x] {g(g_s0_x)} := select((in_input[g_s0_x - input_min_0] > 0), i32(add_nsw(in_input[g_s0_x - input_min_0], 1)), out_g[g_s0_x])');
  });

  it('translates a fused loop (extent a * b, read as t % a and t / a) into two nested loops that verify', async () => {
    const fused = (div: string, asserts = true): string => `let g.s0.t.loop_extent = g.extent.0*g.extent.1
${asserts ? `assert((input.min.0 <= 0) && ((input.extent.0 + input.min.0) >= g.extent.0), halide_error_access_out_of_bounds("Input buffer input", 0))
assert((input.min.1 <= 0) && ((input.extent.1 + input.min.1) >= g.extent.1), halide_error_access_out_of_bounds("Input buffer input", 1))` : ''}
produce g {
 parallel (g.s0.t, 0, g.s0.t.loop_extent) {
  let g.s0.x = g.s0.t % ${div}
  let g.s0.y = g.s0.t/${div}
  g(g.s0.x, g.s0.y) = (uint32)return_second(halide_trace_helper("g", (void *)make_struct(0), (int32_t *)make_struct(g.s0.x, g.s0.y), 0, 32, 1, 1, 0, 0, 2, ""), input(g.s0.x, g.s0.y) + (uint32)1)
 }
}`;
    // UInt(32): its + wraps, as SCHED's (an Int(32) + would add an overflow obligation).
    const d = (ir: string): DriverOutput => ({
      ...fakeDriver(ir),
      outputType: 'u32',
      funcs: [{ name: 'g', args: ['x', 'y'], type: 'u32', pure: '(uint32)input_im(x, y) + (uint32)1', updates: [] }],
      inputs: [{ name: 'input', dims: 2, type: 'u32' }],
      outputDims: 2,
    });
    const t = translate(d(fused('g.extent.0')), 'fused');
    expect(t.text).toMatch(/par g_s0_t_outer < g_extent_1 do\s+par g_s0_t_inner < g_extent_0 do/);
    expect(t.notes.join('\n')).toContain('assumed that its two extents are not both negative');
    const prog = await checkSource('fused.sched', t.text);
    expect((await verifyImpl(prog.impls[0]!, {})).verdict).toBe('valid');
    // Without Halide's asserts on the input's region, the reads may leave the input buffer.
    const loose = await checkSource('loose.sched', translate(d(fused('g.extent.0', false)), 'fused').text);
    const r = await verifyImpl(loose.impls[0]!, {});
    expect([r.verdict, r.class]).toEqual(['invalid', 'out-of-bounds']);
    // Read with another divisor, the loop variable is not a pair of loop variables.
    expect(() => translate(d(fused('7')), 'fused')).toThrow(/^unsupported: non-affine index/);
  });

  it('names the missing Debian packages when Halide is not there (exit 3)', () => {
    const r = spawnSync(process.execPath, ['cli/sched.js', 'halide', 'compilers/halide/apps/blur.py'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, SCHED_HALIDE_PYTHON: '/nonexistent/python3' }, timeout: SAFETY_NET_MS });
    expect(r.status).toBe(3);
    expect(r.stderr).toContain(INSTALL_HINT);
  });
});

describe.skipIf(MISSING !== null)('apps/blur through real Halide 14', () => {
  const script = join(ROOT, 'compilers/halide/apps/blur.py');

  it('lowers, translates (tracing changes nothing in the translated IR) and verifies valid', async () => {
    const c = halideCase(script, 'blur');
    expect(c.tracing.pass21.same).toBe(true);
    expect(c.translation.stores).toBe(2);
    const prog = await checkSource('blur.sched', c.translation.text);
    const r = await verifyImpl(prog.impls[0]!, {});
    expect(r.verdict).toBe('valid');
  });

  it('puts an affine RDom predicate into the spec as a filter, and rejects one the driver did not record', () => {
    const dir = tempDir('sched-halide-');
    const file = join(dir, 'pred.py');
    writeFileSync(file, `import halide as hl
def pipeline():
    inp = hl.ImageParam(hl.UInt(16), 2, "input"); x = hl.Var("x")
    r = hl.RDom([(0, 8), (2, 3)], "r")
    r.where(r.x < r.y + 5)
    f = hl.Func("colsum")
    f[x] = hl.u32(0)
    f[x] = f[x] + hl.u32(inp[x, r.x + r.y])
    return {"output": f, "funcs": [f], "args": [inp]}
`);
    const d = lowerScript(file);
    expect(d.funcs[0]!.updates[0]!.where).toEqual(['(r$x < (r$y + 5))']);
    expect(translate(d, 'pred').text).toMatch(/colsum_1\(v_x, r_ry, r_rx\) = .* where .*r_rx < r_ry \+ 5/);
    // A predicate Halide lowered but the driver did not record would leave the spec without it.
    const unrecorded = { ...d, funcs: d.funcs.map((f) => ({ ...f, updates: f.updates.map((u) => ({ ...u, where: [] })) })) };
    expect(() => translate(unrecorded, 'pred')).toThrow(/^unsupported: RDom predicate: update 0 of colsum is guarded by/);
    // Records are matched to updates by RVar names: two RDoms named r are told apart or rejected.
    const twoRdoms = (secondWhere: boolean): string => `import halide as hl
def pipeline():
    inp = hl.ImageParam(hl.Int(32), 1, "inp"); x = hl.Var("x")
    f = hl.Func("f")
    f[x] = inp[x]
    r1 = hl.RDom([(0, 10)], "r")
    r1.where(f[0] == 1)
    r2 = hl.RDom([(0, 10)], "r")
${secondWhere ? '    r2.where(f[1] == 1)\n' : ''}    f[r2.x] = 2
    f.output_buffer().dim(0).set_bounds(0, 10)
    return {"output": f, "funcs": [f], "args": [inp]}
`;
    writeFileSync(file, twoRdoms(false));
    expect(() => halideCase(file, 'pred')).toThrow(/^unsupported: RDom predicate: update 0 of f has a recorded predicate, but no condition guards its store/);
    writeFileSync(file, twoRdoms(true));
    expect(() => halideCase(file, 'pred')).toThrow(/unsupported: RDom predicate: two RDoms with RVar names \['r\$x'\] have predicates/);
  });

  it("Halide's JIT and the big-step run of the translation agree; a wrong fold factor is caught by both oracles and the verifier", async () => {
    const c = halideCase(script, 'blur');
    const prog = await checkSource('blur.sched', c.translation.text);
    const ok = jitOracle(c, prog.impls[0]!, 3);
    expect(ok.bigstep).toBe('match');
    expect(ok.differences).toBe(0);
    expect(ok.cells).toBeGreaterThan(1000);
    // A translation (or compiler) bug: blur_x folded by 2 rows instead of 4.
    const broken = c.translation.text.replace(/% 4\b/g, '% 2').replace(/buf_blur_x: u16\[([^\]]*), 4\]/, 'buf_blur_x: u16[$1, 2]');
    expect(broken).not.toBe(c.translation.text);
    const bad = await checkSource('blur_fold2.sched', broken);
    const jit = jitOracle({ ...c, translation: { ...c.translation, text: broken } }, bad.impls[0]!, 3);
    expect(jit.bigstep).toBe('mismatch');
    expect(jit.differences).toBeGreaterThan(0);
    const r = await verifyImpl(bad.impls[0]!, {});
    expect(r.verdict).toBe('invalid');
  });
});

/**
 * A hand-written driver output of an rfactor: g(x) = Σ_{0 ≤ r < 4} input(x, r), rfactor'd on r
 * (g_intm(x, u) += input(x, u), then g(x) += g_intm(x, r)). `merge` and `acc` replace the values
 * of the two accumulating stores.
 */
function rfactorDriver(merge = 'g(g.s1.x) + g_intm(g.s1.x, g.s1.r$x)', acc = 'g_intm(g_intm.s1.x, g_intm.s1.u) + input(g_intm.s1.x, g_intm.s1.u)'): DriverOutput {
  // UInt(32): an Int(32) sum is refused (its accumulations would wrap where Halide's overflow is undefined).
  const store = (f: string, coords: string, value: string): string => `${f}(${coords}) = (uint32)return_second(halide_trace_helper("${f}", (void *)make_struct(0), (int32_t *)make_struct(${coords}), 0, 32, 1, 1, 0, 0, 2, ""), ${value})`;
  const asserts = `assert((input.min.0 <= 0) && ((input.extent.0 + input.min.0) >= g.extent.0), halide_error_access_out_of_bounds("Input buffer input", 0))
assert((input.min.1 <= 0) && ((input.extent.1 + input.min.1) >= 4), halide_error_access_out_of_bounds("Input buffer input", 1))`;
  const pass21 = `${asserts}
realize g_intm([0, g.extent.0], [0, 4]) {
 produce g_intm {
  for (g_intm.s0.x, 0, g.extent.0) {
   for (g_intm.s0.u, 0, 4) {
    ${store('g_intm', 'g_intm.s0.x, g_intm.s0.u', '0')}
   }
  }
  for (g_intm.s1.x, 0, g.extent.0) {
   parallel (g_intm.s1.u, 0, 4) {
    ${store('g_intm', 'g_intm.s1.x, g_intm.s1.u', acc)}
   }
  }
 }
 consume g_intm {
  produce g {
   for (g.s0.x, 0, g.extent.0) {
    ${store('g', 'g.s0.x', '0')}
   }
   for (g.s1.x, 0, g.extent.0) {
    for (g.s1.r$x, 0, 4) {
     ${store('g', 'g.s1.x', merge)}
    }
   }
  }
 }
}`;
  const g = (value: string, rvars: string[]) => ({ name: 'g', args: ['x'], type: 'u32', pure: '0', updates: [{ args: ['x'], value, rvars }] });
  return {
    ...fakeDriver(pass21),
    outputType: 'u32',
    funcs: [g('(g(x) + g_intm(x, r$x))', ['r$x']), { name: 'g_intm', args: ['x', 'u'], type: 'u32', pure: '0', updates: [{ args: ['x', 'u'], value: '(g_intm(x, u) + input_im(x, u))', rvars: [] }] }],
    inputs: [{ name: 'input', dims: 2, type: 'u32' }],
    algorithm: { funcs: [g('(g(x) + input_im(x, r$x))', ['r$x'])], pass21: 'let g.s1.r$x.min = 0\nlet g.s1.r$x.max = 3', initial: null },
  };
}

describe('rfactor in the translator (hand-written driver output)', () => {
  it('annotates the intermediate as partial accumulations and the merge as transfers, which verify', async () => {
    const t = translate(rfactorDriver(), 'rf');
    expect(t.text).toContain('output g(v_x): u32 = g_0(v_x) + sum{0 <= r_rx < 4}(input_v(v_x, r_rx))');
    expect(t.text).toMatch(/\{partial g\(g_intm_s1_x\)@\(g_intm_s1_u\)\} \+= in_input\[/);
    expect(t.text).toMatch(/out_g\[g_s1_x\] \{g\(g_s1_x\)\} \+= buf_g_intm\[g_s1_x, g_s1_rx\]/);
    const prog = await checkSource('rf.sched', t.text);
    expect((await verifyImpl(prog.impls[0]!, {})).verdict).toBe('valid');
  });

  it('rewrites a store into an accumulation only when it reads the cell it stores (else rejects it)', () => {
    for (const [merge, acc] of [
      ['g((g.s1.x + 1)) + g_intm(g.s1.x, g.s1.r$x)', undefined],
      ['g(g.s1.x) - g_intm(g.s1.x, g.s1.r$x)', undefined],
      ['g(g.s1.x) + (g_intm(g.s1.x, g.s1.r$x)*2)', undefined],
      [undefined, 'g_intm(g_intm.s1.x, 0) + input(g_intm.s1.x, g_intm.s1.u)'],
    ] as const) expect(() => translate(rfactorDriver(merge, acc), 'rf')).toThrow(/^unsupported: rfactor shape/);
  });

  it('rejects a schedule that rewrites a definition otherwise, or creates a Func that is not an rfactor intermediate', () => {
    const d = rfactorDriver();
    expect(() => translate({ ...d, funcs: [...d.funcs, { name: 'h', args: ['x'], type: 'i32', pure: '1', updates: [] }] }, 'rf')).toThrow(/^unsupported: Func created by the schedule: 'h'/);
    expect(() => translate({ ...d, funcs: [{ ...d.funcs[0]!, pure: '1' }, d.funcs[1]!] }, 'rf')).toThrow(/^unsupported: definition rewritten by the schedule/);
  });
});

describe.skipIf(MISSING !== null)('rfactor through real Halide 14 (apps/dot_rfactor)', () => {
  const app = (n: string): string => join(ROOT, `compilers/halide/apps/${n}.py`);

  it('u32: the spec is the reduction as written, the translation verifies valid, and hand-made scheduling bugs are refuted; an Int(32) sum is refused', async () => {
    const c = halideCase(app('dot_rfactor'), 'dot_rfactor');
    expect(c.tracing.pass21.same).toBe(true);
    const text = c.translation.text;
    expect(text).toContain('output dot(unit): u32 = dot_0(unit) + sum{0 <= r_rx < a_extent_0}(u32(a(r_rx)) * u32(b(r_rx)))');
    // Its partial sums would fold with SCHED's wrapping +=, which has no checked variant.
    const dir = tempDir('sched-halide-');
    const i32 = join(dir, 'dot_i32.py');
    writeFileSync(i32, `import sys\nsys.path.insert(0, ${JSON.stringify(join(ROOT, 'compilers/halide/apps'))})\nimport halide as hl\nfrom dot_rfactor import make\n\n\ndef pipeline():\n    return make(hl.Int(32))\n`);
    expect(() => halideCase(i32, 'dot_i32')).toThrow(/^unsupported: rfactor of an Int\(32\) sum/);
    expect(text).toMatch(/\{partial dot\(0\)@\(/);
    expect(text).toMatch(/out_dot\[\] \{dot\(0\)\} \+= buf_dot_intm\[/);
    const verdict = async (src: string): Promise<string> => (await verifyImpl((await checkSource('dot.sched', src)).impls[0]!, {})).verdict;
    expect(await verdict(text)).toBe('valid');
    const mutate = (a: RegExp, b: string): string => {
      const m = text.replace(a, b);
      expect(m).not.toBe(text);
      return m;
    };
    // A lane never folded; a lane folded twice (and one never); the split's tail dropped.
    expect(await verdict(mutate(/for dot_s1_rx_ri < 8 do/, 'for dot_s1_rx_ri < 7 do'))).toBe('invalid');
    expect(await verdict(mutate(/buf_dot_intm\[dot_s1_rx_ri(?=[ \]])/, 'buf_dot_intm[min(dot_s1_rx_ri, 6)'))).toBe('invalid');
    expect(await verdict(mutate(/for dot_intm_s1_rx_ro < \(?\(a_extent_0 \+ 7\) \/ 8\)? do/, 'for dot_intm_s1_rx_ro < (a_extent_0 / 8) do'))).toBe('invalid');
    // Right code, wrong annotation (two lanes claim one position): never valid.
    expect(await verdict(mutate(/@\((?:\(\(\(dot_intm_s1_rx_ro \* 8\) \+ 0\) \+ dot_intm_s1_u_v8\)|8 \* dot_intm_s1_rx_ro \+ dot_intm_s1_u_v8)\)/, '@(8 * dot_intm_s1_rx_ro + min(dot_intm_s1_u_v8, 6))'))).not.toBe('valid');
  });

  it('f32: valid up to reassociation under --float real, not valid under IEEE', async () => {
    const c = halideCase(app('dot_rfactor_f32'), 'dot_rfactor_f32');
    const ci = (await checkSource('dotf.sched', c.translation.text)).impls[0]!;
    const real = await verifyImpl(ci, { float: 'real' });
    expect([real.verdict, real.qualifier]).toEqual(['valid', 'up to reassociation']);
    expect((await verifyImpl(ci, {})).verdict).not.toBe('valid');
  });

  it('other rfactor shapes verify valid: max from a non-neutral value, two preserved RVars, a Func that is not the output', async () => {
    const dir = tempDir('sched-halide-');
    const shapes: Record<string, string> = {
      // max over a 4-wide 2-D RDom starting from A(0, 0); r.x preserved, the lanes parallel.
      max2d: `r = hl.RDom([(0, 4), (0, A.height())], "r")
    out[()] = A[0, 0]
    out[()] = hl.max(out[()], A[r.x, r.y])
    A.dim(0).set_bounds(0, 4)
    def schedule():
        intm = out.update().rfactor(r.x, u)
        intm.compute_root().update().parallel(u)
        return [intm]`,
      // Both dimensions split, both inner parts preserved.
      two: `r = hl.RDom([(0, A.width()), (0, A.height())], "r")
    out[()] = hl.u32(0)
    out[()] = out[()] + A[r.x, r.y]
    def schedule():
        rxo, rxi, ryo, ryi = hl.RVar("rxo"), hl.RVar("rxi"), hl.RVar("ryo"), hl.RVar("ryi")
        intm = out.update().split(r.x, rxo, rxi, 4).split(r.y, ryo, ryi, 2).rfactor([(rxi, u), (ryi, v)])
        intm.compute_root().update().parallel(v).vectorize(u)
        return [intm]`,
      // Row sums over an RDom starting at 3, consumed by the output; the intermediate per row.
      rows: `r = hl.RDom([(3, A.width() - 3)], "r")
    s = hl.Func("s")
    s[y] = hl.u32(0)
    s[y] = s[y] + A[r.x, y]
    out[y] = s[y] * 2
    funcs.append(s)
    def schedule():
        ro, ri = hl.RVar("ro"), hl.RVar("ri")
        intm = s.update().split(r.x, ro, ri, 4).rfactor(ri, u)
        s.compute_root()
        intm.compute_at(s, y).update().vectorize(u)
        return [intm]`,
    };
    for (const [name, body] of Object.entries(shapes)) {
      const file = join(dir, `${name}.py`);
      writeFileSync(file, `import halide as hl
def pipeline():
    A = hl.ImageParam(hl.UInt(32), 2, "A")
    y, u, v = hl.Var("y"), hl.Var("u"), hl.Var("v")
    out = hl.Func("out")
    funcs = [out]
    ${body}
    return {"output": out, "funcs": funcs, "args": [A], "schedule": schedule}
`);
      const c = halideCase(file, name);
      expect(c.translation.text, name).toMatch(/\{partial /);
      const r = await verifyImpl((await checkSource(`${name}.sched`, c.translation.text)).impls[0]!, {});
      expect(r.verdict, name).toBe('valid');
    }
  });

  it('rejects rfactor applied without the schedule hook (the spec would be the rewritten definitions)', () => {
    const dir = tempDir('sched-halide-');
    const file = join(dir, 'nohook.py');
    const text = (split: boolean): string => `import halide as hl
def pipeline():
    a = hl.ImageParam(hl.Int(32), 1, "a")
    r = hl.RDom([(0, a.width())], "r")
    f = hl.Func("total")
    f[()] = 0
    f[()] = f[()] + a[r.x]
    ro, ri, u = hl.RVar("ro"), hl.RVar("ri"), hl.Var("u")
    intm = ${split ? 'f.update().split(r.x, ro, ri, 4).rfactor(ri, u)' : 'f.update().rfactor(r.x, u)'}
    intm.compute_root()
    return {"output": f, "funcs": [f, intm], "args": [a]}
`;
    for (const split of [true, false]) {
      writeFileSync(file, text(split));
      expect(() => halideCase(file, 'nohook')).toThrow(/^unsupported: rfactor without the schedule hook: 'total' reads 'total_intm'/);
    }
  });
});

// Halide prints LetStmt(x, v, body) as `let x = v` and body at the same indentation: the lets
// of an RDom update's loop nest (`f.s1.r$x.loop_min.orig`) print as if they enclosed the next
// stage's store, which has no loop of its own when f is computed at one point (fuzz seed 0,
// cases 524 and 604, were rejected with `RVar value not in scope`).
describe.skipIf(MISSING !== null)('stages of a Func realized at one point through real Halide 14', () => {
  it('a store without loops after an RDom update is of the later stage: valid, and the JIT agrees', async () => {
    const dir = tempDir('sched-halide-');
    // The pure stage without a loop, then in a loop of its own (a split with GuardWithIf).
    for (const [name, pure] of [['later', ''], ['later_split', '\n    f.split(x, xo, xi, 2, hl.TailStrategy.GuardWithIf)']] as const) {
      const file = join(dir, `${name}.py`);
      writeFileSync(file, `import halide as hl
def pipeline():
    A = hl.ImageParam(hl.UInt(32), 1, "A")
    x, xo, xi = hl.Var("x"), hl.Var("xo"), hl.Var("xi")
    r = hl.RDom([(0, 3)], "r")
    f = hl.Func("f")
    g = hl.Func("g")
    f[x] = A[x]
    f[x] = f[x] + A[x + r.x]
    f[x] = f[x] * 2
    g[x] = f[x] + 1${pure}
    f.compute_at(g, x)
    return {"output": g, "funcs": [f, g], "args": [A], "example": {"output": [10], "A": [12]}}
`);
      const c = halideCase(file, name);
      expect(c.driver.traced.pass21, name).toMatch(/let f\.s1\.r\$x\.loop_min\.orig = 0\n *for \(f\.s1\.r\$x, 0, 3\) \{/);
      const text = c.translation.text;
      expect(text, name).toMatch(/\{f_1\(g_s0_x, f_s1_rx\)\} := /);
      expect(text, name).toMatch(/\{f_2\(g_s0_x\)\} := u32\(\(?buf_f\[[^\]]*\] \* u32\(2\)\)?\)/);
      const ci = (await checkSource(`${name}.sched`, text)).impls[0]!;
      expect((await verifyImpl(ci, {})).verdict, name).toBe('valid');
      const j = jitOracle(c, ci, 1);
      expect([j.bigstep, j.differences], name).toEqual(['match', 0]);
    }
  });
});

// The published Halide bugs of corpus/bugs/ through the real compiler (compilers/halide/bugs/,
// docs/halide.md "Known Halide bugs"): #6808 is in Halide 14: its translation races, and a run
// with the predicate's store read as Halide's if (c) store confirms it (invalid, replayable); the
// fixes of #3883, #3943/#4797, #4385 and #4423 are in 14 and their pipelines verify valid.
describe.skipIf(MISSING !== null)('known Halide bugs through real Halide 14 (compilers/halide/bugs)', () => {
  const BUGS = join(ROOT, 'compilers/halide/bugs');
  const dir = tempDir('sched-halide-bugs-');
  /** A script that builds case c of a bug script's make(). */
  const variant = (bug: string, c: string): string => {
    const file = join(dir, `${bug}_${c}.py`);
    writeFileSync(file, `import sys\nsys.path.insert(0, ${JSON.stringify(BUGS)})\nfrom ${bug} import make\n\n\ndef pipeline():\n    return make(${JSON.stringify(c)})\n`);
    return file;
  };
  /** The verdict of a translation, as `sched halide` reports it (guarded stores confirmed). */
  const result = async (name: string, text: string, guardedStores = 0) => {
    const prog = await checkSource(`${name}.sched`, text);
    return { r: await confirmGuarded(await verifyImpl(prog.impls[0]!, {}), prog.impls[0]!, guardedStores), ci: prog.impls[0]! };
  };
  const verdict = async (name: string, text: string, guardedStores = 0): Promise<[string, string | null]> => {
    const { r } = await result(name, text, guardedStores);
    return [r.verdict, r.class];
  };

  it('#6808: a predicate reading f(0) with the update parallel races, confirmed of Halide\'s code where the predicate holds (unknown where it never does); the programs of the fix\'s test are valid', async () => {
    const trigger = halideCase(join(BUGS, 'halide_6808_rdom_predicate_race.py'), 'h6808');
    // The predicate's if on memory becomes a select around the store (the cell read and rewritten).
    expect(trigger.translation.text).toMatch(/par f_s1_rx < 10 do\s+out_f\[f_s1_rx\] \{f_1\(f_s1_rx, f_s1_rx\)\} := select\(\(?u32\(out_f\[0\]\) == u32\(1\)\)?, u32\(u32\(2\)\), out_f\[f_s1_rx\]\)/);
    expect(trigger.translation.text).toContain('f_1(v_x, r_rx) = select(u32(f_1(0, r_rx - 1)) == u32(1), u32(2), f_1(r_rx, r_rx - 1)) where');
    // The translation races on every input, on an access the select makes (iteration 0 writes
    // out_f[0] back when its predicate fails). Halide's code races when inp(0) = 1: confirmed by a
    // run with the store read as Halide's if (c) store, on small inputs (guarded.ts).
    expect(await verdict('h6808', trigger.translation.text)).toEqual(['invalid', 'race']);
    expect(trigger.translation.guardedStores).toBe(1);
    const { r, ci } = await result('h6808', trigger.translation.text, 1);
    expect([r.verdict, r.class]).toEqual(['invalid', 'race']);
    expect(r.replay).toMatchObject({ conditionalStores: true, inputs: 'small', class: 'race' });
    expect(r.reason).toMatch(/iteration 0 writes out_f\[0\] .* iteration 1 reads it/);
    // The replay is exact: inp(0) = 1 on its seed (the predicate holds at iteration 0), and the
    // same run without conditional stores, or on a seed where inp(0) ≠ 1 with them, differs.
    const ps = new Map(Object.entries(r.replay!.params).map(([k, v]) => [k, BigInt(v)] as const));
    const seed = r.replay!.seed;
    expect(familyInputs('small', seed).input('inp', 'u32', [0])).toBe(1);
    expect(runImpl(ci, ps, { seed, family: 'small', conditionalStores: true }).report.error).toMatchObject({ kind: 'race', location: 'out_f[0]', iterations: { first: 0, second: 1 } });
    const other = [...Array(64).keys()].find((s) => familyInputs('small', s).input('inp', 'u32', [0]) !== 1)!;
    expect(runImpl(ci, ps, { seed: other, family: 'small', conditionalStores: true }).report.outcome).toBe('match');
    // f(0) = 2 inp(0) is even: Halide's code never stores in the update, so never races; the
    // translation's select still does, and no run confirms it: unknown.
    const never = halideCase(variant('halide_6808_rdom_predicate_race', 'never'), 'h6808n');
    expect(await verdict('h6808n', never.translation.text)).toEqual(['invalid', 'race']);
    const n = await result('h6808n', never.translation.text, never.translation.guardedStores);
    expect([n.r.verdict, n.r.class]).toEqual(['unknown', 'unconfirmed']);
    expect(n.r.reason).toMatch(/none of \d+ run\(s\) with them read as Halide's if \(c\) store/);
    const evenOdd = halideCase(variant('halide_6808_rdom_predicate_race', 'even_odd'), 'h6808eo');
    expect(await verdict('h6808eo', evenOdd.translation.text)).toEqual(['valid', null]);
    // Serial, the trigger is valid; a lowering that dropped the predicate is not.
    const serial = halideCase(variant('halide_6808_rdom_predicate_race', 'serial'), 'h6808s');
    expect(await verdict('h6808s', serial.translation.text)).toEqual(['valid', null]);
    const dropped = serial.translation.text.replace(/select\(\(?u32\(out_f\[0\]\) == u32\(1\)\)?, u32\(u32\(2\)\), out_f\[f_s1_rx\]\)/, 'u32(2)');
    expect(dropped).not.toBe(serial.translation.text);
    expect((await verdict('h6808d', dropped))[0]).toBe('invalid');
    // Without the driver's record, the spec would lack the predicate: rejected.
    const unrecorded = { ...serial.driver, funcs: serial.driver.funcs.map((f) => ({ ...f, updates: f.updates.map((u) => ({ ...u, where: [] })) })) };
    expect(() => translate(unrecorded, 'h6808u')).toThrow(/^unsupported: RDom predicate: update 0 of f is guarded by \((\(uint32\))?f\(0\) == (\(uint32\))?1\)/);
  });

  it('#3883, #3943/#4797, #4385, #4423: fixed in 14, valid', async () => {
    // Every other one in the quick tier (`npm test`), all four in the deep tier (test/tier.ts).
    for (const bug of sample(['halide_3883_output_allocation', 'halide_3943_4797_compute_with', 'halide_4385_negative_rdom', 'halide_4423_div_by_zero_roundup'], 2)) {
      const c = halideCase(join(BUGS, `${bug}.py`), bug);
      expect(await verdict(bug, c.translation.text), bug).toEqual(['valid', null]);
    }
    // #3883 with g itself the output: the compiled pipeline asserts that the output buffer starts at
    // -10, which no output of sched's convention (mins 0) satisfies.
    const direct = halideCase(variant('halide_3883_output_allocation', 'direct'), 'h3883d');
    expect(await verdict('h3883d', direct.translation.text)).toEqual(['invalid', 'interface']);
  });
});

describe('verdicts on guarded stores (proofs/validate/halide-guarded.ts)', () => {
  const base = { verdict: 'invalid', class: 'race', reason: 'refuted: rw-safe' } as unknown as Parameters<typeof confirmGuarded>[0];
  const noImpl = undefined as unknown as Parameters<typeof confirmGuarded>[1];
  it('values, valid verdicts and translations without guarded stores are kept as they are', async () => {
    expect(await confirmGuarded(base, noImpl, 0)).toBe(base);
    for (const cls of ['output-mismatch', 'annotation-mismatch', 'interface']) expect((await confirmGuarded({ ...base, class: cls }, noImpl, 1)).verdict).toBe('invalid');
    const valid = { ...base, verdict: 'valid', class: null } as typeof base;
    expect(await confirmGuarded(valid, noImpl, 3)).toBe(valid);
  });
  it('confirms on the inputs a predicate needs: the replay inputs, then 32 seeds of small integers', () => {
    const ins = confirmationInputs({ family: 'small', seed: 5 });
    expect(ins[0]).toEqual({ family: 'small', seed: 5 });
    expect(ins.filter((i) => i.family === 'small')).toHaveLength(32);
    expect(new Set(ins.map((i) => `${i.family}/${i.seed}`)).size).toBe(ins.length);
  });
});
describe("Halide's buffer-size limit on counterexamples (proofs/validate/halide-limits.ts)", () => {
  // bigsgemm's refutation as Halide 14 printed it: no run small enough, A at about 2^31 × 2^31.
  const params = [
    { sched: 'A_extent_0', halide: 'A.extent.0' }, { sched: 'A_extent_1', halide: 'A.extent.1' },
    { sched: 'result_extent_0', halide: 'result.extent.0' }, { sched: 'result_extent_1', halide: 'result.extent.1' }, { sched: 'K', halide: 'K' },
  ];
  const huge = { A_extent_0: '2147483632', A_extent_1: '2147483584', result_extent_0: '2147483632', result_extent_1: '512', K: '7' };
  const refuted = (values: Record<string, string>) => ({
    verdict: 'invalid', class: 'uninitialized-read', reason: 'refuted: the read of buf_As[…]', replay: null,
    counterexample: { values, line: 157, col: 303, obligation: 'R-INIT', description: '' },
  }) as unknown as Parameters<typeof withinBufferLimits>[0];
  const x86 = 'x86-64-linux-avx-avx2-f16c-fma-sse41';
  it('an exact refutation only at sizes Halide refuses is unknown, naming the buffer and its size', () => {
    const r = withinBufferLimits(refuted(huge), params, x86);
    expect([r.verdict, r.class]).toEqual(['unknown', 'unconfirmed']);
    expect(r.reason).toContain('A 2147483632 × 2147483584 = 4611685846628697088 elements, more than the 2147483647');
  });
  it('keeps the invalid within the limit (2^31 − 1 elements exactly), with a replay, or with large_buffers', () => {
    const edge = { ...huge, A_extent_0: '2147483647', A_extent_1: '1', result_extent_0: '46340', result_extent_1: '46340' };
    expect(withinBufferLimits(refuted(edge), params, x86).verdict).toBe('invalid');
    expect(withinBufferLimits(refuted({ ...edge, A_extent_1: '2' }), params, x86).verdict).toBe('unknown');
    const replayed = { ...refuted(huge), replay: { params: { A_extent_0: '3' } } } as unknown as Parameters<typeof withinBufferLimits>[0];
    expect(withinBufferLimits(replayed, params, x86)).toBe(replayed);
    expect(withinBufferLimits(refuted(huge), params, `${x86}-large_buffers`).verdict).toBe('invalid');
    const valid = { ...refuted(huge), verdict: 'valid', class: null, counterexample: null } as unknown as Parameters<typeof withinBufferLimits>[0];
    expect(withinBufferLimits(valid, params, x86)).toBe(valid);
  });
});
describe("Halide's buffer-size limit in affine form (compilers/halide/size-limits.ts)", () => {
  const f = (e: string) => formulaOf(parseExpr('t', e));
  it('the least values come from single-variable bounds, pinned values and aliases', () => {
    const least = leastValues([f('a >= 512 && b == a && 2 * c + 1 >= 9 && d == 7 && a + c >= 3'), f('e <= 4')]);
    expect(Object.fromEntries(least)).toEqual({ a: 512n, b: 512n, c: 4n, d: 7n });
  });
  it("each extent at most the limit over the least product of the buffer's others; none without positive least values", () => {
    const limits = [{ buffer: 'A', extents: ['a0', 'a1'], limit: 2147483647n }, { buffer: 'B', extents: ['b0', 'b1', 'b2'], limit: 2147483647n }];
    const facts = sizeFacts(limits, [f('a0 >= 1 && a1 >= 512 && b0 >= 8 && b1 >= 8')]);
    // a1's bound is a0 >= 1's: 2^31 - 1, nothing beyond the int32 range; b0 and b1 need b2's least
    // value, which is unknown; b2 is bounded by the other two.
    expect(facts).toEqual([{ param: 'a0', max: 4194303n, buffer: 'A' }, { param: 'b2', max: 33554431n, buffer: 'B' }]);
    const three = sizeFacts(limits, [f('b0 >= 8 && b1 >= 8 && b2 >= 2')]);
    expect(three.map((x) => [x.param, x.max])).toEqual([['b0', 134217727n], ['b1', 134217727n], ['b2', 33554431n]]);
    // 4194303 * 512 <= 2^31 - 1 < 4194304 * 512: the bound is exact for the least product.
    expect(4194303n * 512n <= 2147483647n && 4194304n * 512n > 2147483647n).toBe(true);
  });
});
describe.skipIf(MISSING !== null)('apps/unsharp_strict through real Halide 14', () => {
  it("verifies valid: the spec's Gaussian weights exp(-x*x/4.5)/… at x = 0..3 face Halide's inlined exp(-1.0f/4.5f)… (closed terms compared by IEEE value)", async () => {
    const c = halideCase(join(ROOT, 'compilers/halide/apps/unsharp_strict.py'), 'unsharp_strict');
    const prog = await checkSource('unsharp_strict.sched', c.translation.text);
    const r = await verifyImpl(prog.impls[0]!, { timeoutMs: 20_000 });
    expect(r.verdict).toBe('valid');
    expect(r.outcomes.some((o) => /by congruence/.test(o.obligation.rule) && /buf_blur_y/.test(o.obligation.description))).toBe(true);
  });
});

describe("Halide's max(x, 0) for the algorithm's max(0, x)", () => {
  it('is invalid on IEEE floats (-0 and NaN: max(a, b) is a > b ? a : b) and valid with floats as reals', async () => {
    const prog = await checkSource('relu.sched', `spec relu {
  param n;
  input a_v(i): f32;
  output out_v(v_x): f32 = max(f32(0.0), a_v(v_x)) where 0 <= v_x && v_x < n;
}
impl relu_halide of relu {
  input a[i]: f32[n] = a_v(i);
  output out: f32[n] = out_v;
  for x < n do
    out[x] {out_v(x)} := max(a[x], f32(0.0));
}
`);
    expect((await verifyImpl(prog.impls[0]!, {})).verdict).toBe('invalid');
    expect((await verifyImpl(prog.impls[0]!, { float: 'uf' })).verdict).toBe('invalid');
    expect((await verifyImpl(prog.impls[0]!, { float: 'real' })).verdict).toBe('valid');
  });
});

describe.skipIf(MISSING !== null)('apps/conv_layer through real Halide 14', () => {
  it('verifies valid with the target feature strict_float (max(0, conv) kept in the order of the algorithm)', async () => {
    const c = halideCase(join(ROOT, 'compilers/halide/apps/conv_layer_strict.py'), 'conv_layer_strict');
    expect(c.translation.text).toMatch(/\{relu\([^}]*\} := f32\(f32\(max\(f32\(f32\(0\.0\)\), f32\(buf_conv\[/);
    const prog = await checkSource('conv_layer_strict.sched', c.translation.text);
    const r = await verifyImpl(prog.impls[0]!, { timeoutMs: 20_000 });
    expect(r.verdict).toBe('valid');
  });

  it('without strict_float Halide commutes max(0, conv) into max(conv, 0), which differs on -0 and NaN: valid with floats as reals only', async () => {
    const c = halideCase(join(ROOT, 'compilers/halide/apps/conv_layer.py'), 'conv_layer');
    expect(c.translation.text).toMatch(/\{relu\([^}]*\} := f32\(max\(buf_conv\[[^\n]*, f32\(0\.0\)\)\)/);
    const prog = await checkSource('conv_layer.sched', c.translation.text);
    const r = await verifyImpl(prog.impls[0]!, { timeoutMs: 20_000, float: 'real' });
    expect(r.verdict).toBe('valid');
  });
});
