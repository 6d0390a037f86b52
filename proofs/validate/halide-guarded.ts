// Verdicts on a translation with guarded stores. Halide 14 lowers an RDom predicate that reads
// memory to `if (c) f(ι) = v`; SCHED's conditions are affine, so the translation writes
// `f[ι] := select(c, v, f[ι])` (translate.ts, guarded()). Same sequential values, more accesses:
// when c fails the cell is still read and written and v still evaluated. A valid verdict covers
// Halide's code (fewer accesses, same values). A race, out-of-bounds or uninitialized read may be
// one of the extra accesses only, so it is confirmed by running the translation with its
// conditional stores read as Halide's `if (c) store` (semantics/bigstep.ts, conditionalStore()):
// every access of such a run is one Halide's code makes, so an error it shows is Halide's, and the
// verdict stays invalid with that run as its replay (`sched run --conditional-stores`). The data
// decide whether c holds, so several input families and seeds are tried; if none shows an error,
// the verdict is unknown (unconfirmed).

import type { CheckedImpl } from '../../core/language/typecheck.ts';
import { REPLAY_INPUTS, type ReplayFinding, type ReplayInput, replayRun, SMALL_RUN, smallParameters } from '../verifier/replay.ts';
import type { Replay, VerifyResult } from '../verifier/verify.ts';
import { replayOf, UNCONFIRMED_CLASS } from '../verifier/verify.ts';

/** The classes an access the translation added can cause. */
const ACCESS_CLASSES = new Set(['race', 'out-of-bounds', 'uninitialized-read']);

/** Seeds of the `small` family tried (integers in [-3, 3]: a predicate `f(0) == 1` holds on ~1 in 7). */
const SMALL_SEEDS = 32;

/** The inputs a confirmation tries: the verdict's own run, the replay inputs, then small integers. */
export function confirmationInputs(own: ReplayInput | null): ReplayInput[] {
  const out: ReplayInput[] = own ? [own] : [];
  const push = (i: ReplayInput): void => {
    if (!out.some((o) => o.family === i.family && o.seed === i.seed)) out.push(i);
  };
  for (const i of REPLAY_INPUTS) push(i);
  for (let s = 0; s < SMALL_SEEDS; s++) push({ family: 'small', seed: s });
  return out;
}

/**
 * `r` as a verdict on Halide's code: unchanged unless it is an access error of a translation
 * with guarded stores, which is kept only if a run with the conditional stores read as
 * `if (c) store` shows an access error (its replay replaces the translation's).
 */
export async function confirmGuarded(r: VerifyResult, ci: CheckedImpl, guardedStores: number): Promise<VerifyResult> {
  if (guardedStores === 0 || r.verdict !== 'invalid' || r.class === null || !ACCESS_CLASSES.has(r.class)) return r;
  // The verdict's own parameters first; small models of the assumptions only if those fail.
  const own = [r.replay?.params, r.counterexample?.values].flatMap((rec) => {
    if (rec === undefined || !ci.spec.params.every((p) => rec[p] !== undefined && /^-?\d+$/.test(rec[p]!))) return [];
    return [new Map(ci.spec.params.map((p) => [p, BigInt(rec[p]!)] as const))];
  });
  const inputs = confirmationInputs(r.replay ? { family: r.replay.inputs, seed: r.replay.seed } : null);
  const tried = new Set<string>();
  let runs = 0;
  for (const batch of [async () => own, () => smallParameters(ci, 3, null)]) {
    for (const params of await batch()) {
      const key = ci.spec.params.map((p) => params.get(p)).join(',');
      if (tried.has(key)) continue;
      tried.add(key);
      for (const input of inputs) {
        const f = replayRun(ci, params, input, { ...SMALL_RUN, conditionalStores: true });
        if (f === 'too-large') break;
        runs++;
        if (f !== null && ACCESS_CLASSES.has(f.class)) return confirmed(r, f, guardedStores);
      }
    }
  }
  return unconfirmed(r, guardedStores, runs);
}

function confirmed(r: VerifyResult, f: ReplayFinding, guardedStores: number): VerifyResult {
  const replay: Replay = { ...replayOf(f), conditionalStores: true };
  const at = Object.entries(f.params).map(([k, v]) => `${k} = ${v}`).join(', ');
  return {
    ...r,
    class: f.class,
    reason: `${f.detail} (concrete run with ${at}, ${f.inputs} inputs of seed ${f.seed}, the ${guardedStores} store(s) under a data-dependent if run as Halide's if (c) store, so every access is one Halide's code makes; the translation's ${r.class}: ${r.reason ?? ''})`,
    counterexample: r.counterexample ? { ...r.counterexample, values: f.params, line: f.line || r.counterexample.line, col: f.line ? f.col : r.counterexample.col } : null,
    replay,
  };
}

function unconfirmed(r: VerifyResult, guardedStores: number, runs: number): VerifyResult {
  return {
    ...r,
    verdict: 'unknown',
    class: UNCONFIRMED_CLASS,
    reason: `${r.reason ?? r.class} — a ${r.class} of the translation, not shown of Halide's code: ${guardedStores} store(s) under a data-dependent if (an RDom predicate) are translated as select(c, v, cell), which also reads and writes the cell and evaluates v when c fails, and none of ${runs} run(s) with them read as Halide's if (c) store (--conditional-stores; default, corner, spread and small inputs) showed an access error (the replay command runs the translation)`,
  };
}
