// Pipelines written to break the Halide front end (compilers/halide/adversarial/): each one's truth
// is shown by Halide's own realize against a plain-Python reference (truth.py, one process), and
// `sched halide`'s answer on it is pinned: no crash, no `valid` that Halide's execution
// contradicts, no `invalid` on a correct pipeline. The verdict is taken as the command takes it:
// the JIT oracle at the script's example, then the verification, then notContradicted().

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSource } from '../core/language/check.ts';
import { halideCase, HalideError, halideMissing, halidePython, jitOracle } from '../compilers/halide/run.ts';
import { Unsupported } from '../compilers/halide/translate.ts';
import { jitParams, notContradicted } from '../cli/commands/halide.ts';
import { confirmGuarded } from '../proofs/validate/halide-guarded.ts';
import { verifyImpl } from '../proofs/verifier/verify.ts';
import { shutdownZ3 } from '../smt/z3.ts';
import { sample } from './tier.ts';

afterAll(shutdownZ3);

const ROOT = join(import.meta.dirname, '..');
const DIR = join(ROOT, 'compilers/halide/adversarial');
const MISSING = halideMissing();
if (MISSING !== null) process.stderr.write(`halide-adversarial.test: skipped: ${MISSING}\n`);

type Expect =
  | { readonly verdict: 'valid'; readonly assumes?: RegExp }
  | { readonly verdict: 'invalid'; readonly class: string }
  | { readonly verdict: 'not valid' }
  | { readonly rejected: RegExp };

/** What `sched halide` must answer on each script (docs/halide.md says why). */
const EXPECT: Record<string, Expect> = {
  float_to_int_out_of_range: { verdict: 'invalid', class: 'undefined-behaviour' },
  float_to_int_clamped: { verdict: 'valid' },
  empty_input: { verdict: 'valid', assumes: /a_extent_0 >= 1/ },
  constants_alike: { verdict: 'valid' },
  inf_nan_constants: { verdict: 'valid' },
  rfactor_max_float: { verdict: 'not valid' },
  atomic: { rejected: /^unsupported: atomic/ },
  async_producer: { rejected: /^unsupported: async/ },
  prefetch: { verdict: 'valid' },
  extern_stage: { rejected: /^unsupported: extern Func/ },
  hoist_storage: { rejected: /hoist_storage/ },
  uint64_large: { verdict: 'valid' },
  int32_overflow_rewrite: { verdict: 'invalid', class: 'undefined-behaviour' },
  bool_cast: { verdict: 'valid' },
  div_mod_signs: { verdict: 'valid' },
  compute_with: { verdict: 'valid' },
  gpu_schedule: { verdict: 'valid' },
  f64_builtins: { verdict: 'valid' },
  uint64_param: { verdict: 'valid' },
  intrinsic_name: { rejected: /^unsupported: name: a Func named 'max'/ },
  int64_large: { verdict: 'valid' },
  vector_float_to_uint: { verdict: 'invalid', class: 'undefined-behaviour' },
  store_in: { verdict: 'valid' },
  hexagon: { verdict: 'valid' },
  bool_output: { verdict: 'valid' },
  signed_zero_subnormal: { verdict: 'valid' },
  specialize_fail: { verdict: 'valid', assumes: /p >= 4/ },
  // Issue 33, case 12: a select discards cells of P that bounds inference never computed (a `load`).
  select_uncomputed_read: { verdict: 'valid' },
};

/** Where realize and the plain reference disagree: the truth the translation must respect. */
const DISAGREE = new Set(['empty_input']);

describe.skipIf(MISSING !== null)('adversarial pipelines (compilers/halide/adversarial) through real Halide 14', () => {
  let truth = new Map<string, { agree: boolean; halide: string[]; reference: (string | null)[] }>();
  beforeAll(() => {
    const r = spawnSync(halidePython(), [join(DIR, 'truth.py')], { encoding: 'utf8', maxBuffer: 1 << 26, timeout: 600_000 });
    if (r.status !== 0) throw new Error(`truth.py failed (exit ${r.status}): ${r.stderr.slice(-2000)}`);
    const rows = (JSON.parse(r.stdout.trim().split('\n').pop()!) as { truth: { name: string; agree: boolean; halide: string[]; reference: (string | null)[] }[] }).truth;
    truth = new Map(rows.map((x) => [x.name, x]));
  }, 600_000);

  it("Halide's realize against the plain reference: the algorithm's values, except where Halide computes nothing (an empty input is a bounds query)", () => {
    const got = [...truth].map(([n, t]) => [n, t.agree]);
    expect(got).toEqual([...truth.keys()].map((n) => [n, !DISAGREE.has(n)]));
    expect(truth.get('empty_input')?.halide).toEqual(['12345']);
    expect(truth.get('float_to_int_out_of_range')?.halide[0]).toBe('-2147483648');
    // Out of range, this build's vector code saturates (600 -> 255, -300 -> 0): undefined, not wrapped.
    expect(truth.get('vector_float_to_uint')?.halide.slice(2, 4)).toEqual(['255', '0']);
  });

  // Every other pipeline in the quick tier (`npm test`), every one in the deep tier (test/tier.ts).
  for (const [name, want] of sample(Object.entries(EXPECT), 2)) {
    it(name, async () => {
      const script = join(DIR, `${name}.py`);
      if ('rejected' in want) {
        let err: unknown = null;
        try {
          halideCase(script, name);
        } catch (e) {
          err = e;
        }
        expect(err instanceof Unsupported || err instanceof HalideError, String(err)).toBe(true);
        expect((err as Error).message).toMatch(want.rejected);
        return;
      }
      const c = halideCase(script, name);
      const ci = (await checkSource(`${name}.sched`, c.translation.text)).impls[0]!;
      const at = await jitParams(c, ci);
      const jit = typeof at === 'string' ? null : jitOracle(c, ci, 0, at);
      const r = notContradicted(await confirmGuarded(await verifyImpl(ci, { timeoutMs: 10_000 }), ci, c.translation.guardedStores), jit, script);
      const shown = `${r.verdict} (${r.class}): ${r.reason}\n${c.translation.text}`;
      if (want.verdict === 'not valid') expect(r.verdict, shown).not.toBe('valid');
      else expect([r.verdict, r.verdict === 'invalid' ? r.class : null], shown).toEqual([want.verdict, want.verdict === 'invalid' ? want.class : null]);
      if (want.verdict === 'valid' && want.assumes) expect(r.assumptions ?? '').toMatch(want.assumes);
      // Where the verdict is valid, Halide's own run agrees with the translation, bit for bit.
      if (r.verdict === 'valid' && jit !== null && jit.bigstep !== 'error' && !jit.realizeError) expect([jit.differences, jit.tolerance], JSON.stringify(jit.examples)).toEqual([0, null]);
    }, 300_000);
  }
});
