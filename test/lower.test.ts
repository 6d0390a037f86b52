// The reference scheduling compiler (compilers/reference): text formats, the SARE reduction, lowered
// programs that type-check, run correctly and verify, annotations carried from the algorithm,
// illegal schedules rejected, and every injected bug visible to a concrete run.

import { afterAll, describe, expect, it } from 'vitest';
import type { Assign, Cmd } from '../core/language/ast.ts';
import { checkSource } from '../core/language/check.ts';
import { checkAlgorithm, LowerError, parseAlgorithmText, printAlgorithmText } from '../compilers/algorithm/algorithm.ts';
import { BUG_NAMES, type BugName } from '../compilers/reference/bugs.ts';
import { lower } from '../compilers/reference/lower.ts';
import { printSpec } from '../core/language/printer.ts';
import { algorithmToSpec } from '../compilers/algorithm/sare.ts';
import { parseScheduleText, printScheduleText } from '../compilers/algorithm/schedule.ts';
import { REPLAY_INPUTS, replay } from '../proofs/verifier/replay.ts';
import { verifyImpl } from '../proofs/verifier/verify.ts';
import { shutdownZ3 } from '../smt/z3.ts';
import { BLUR, BUG_FIXTURES, type Fixture, MATMUL, MIXED, STENCIL } from './lower-fixtures.ts';

afterAll(async () => {
  await shutdownZ3();
});

async function compile(fx: Fixture, bugs: BugName[] = []) {
  const out = lower(parseAlgorithmText(fx.alg), parseScheduleText(fx.sched), { bugs });
  const checked = await checkSource('lowered.sched', out.text);
  return { out, ci: checked.impls[0]! };
}

const paramSets = (fx: Fixture) => fx.params.map((p) => new Map(Object.entries(p).map(([k, v]) => [k, BigInt(v)] as const)));

function assignments(c: Cmd, out: Assign[] = []): Assign[] {
  if (c.kind === 'assign') out.push(c);
  else if (c.kind === 'seq') c.cmds.forEach((x) => assignments(x, out));
  else if (c.kind === 'if') {
    assignments(c.then, out);
    if (c.else) assignments(c.else, out);
  } else if (c.kind !== 'skip') assignments(c.body, out);
  return out;
}

describe('text formats', () => {
  it('algorithms round-trip through the text form', () => {
    for (const fx of [STENCIL, BLUR, MATMUL, MIXED]) {
      const a = parseAlgorithmText(fx.alg);
      const b = parseAlgorithmText(printAlgorithmText(a));
      expect(printSpec(algorithmToSpec(checkAlgorithm(b), 's'))).toBe(printSpec(algorithmToSpec(checkAlgorithm(a), 's')));
    }
  });

  it('schedules round-trip through the text form', () => {
    for (const fx of [STENCIL, BLUR, MATMUL, MIXED]) {
      const s = parseScheduleText(fx.sched);
      expect(parseScheduleText(printScheduleText(s))).toEqual(s);
    }
  });

  it('bad input is a LowerError naming the problem', () => {
    expect(() => checkAlgorithm(parseAlgorithmText('param N; input A(x): i32; func F(x): i32 = F(x - 1); output F(N);'))).toThrow(/not an input or an earlier Func/);
    expect(() => checkAlgorithm(parseAlgorithmText('param N; input A(x, y): i32; func F(x, y): i32 = A(x, y); update F(x, y) = F(y, x) + 1; output F(N, N);'))).toThrow(/update restriction/);
    expect(() => parseScheduleText('F.split(x, xo, xi, four)')).toThrow(LowerError);
  });
});

describe('the SARE reduction (thesis §2.4.4)', () => {
  it('gives stage tensors with the reduction index, a copy outside the box, and the final value', () => {
    const spec = printSpec(algorithmToSpec(checkAlgorithm(parseAlgorithmText(MATMUL.alg)), 'mm'));
    expect(spec).toContain('C_0(i, j) = 0.0;');
    expect(spec).toContain('C_1(i, j, k) = C_1(i, j, k - 1) + A(i, k) * B(k, j) where 0 <= k && k < K;');
    expect(spec).toContain('C_1(i, j, k) = C_0(i, j) where k < 0 || k >= K;');
    expect(spec).toMatch(/output C\(i, j\): f32 = C_1\(i, j, K - 1\) where 0 <= i && i < \w+ && 0 <= j && j < \w+;/);
  });

  it('orders two reduction variables outermost first, the first RDom dimension fastest, with a filter', () => {
    const spec = printSpec(algorithmToSpec(checkAlgorithm(parseAlgorithmText(MIXED.alg)), 'm'));
    expect(spec).toContain('F_1(x, y, ry, rx) = F_1(x, y, select(rx <= 0, ry - 1, ry), select(rx <= 0, 1, rx - 1)) * 2 + A(x + rx, y + ry) where 0 <= ry && ry < K && 0 <= rx && rx < 2 && rx != ry;');
    expect(spec).toMatch(/output F\(x, y\): i32 = F_1\(x, y, K - 1, 1\) where 0 <= x && x < \w+ && 0 <= y && y < \w+;/);
  });
});

describe('lowered programs', () => {
  for (const [name, fx] of Object.entries({ STENCIL, BLUR, MATMUL, MIXED })) {
    it(`${name}: type-checks, every assignment is annotated with a stage tensor, concrete runs match`, async () => {
      const { ci } = await compile(fx);
      const tensors = new Set(ci.spec.tensors.keys());
      for (const a of assignments(ci.impl.body)) {
        expect(a.annot).not.toBeNull();
        expect(a.annot!.kind).toBe('tensor');
        expect(tensors.has((a.annot as { name: string }).name)).toBe(true);
      }
      expect(await replay(ci, paramSets(fx), REPLAY_INPUTS.slice(0, 2))).toBeNull();
    });
  }

  it('carries the original indices: the tile shifted inwards appears in the annotation', async () => {
    const { out } = await compile(STENCIL);
    expect(out.text).toContain('{F_0(min(N - 4, 4 * xo) + xi)}');
    expect(out.text).toContain('assume N >= 4;');
  });

  it('slides the blur window with loop rewinding and folds its storage by the footprint', async () => {
    const { out } = await compile(BLUR);
    expect(out.text).toContain('allocate buf_BX: u16[W, 3]');
    expect(out.text).toContain('for yi < 10 do');
    expect(out.text).toContain('if yi >= 2 then');
    expect(out.text).toMatch(/% 3\]/);
  });

  it('the verifier proves the stencil and the blur valid', async () => {
    for (const fx of [STENCIL, BLUR]) {
      const { ci } = await compile(fx);
      const r = await verifyImpl(ci, { timeoutMs: 20_000 });
      expect(r.verdict, r.reason ?? '').toBe('valid');
    }
  });
});

describe('illegal schedules are rejected', () => {
  const alg = parseAlgorithmText(MATMUL.alg);
  const bad = [
    ['C.update(0).parallel(k)', /reduction loop/],
    ['C.update(0).split(k, ko, ki, 2, ShiftInwards)', /not legal for a reduction variable/],
    ['C.update(0).split(i, io, ii, 2, ShiftInwards)', /re-applies an update/],
    ['C.update(0).split(k, ko, ki, 2).reorder(ko, ki)', /order of the reduction/],
    ['C.split(i, io, ii, 4).vectorize(io)', /constant extent/],
    ['C.fuse(i, j, f)', /constant extent/],
    ['C.split(q, qo, qi, 2)', /no loop 'q'/],
  ] as const;
  for (const [s, re] of bad) {
    it(s, () => {
      expect(() => lower(alg, parseScheduleText(s))).toThrow(re);
    });
  }

  it('a producer stored outside a parallel loop it is computed in', () => {
    const s = 'BY.split(y, yo, yi, 8).parallel(yo)\nBX.store_root().compute_at(BY, yi)';
    expect(() => lower(parseAlgorithmText(BLUR.alg), parseScheduleText(s))).toThrow(/race on the buffer/);
  });

  it('a ShiftInwards split wider than a constant extent', () => {
    const s = 'F.split(x, xo, xi, 2).split(xi, xio, xii, 4, ShiftInwards)';
    expect(() => lower(parseAlgorithmText(STENCIL.alg), parseScheduleText(s))).toThrow(/never holds/);
  });
});

describe('injected bugs', () => {
  for (const bug of BUG_NAMES) {
    it(`${bug}: changes the program, and a concrete run exposes it`, async () => {
      const fx = BUG_FIXTURES[bug];
      const good = await compile(fx);
      const bad = await compile(fx, [bug]);
      expect(bad.out.text).not.toBe(good.out.text);
      expect(await replay(good.ci, paramSets(fx), REPLAY_INPUTS.slice(0, 2))).toBeNull();
      const found = await replay(bad.ci, paramSets(fx), REPLAY_INPUTS.slice(0, 2));
      expect(found, `${bug} not exposed`).not.toBeNull();
    });
  }

});
