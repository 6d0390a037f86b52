// Halide's buffer-size limit, applied to a refutation's counterexample. Before it computes
// anything, Halide 14's code checks that each buffer's extents multiply to at most 2^31 − 1
// elements unless the target has `large_buffers` (halide_error_buffer_extents_too_large, from
// AddImageChecks), and fails otherwise. The translation does not assume these asserts: a product
// of extents is not affine (translate.ts counts them among the buffer-metadata asserts). So the
// solver can refute an obligation only at sizes no run of Halide's code has: bigsgemm's
// uninitialized read, with A at 2,147,483,632 × 2,147,483,584. Such an `invalid` is not shown of
// Halide's code: unknown, naming the buffer.

import type { VerifyResult } from '../verifier/verify.ts';
import { UNCONFIRMED_CLASS } from '../verifier/verify.ts';

/** The most elements a buffer may have in Halide's code without `large_buffers`. */
export const HALIDE_MAX_ELEMENTS = 2n ** 31n - 1n;

/**
 * `r` unless it is an `invalid` that no concrete run showed (no replay) and whose counterexample
 * gives some buffer more elements than Halide's code accepts: then unknown (unconfirmed).
 * `params` maps the spec's parameters to Halide's names (`A_extent_0` ↔ `A.extent.0`).
 */
export function withinBufferLimits(r: VerifyResult, params: readonly { readonly sched: string; readonly halide: string }[], target: string | undefined): VerifyResult {
  if (r.verdict !== 'invalid' || r.replay !== null || r.counterexample === null) return r;
  if ((target ?? '').split('-').includes('large_buffers')) return r;
  const values = r.counterexample.values;
  const extents = new Map<string, bigint[]>();
  for (const p of params) {
    const m = /^(.+)\.extent\.\d+$/.exec(p.halide);
    const v = values[p.sched];
    if (m === null || v === undefined || !/^-?\d+$/.test(v)) continue;
    extents.set(m[1]!, [...(extents.get(m[1]!) ?? []), BigInt(v)]);
  }
  for (const [buffer, es] of extents) {
    const elements = es.reduce((a, e) => a * (e < 0n ? -e : e), 1n);
    if (elements <= HALIDE_MAX_ELEMENTS) continue;
    return {
      ...r,
      verdict: 'unknown',
      class: UNCONFIRMED_CLASS,
      reason: `${r.reason ?? r.class} — not shown of Halide's code: the counterexample gives ${buffer} ${es.join(' × ')} = ${elements} elements, more than the ${HALIDE_MAX_ELEMENTS} Halide 14 accepts without large_buffers (halide_error_buffer_extents_too_large: its code fails before computing anything), and no run small enough to show the ${r.class} was found`,
    };
  }
  return r;
}
