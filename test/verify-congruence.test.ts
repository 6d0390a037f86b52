// Value obligations proved by congruence (proofs/congruence.ts): the two-stage stencil chain of
// thesis Table 6.1, whose output obligations time out as whole value queries, is proved through
// index equalities alone; and the shortcut never proves what is false: mutants with a wrong row, a
// wrong column or a wrong coefficient are not valid.

import { afterAll, describe, expect, it } from 'vitest';
import { checkProgramFull } from '../core/check.ts';
import { parseProgram } from '../core/parser.ts';
import { verifyImpl } from '../proofs/verify.ts';
import { shutdownZ3 } from '../smt/z3.ts';
import { chain } from '../corpus/halide/gen/stencil_chain.mjs';

afterAll(async () => {
  await shutdownZ3();
});

async function verify(text: string) {
  const prog = await checkProgramFull(parseProgram('sc2.sched', text));
  return verifyImpl(prog.impls[0]!, { timeoutMs: 5000 });
}

const SC2 = chain(2);
// The output assignment of the generated program: 25 reads of the folded buffer b1.
const OUTPUT = /out\[xs \+ v, y\] \{Out\(xs \+ v, y\)\} :=[^}]*/;

function mutateOutput(f: (rhs: string) => string): string {
  const m = OUTPUT.exec(SC2);
  if (!m) throw new Error('the generator changed: no output assignment found');
  const changed = f(m[0]);
  if (changed === m[0]) throw new Error('the mutation changed nothing');
  return SC2.replace(m[0], changed);
}

describe('value obligations by congruence', () => {
  it('proves the 2-stage stencil chain, output values included, by index equalities', async () => {
    const r = await verify(SC2);
    expect(r.verdict).toBe('valid');
    const parts = r.outcomes.filter((o) => /by congruence/.test(o.obligation.rule));
    expect(parts.length).toBeGreaterThan(25);
    expect(parts.every((o) => o.status === 'proved' && o.obligation.float === null)).toBe(true);
    expect(parts.some((o) => o.obligation.line === OUTPUT_LINE())).toBe(true);
  }, 120_000);

  const mutants: [string, (s: string) => string][] = [
    ['a wrong row of the folded buffer', (s) => s.replace('b1[xs + v - x0 + 4, (y + 2) % 8]', 'b1[xs + v - x0 + 4, (y + 1) % 8]')],
    ['a wrong column', (s) => s.replace('b1[xs + v - x0 + 3, (y - 1) % 8]', 'b1[xs + v - x0 + 2, (y - 1) % 8]')],
    ['a wrong coefficient', (s) => s.replace('12 * b1[xs + v - x0 + 2, (y + 1) % 8]', '13 * b1[xs + v - x0 + 2, (y + 1) % 8]')],
  ];
  for (const [what, f] of mutants) {
    it(`does not prove the chain with ${what} in the output stage`, async () => {
      const r = await verify(mutateOutput(f));
      expect(r.verdict).not.toBe('valid');
    }, 120_000);
  }
});

function OUTPUT_LINE(): number {
  const at = SC2.indexOf('out[xs + v, y] {Out(xs + v, y)} :=');
  return SC2.slice(0, at).split('\n').length;
}
