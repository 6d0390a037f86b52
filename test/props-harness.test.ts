// The harness itself: generators produce well-typed programs, counterexamples shrink to small
// programs and print their seed and path, the derivation checker accepts and rejects what it
// should on hand-made cases, and the precision measurement adds up.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSource } from '../core/language/check.ts';
import { checkDerivation } from '../proofs/metatheory/derivation-check.ts';
import { annotatedArb } from '../proofs/metatheory/gen/annotated.ts';
import { memCaseArb, withText } from '../proofs/metatheory/gen/programs.ts';
import { thm437Explore } from '../proofs/metatheory/properties/chapter4.ts';
import { bigStep, compile, compileCase } from '../proofs/metatheory/properties/harness.ts';
import { mutantById, withMutant } from '../proofs/metatheory/properties/mutants.ts';
import { measurePrecision } from '../proofs/metatheory/properties/precision.ts';
import { evaluate } from '../proofs/metatheory/ref-eval.ts';
import { parseExpr } from '../core/language/parser.ts';

describe('generators', () => {
  it('random programs with memories type-check', () => {
    for (const c of fc.sample(memCaseArb(), { numRuns: 500 })) expect(() => compile(c.src), c.src).not.toThrow();
  });

  it('annotated implementations type-check, and their specs are well-formed', async () => {
    for (const c of fc.sample(annotatedArb(), { numRuns: 500 })) expect(() => compile(c.src), c.src).not.toThrow();
    for (const c of fc.sample(annotatedArb(), { numRuns: 15, seed: 3 })) await checkSource('gen.sched', c.src);
  });

  it('a counterexample shrinks to a small program and reports its seed and path', async () => {
    const r = await withMutant(mutantById('no-ww-check'), () => thm437Explore.run({ numRuns: 2000, seed: 7 }));
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/seed: 7, path: "[\d:]+"/);
    const body = /impl p of s \{\n(?:  array [^\n]*\n)*([\s\S]*?)\n\}\n/.exec(r.message!)?.[1] ?? '';
    expect(body.trim().length, body).toBeLessThan(120);
  });
});

describe('derivation checker', () => {
  const c = withText({
    body: 'par i1 < 2 do { y[i1] := x[i1 + 1] + 1; s[] := 3 };\nallocate t1: i32[2] in { t1[0] := x[0]; for i2 < 2 do w[i2, 0] := select(i2 < 1, t1[0], x[3]) }',
    params: { N: 1, M: 0 },
    pools: { x: [1, 2, 3, 4], y: [0, 0, 0, 0], w: [0, 0, 0, 0, 0, 0, 0, 0, 0], s: [0], f: [0, 0, 0, 0] },
  });

  it('accepts an exported derivation', () => {
    const k = compileCase(c);
    const r = bigStep(k, c.pools, { derivation: true });
    expect(r.ok).toBe(true);
    const res = checkDerivation(k.ci, JSON.parse(JSON.stringify(r.derivation)));
    expect(res).toEqual({ ok: true, nodes: expect.any(Number) });
  });

  it('rejects a derivation of a racy program exported by a semantics without the race check', async () => {
    const racy = withText({ ...c, body: 'par i1 < 2 do x[0] := x[1] + i32(i1)' });
    await withMutant(mutantById('no-ww-check'), async () => {
      const k = compileCase(racy);
      const r = bigStep(k, racy.pools, { derivation: true });
      expect(r.ok).toBe(true);
      const res = checkDerivation(k.ci, JSON.parse(JSON.stringify(r.derivation)));
      expect(res.ok).toBe(false);
      expect(res.ok ? '' : res.reason).toMatch(/write-write race on x\[0\]/);
    });
  });

  it('rejects a derivation whose assignment value is not the right-hand side', () => {
    const k = compileCase(c);
    const d = JSON.parse(JSON.stringify(bigStep(k, c.pools, { derivation: true }).derivation));
    d.root.premises[0].premises[0].premises[0].facts.value = 99;
    const res = checkDerivation(k.ci, d);
    expect(res.ok ? '' : res.reason).toMatch(/records value 99/);
  });
});

describe('independent evaluator', () => {
  const ev = (text: string): string => {
    const ci = compile(`spec s { param N; }\nimpl p of s { array r: i32[]; array q: f32[]; array b: i64[]; r[] := i32(${text}) }`);
    const e = ci.impl.body.kind === 'assign' ? ci.impl.body.rhs : null;
    const res = evaluate(e!, new Map([['N', 3n]]), { cell: () => null });
    return res.ok ? String(res.v) : 'bot';
  };
  it('follows the language page on division, remainder and casts', () => {
    expect(ev('-7 / 2')).toBe('-4');
    expect(ev('-7 % 2')).toBe('1');
    expect(ev('i8(200) + i8(100)')).toBe('44');
    expect(ev('u8(3) - u8(5)')).toBe('254');
    expect(ev('i32(3) / i32(0)')).toBe('0');
    expect(ev('f32(2.9)')).toBe('2');
    expect(ev('f32(-2.9)')).toBe('-2');
    expect(ev('select(N < 2, 1, 2)')).toBe('2');
    expect(parseExpr('x.sched', '1 + 2').kind).toBe('binary');
  });
});

describe('precision of the race check', () => {
  it('classifies every program rejected for a race', () => {
    const p = measurePrecision({ sample: 300, seed: 5 });
    expect(p.races).toBeGreaterThan(10);
    expect(p.nondeterministic + p.stuck + p.deterministic + p.limit).toBe(p.races);
    expect(p.readWrite + p.writeWrite).toBe(p.races);
    expect(p.nondeterministic).toBeGreaterThan(0);
  });
});

describe('regressions found by the properties', () => {
  // Thm 4.4.2 found it: select with a value condition and affine branches was typed as an affine
  // condition, and the evaluators crashed compiling it ("internal: tensor is not an affine
  // condition").
  it('select with a bool value as condition and conditions as branches is a bool value', async () => {
    const { runImpl } = await import('../semantics/run.ts');
    const ci = compile(`spec s { param N; input A(i): bool; output O(): bool = select(A(0), !false, N < 2); }
impl p of s { array c: bool[2]; input a: bool[1] = A; output o: bool[] = O;
  o[] {O()} := select(a[0], !false, N < 2) }`);
    const body = ci.impl.body;
    expect(body.kind === 'assign' ? body.rhs.ty : null).toEqual({ kind: 'value', vt: 'bool' });
    for (const seed of [0, 1, 2, 3]) expect(runImpl(ci, new Map([['N', 3n]]), { seed }).report.outcome).toBe('match');
  });
});
