// The exactness gate of the reduction rules. The rules prove that every cell ends with T's
// initial value combined with T's element at every position of its domain, once each — in some
// order. That is T's value exactly when the operator is associative and commutative at T's type
// (integers: wrapping `+`, `*`, `min`, `max`; `&&`, `||`); on IEEE floats it is T's value up to
// reassociation only. Then the verdict is `valid` with the qualifier "up to reassociation" under
// `--float real` (which reads floats as reals anyway), and otherwise `invalid` when a concrete run
// shows a rounding difference, else `unknown` (class `reassociation`): never silently valid.

import type { CheckedImpl } from '../core/typecheck.ts';
import type { FloatMode } from '../smt/values.ts';
import { REPLAY_INPUTS, replay, type ReplayFinding, smallParameters } from './replay.ts';
import type { SymbolicEvaluator } from './symbolic.ts';

export const REASSOCIATION_CLASS = 'reassociation';
export const REASSOCIATION_QUALIFIER = 'up to reassociation';

/** The reductions the body accumulates whose operator is not exact at their type: `T into a`. */
export function inexactReductions(ev: SymbolicEvaluator): string[] {
  const out: string[] = [];
  for (const [array, tensors] of ev.accumulated) {
    for (const t of tensors) {
      const info = ev.reductions.get(t);
      if (info && !info.exact) out.push(`${info.def.op}-reduction ${t} (${info.type}) accumulated into '${ev.source(array)}'`);
    }
  }
  return [...new Set(out)];
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
