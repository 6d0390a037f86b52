// Runs a verdict's replay can afford: the static step count of a run (semantics/steps.ts) and the
// slice that runs one iteration of the par loops around an assignment (semantics/slice.ts).
// Random programs check both against the big-step semantics: the count is what `maxSteps`
// counts, and a slice does what the whole program does in that iteration.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runImpl } from '../semantics/run.ts';
import { stepCount } from '../semantics/steps.ts';
import { commandAt, parseSlice, SliceError, sliceImpl, sliceText } from '../semantics/slice.ts';
import { cmdArb, dump, impl, params, programArb, RANDOM_HEADER } from './semantics-helpers.ts';

const limited = (r: ReturnType<typeof runImpl>): boolean => r.report.error?.kind === 'limit';

describe('stepCount', () => {
  it('is the budget a run needs: enough with it, one short without (random programs)', () => {
    fc.assert(
      fc.property(programArb(3), (text) => {
        const ci = impl(text);
        const n = stepCount(ci, new Map());
        expect(n).not.toBeNull(); // every bound of these programs is a constant
        const whole = runImpl(ci, params({}), { maxSteps: Number(n) });
        expect(limited(whole)).toBe(false);
        // A branch counts as its costlier side, so the count is exact without `if`.
        if (!text.includes(' if ') && whole.result.ok && n! > 0n) expect(limited(runImpl(ci, params({}), { maxSteps: Number(n) - 1 }))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('is null when a bound depends on a loop variable or a let, even one named as a parameter', () => {
    const head = 'spec s { param N; input X(i): i32; output Y(i): i32 = X(i) where 0 <= i && i < N; }\nimpl p of s {\n  input x: i32[N] = X;\n  output y: i32[N] = Y;\n';
    expect(stepCount(impl(`${head}  par i < N do for j < 2 * N do y[i] := x[i]\n}\n`), params({ N: 1024 }))).toBe(1024n * (1n + 2048n * 2n));
    expect(stepCount(impl(`${head}  par i < N do for j < i do y[i] := x[i]\n}\n`), params({ N: 4 }))).toBeNull();
    expect(stepCount(impl(`${head}  let k = N - 1 in par i < k do y[i] := x[i]\n}\n`), params({ N: 4 }))).toBeNull();
  });
});

// A kernel whose annotation is wrong in one iteration of its outer par loop only.
const KERNEL = `spec s {
  param N;
  input X(i, j): i32;
  output Y(i, j): i32 = X(i, j) + 1 where 0 <= i && i < N && 0 <= j && j < 4;
}
impl p of s {
  input  x: i32[N, 4] = X;
  output y: i32[N, 4] = Y;
  array t: i32[N, 4];
  par i < N do
    par j < 4 do
      t[i, j] {X(i, j) + select(i == 2, 2, 1)} := x[i, j] + 1;
  par i < N do
    for j < 4 do
      y[i, j] {Y(i, j)} := t[i, j]
}
`;

describe('sliceImpl', () => {
  const ci = impl(KERNEL);
  it('finds the assignment at a line, or the loop at a position, and the binders around it', () => {
    expect(commandAt(ci, 12)).toMatchObject({ cmd: { kind: 'assign' }, binders: [{ kind: 'par', name: 'i' }, { kind: 'par', name: 'j' }], assignmentLine: 12 });
    expect(commandAt(ci, 15)?.binders).toEqual([{ kind: 'par', name: 'i' }, { kind: 'for', name: 'j' }]);
    expect(commandAt(ci, 11)).toBeNull();
    // The inner par loop of the first nest (line 11, column 5): around it only `par i`.
    expect(commandAt(ci, 11, 5)).toMatchObject({ cmd: { kind: 'par', var: 'j' }, binders: [{ kind: 'par', name: 'i' }], assignmentLine: 12 });
    expect(commandAt(ci, 11, 4)).toBeNull();
  });

  it('shows the annotation of the iteration it runs, and only that one', () => {
    const at = (text: string) => runImpl(ci, params({ N: 1024 }), { checkAnnotations: true, slice: parseSlice(text)! });
    const bad = at('12:i=2,j=3');
    expect(bad.report.outcome).toBe('sliced');
    expect(bad.annotations).toMatchObject({ line: 12 });
    expect(bad.report.writes).toBe(1);
    expect(at('12:i=1').annotations).toBeNull();
    expect(at('12:i=1').report.writes).toBe(4);
    // The second nest reads t, which the first wrote whole: a slice of it runs the first whole.
    const second = at('15:i=5');
    expect(second.report.outcome).toBe('sliced');
    expect(second.report.writes).toBe(1024 * 4 + 4);
    expect(second.annotations).toMatchObject({ line: 12 }); // iteration i = 2 of the first nest
    // A sequential loop runs the iterations before the sliced one whole, then that one.
    expect(at('15:i=5,j=2').report.writes).toBe(1024 * 4 + 3);
    expect(at('15:i=5,j=0').report.writes).toBe(1024 * 4 + 1);
  });

  it('refuses a slice that names other loops, a sequential one, or a line without assignment', () => {
    const err = (text: string): string => {
      try {
        sliceImpl(ci, parseSlice(text)!);
        return 'no error';
      } catch (e) {
        expect(e).toBeInstanceOf(SliceError);
        return (e as Error).message;
      }
    };
    expect(err('12:j=1')).toMatch(/outermost first, par i, par j; a slice names the first of them/);
    expect(err('12:i=1,j=2,k=0')).toMatch(/it names i, j, k/);
    expect(err('11:i=1')).toMatch(/no assignment at line 11/);
    expect(parseSlice('12:i=-1')).toBeNull();
    expect(parseSlice('12')).toBeNull();
    expect(sliceText(parseSlice(' 12 : i = 2 ,j=3')!)).toBe('12:i=2,j=3');
  });

  it('does what the whole program does in the iteration (random programs)', () => {
    // A random prefix, then a loop on its own line. The slice of iteration k of a par loop runs
    // the prefix and `let v0 = k in body`: when the whole run is derivable, every slice is too;
    // every cell a slice changes (against the prefix alone) holds the whole run's final value, and
    // every cell the whole run changes is changed so by some slice; when a slice fails, the whole
    // run fails. The slice of iteration k of a for loop is the program with the loop cut to k + 1
    // iterations.
    const arb = fc.tuple(
      fc.boolean(),
      cmdArb({ vars: [], locals: [], depth: 2 }),
      fc.constantFrom('par', 'for'),
      fc.integer({ min: 1, max: 3 }),
      cmdArb({ vars: ['v0'], locals: [], depth: 2 }),
      fc.integer({ min: 0, max: 5 }),
    );
    fc.assert(
      fc.property(arb, ([init, prefix, kind, n, body, seed]) => {
        const head = `${RANDOM_HEADER}${init ? '  y[0] := 0; y[1] := 0; y[2] := 0; z[] := 0;\n' : ''}  ${prefix};\n`;
        const line = head.split('\n').length;
        const ci = impl(`${head}  ${kind} v0 < ${n} do ${body}\n}\n`);
        const whole = runImpl(ci, params({}), { seed });
        const sliceAt = (k: number): ReturnType<typeof runImpl> => runImpl(ci, params({}), { seed, slice: { line, iteration: [['v0', BigInt(k)]] } });
        const same = (a: ReturnType<typeof runImpl>, b: ReturnType<typeof runImpl>): void => {
          expect(a.result.ok).toBe(b.result.ok);
          if (a.result.ok) expect(dump(a.memory)).toEqual(dump(b.memory));
        };
        if (kind === 'for') {
          for (let k = 0; k < n; k++) same(sliceAt(k), runImpl(impl(`${head}  for v0 < ${k + 1} do ${body}\n}\n`), params({}), { seed }));
          return;
        }
        const before = dump(runImpl(impl(`${head}  skip\n}\n`), params({}), { seed }).memory);
        const changed = (m: ReturnType<typeof dump>): Map<string, unknown> => {
          const out = new Map<string, unknown>();
          for (const name of Object.keys(m)) for (const [c, v] of m[name]!.entries()) if (!Object.is(v, before[name]![c])) out.set(`${name} ${c}`, v);
          return out;
        };
        const slices = [...Array(n).keys()].map((k) => {
          const r = sliceAt(k);
          same(r, runImpl(impl(`${head}  let v0 = ${k} in ${body}\n}\n`), params({}), { seed }));
          return r;
        });
        if (slices.some((r) => !r.result.ok)) expect(whole.result.ok).toBe(false);
        if (!whole.result.ok) return;
        const final = dump(whole.memory);
        const w = changed(final);
        const bySlices = new Map<string, unknown>();
        for (const r of slices) {
          expect(r.result.ok).toBe(true);
          for (const [cell, v] of changed(dump(r.memory))) {
            const [name, c] = cell.split(' ');
            expect(final[name!]![Number(c)]).toEqual(v);
            bySlices.set(cell, v);
          }
        }
        for (const [cell, v] of w) expect(bySlices.get(cell)).toEqual(v);
      }),
      { numRuns: 400 },
    );
  });
});
