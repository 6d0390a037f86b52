// I-ONTO for an output whose domain no array can cover: said as an unbounded domain, with the
// `where` that bounds it, and only when the domain really is unbounded for some parameter value
// the assumptions allow (proofs/verifier/interface.ts, unboundedOutput).

import { afterAll, describe, expect, it } from 'vitest';
import { checkSource } from '../core/language/check.ts';
import { checkInterface } from '../proofs/verifier/interface.ts';
import { shutdownZ3 } from '../smt/z3.ts';

afterAll(shutdownZ3);

/** The interface violations of a 1-D (or 2-D) copy kernel whose output is declared with `out`. */
async function violations(out: string, dims = 1): Promise<string[]> {
  const vars = dims === 1 ? 'i' : 'i, j';
  const text = `spec s { param N; assume N >= 1; input A(${vars}): i32; output B(${vars}): i32 = A(${vars}) ${out}; }
impl c of s { input a: i32[${dims === 1 ? 'N' : 'N, N'}] = A; output b: i32[${dims === 1 ? 'N' : 'N, N'}] = B;
  ${dims === 1 ? 'for i < N do b[i] {B(i)} := a[i]' : 'for i < N do for j < N do b[i, j] {B(i, j)} := a[i, j]'} }`;
  const prog = await checkSource('u.sched', text);
  return (await checkInterface(prog.impls[0]!)).violations.map((v) => `${v.rule}: ${v.message}`);
}

describe('an output with an unbounded domain', () => {
  it('no where at all: unbounded both ways, and the where the array suggests', async () => {
    const [v] = await violations('');
    expect(v).toMatch(/^I-ONTO: the domain of output 'B' of spec 's' .* is unbounded: i has no lower or upper bound/);
    expect(v).toContain('Bound it in the spec: output B(i): i32 = … where 0 <= i && i < N');
  });

  it('bounded above only: no lower bound', async () => {
    expect((await violations('where i < N'))[0]).toMatch(/unbounded: i has no lower bound,/);
  });

  it('bounded for every parameter value, even outside the box: the ordinary I-ONTO counterexample', async () => {
    const [v] = await violations('where i >= 0 - 5 && i < N');
    expect(v).toMatch(/^I-ONTO: not every point of the domain of 'B'/);
    expect(v).not.toMatch(/unbounded/);
  });

  it('bounded through a combination of the coordinates: not unbounded, and the kernel is fine', async () => {
    // 0 <= i + j < N and 0 <= j < N bound i too (-N < i < N); the box of b is not the domain.
    const v = await violations('where 0 <= i + j && i + j < N && 0 <= j && j < N', 2);
    expect(v.length).toBeGreaterThan(0);
    expect(v.some((x) => /unbounded/.test(x))).toBe(false);
    expect(await violations('where 0 <= i && i < N && 0 <= j && j < N', 2)).toEqual([]);
  });

  it('unbounded for some parameter values only (those the assumptions allow): said', async () => {
    expect((await violations('where i < N && (N < 5 || i >= 0)'))[0]).toMatch(/unbounded: i has no lower bound/);
  });
});
