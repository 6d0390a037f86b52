// The spec's SMT encoding (proofs/verifier/smt-spec.ts): a value query defines only the macros its claim reaches.
// Z3 expands nested macros when it reads them, so a chain of stencil stages each reading its
// predecessor 25 times (sc32 through real Halide) exhausted its memory when every stage was defined.

import { describe, expect, it } from 'vitest';
import { checkProgramFull } from '../core/language/check.ts';
import { parseProgram } from '../core/language/parser.ts';
import { axiomsSuffice, relevantRecursive, specEncoding, tensorsMentioned } from '../proofs/verifier/smt-spec.ts';
import { ValueEncoder } from '../proofs/verifier/smt-values.ts';

const CHAIN = `spec chain {
  param n;
  input a(i): i32;
  tensor s0(x): i32;
  tensor s1(x): i32;
  tensor s2(x): i32;
  tensor r(x, k): i32;
  s0(x) = a(x - 1) + a(x + 1);
  s1(x) = s0(x - 1) + s0(x + 1);
  s2(x) = s1(x - 1) + s1(x + 1);
  r(x, k) = r(x, k - 1) + s0(k) where 0 <= k && k < 4;
  r(x, k) = 0 where k < 0;
  output o(x): i32 = s2(x) + r(x, 3) where 0 <= x && x < n;
}
`;

async function spec() {
  const prog = await checkProgramFull(parseProgram('chain.sched', CHAIN));
  return prog.specs.get('chain')!;
}

const defined = (lines: readonly string[]): string[] => lines.flatMap((l) => /^\(define-fun (\S+)/.exec(l)?.[1] ?? []);

describe('the spec encoding of a value query', () => {
  it('defines the macros the claim reaches, and those the emitted axioms read', async () => {
    const cs = await spec();
    expect(tensorsMentioned(cs, ['(assert (! (not (= val.0 (s1 (+ x 1)))) :named goal))', '(= val.1 (s0_x 2))'])).toEqual(new Set(['s1']));
    expect(defined(specEncoding(cs, new ValueEncoder('ieee'), new Set(), new Set(['s1'])))).toEqual(['s0', 's1']);
    // r's axioms are emitted (axiomsFor null: all of them) and read s0.
    expect(defined(specEncoding(cs, new ValueEncoder('ieee'), null, new Set(['a'])))).toEqual(['s0']);
    expect(defined(specEncoding(cs, new ValueEncoder('ieee'), null, null))).toEqual(['s0', 's1', 's2', 'o']);
  });
});

// A `sat` of a script with only some recursive axioms stands for the whole script's only when no
// recursive tensor outside them is reachable (verify.ts skips asking again with all of them).
const NESTED = `spec nested {
  param n;
  input a(i): i32;
  tensor q(k): i32;
  tensor r(k): i32;
  tensor m(x): i32;
  q(k) = q(k - 1) + a(k) where 0 <= k && k < 4;
  q(k) = 0 where k < 0;
  r(k) = r(k - 1) * q(3) where 0 <= k && k < 4;
  r(k) = 1 where k < 0;
  m(x) = a(x) + r(3);
  output o(x): i32 = m(x) where 0 <= x && x < n;
}
`;

describe('axiomsSuffice', () => {
  it('holds only when every recursive tensor the script reaches has its axioms', async () => {
    const cs = (await checkProgramFull(parseProgram('nested.sched', NESTED))).specs.get('nested')!;
    expect(axiomsSuffice(cs, new Set(['q']), new Set(['q']))).toBe(true);
    // r's axioms read q: without q's, a model of r's need not extend.
    expect(axiomsSuffice(cs, new Set(['r']), new Set(['r']))).toBe(false);
    expect(axiomsSuffice(cs, new Set(['q', 'r']), new Set(['r']))).toBe(true);
    // Through a macro: m reads r.
    expect(axiomsSuffice(cs, new Set(['q']), new Set(['m']))).toBe(false);
    expect(axiomsSuffice(cs, new Set(['q', 'r']), new Set(['o']))).toBe(true);
    expect(axiomsSuffice(cs, new Set(), new Set(['a']))).toBe(true);
  });
});

describe('relevantRecursive', () => {
  it("takes the recursive tensors the claim reads, through macros, and those the script's other lines apply", async () => {
    const cs = (await checkProgramFull(parseProgram('nested.sched', NESTED))).specs.get('nested')!;
    const claim = parseProgram('c.sched', 'spec c { output o(): i32 = q(2); }').specs[0]!.equations[0]!.rhs;
    expect([...relevantRecursive(cs, [claim])]).toEqual(['q']);
    // r's own equation reads q; q's does not read r: the claim about q never reaches r ...
    expect([...relevantRecursive(cs, [claim])]).not.toContain('r');
    // ... unless a heap read's alternatives apply it (a value that r(3) may be): then its axioms too.
    expect([...relevantRecursive(cs, [claim], tensorsMentioned(cs, ['(assert (= val.0 (r 3)))']))].sort()).toEqual(['q', 'r']);
    // Through a macro: m reads r.
    expect([...relevantRecursive(cs, [claim], ['m'])].sort()).toEqual(['q', 'r']);
  });
});
