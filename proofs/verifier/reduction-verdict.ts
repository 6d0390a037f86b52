// The exactness gate of the reduction rules. The rules prove that every cell ends with T's
// initial value combined with T's element at every position of its domain, once each — in some
// order. That is T's value exactly when the operator is associative and commutative at T's type
// (integers: wrapping `+`, `*`, `min`, `max`; `&&`, `||`); on IEEE floats it is T's value up to
// reassociation only. Then the verdict is `valid` with the qualifier "up to reassociation" under
// `--float real` (which reads floats as reals anyway), and otherwise `invalid` when a concrete run
// shows a rounding difference, else `unknown` (class `reassociation`): never silently valid.

import type { CheckedImpl } from '../../core/language/typecheck.ts';
import type { FloatMode } from './smt-values.ts';
import { REPLAY_INPUTS, replay, type ReplayFinding, smallParameters } from './replay.ts';
import type { PendingObligation, SymbolicEvaluator } from './symbolic.ts';
import type { ObligationOutcome } from './obligation.ts';
import { checkSatBatch } from '../../smt/z3.ts';

export const REASSOCIATION_CLASS = 'reassociation';
export const REASSOCIATION_QUALIFIER = 'up to reassociation';

/**
 * The reductions the body accumulates whose operator is not exact at their type and that are not
 * accumulated in the spec's order (every accumulation after the positions already in its cell,
 * lexicographically, no transfer): `+-reduction T (f32) accumulated into 'a'`. The order
 * obligations of the in-order ones are returned with their outcomes (they are part of the proof).
 */
export async function inexactReductions(ev: SymbolicEvaluator, timeoutMs: number): Promise<{ reordered: string[]; order: ObligationOutcome[] }> {
  const out: string[] = [];
  const order: ObligationOutcome[] = [];
  for (const [array, tensors] of ev.accumulated) {
    for (const t of tensors) {
      const info = ev.reductions.get(t);
      if (!info || info.exact) continue;
      const obs = ev.inOrder.get(t);
      let ordered = obs !== undefined && obs !== 'transferred';
      if (ordered) {
        const rendered = (obs as PendingObligation[]).map((p) => p.render('ieee'));
        const answers = await checkSatBatch(rendered.map((o) => o.script), { timeoutMs });
        ordered = answers.every((a) => a.status === 'unsat');
        if (ordered) rendered.forEach((o, k) => order.push({ obligation: o, status: 'proved', ms: answers[k]!.ms, reason: null }));
      }
      if (!ordered) out.push(`${info.def.op}-reduction ${t} (${info.type}) accumulated into '${ev.source(array)}'`);
    }
  }
  return { reordered: [...new Set(out)], order };
}

export type ReassociationVerdict =
  | { readonly verdict: 'valid'; readonly qualifier: string }
  | { readonly verdict: 'invalid'; readonly finding: ReplayFinding; readonly what: string }
  | { readonly verdict: 'unknown'; readonly reason: string };

export async function reassociationVerdict(ci: CheckedImpl, float: FloatMode, inexact: readonly string[]): Promise<ReassociationVerdict> {
  const what = inexact.join(', ');
  if (float === 'real') return { verdict: 'valid', qualifier: REASSOCIATION_QUALIFIER };
  const candidates = await smallParameters(ci, 6, null);
  const found = await replay(ci, candidates, REPLAY_INPUTS);
  if (found !== null) return { verdict: 'invalid', finding: found, what };
  return {
    verdict: 'unknown',
    reason: `every obligation is proved, but only up to reassociation: the ${what} is reordered, and IEEE ${float === 'uf' ? 'operations (here uninterpreted)' : 'arithmetic'} is not associative; no concrete run showed a rounding difference (with --float real the verdict is valid up to reassociation)`,
  };
}
