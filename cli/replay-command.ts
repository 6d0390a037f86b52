// The `sched run` command line that reproduces a verdict's counterexample (its parameters, the
// input family and seed, the solver's input values, whether annotations are checked, whether
// conditional stores run as `if (c) store`, the slice when the whole program is too large to run).

import type { Replay } from '../proofs/verifier/verify.ts';

/** The `sched run` command line that reproduces a counterexample. */
export function replayCommand(file: string, impl: string, r: Replay): string {
  const quote = (x: string): string => (/^[A-Za-z0-9_./=:-]+$/.test(x) ? x : `'${x.replace(/'/g, `'\\''`)}'`);
  const parts = ['npx', 'sched', 'run', quote(file), '--impl', quote(impl), ...Object.entries(r.params).flatMap(([k, v]) => ['--param', `${k}=${v}`])];
  if (r.seed !== 0) parts.push('--seed', String(r.seed));
  if (r.inputs !== 'default') parts.push('--inputs', r.inputs);
  for (const v of r.inputValues) parts.push('--input', quote(`${v.tensor}(${v.point.join(',')})=${v.value}`));
  if (r.annotations) parts.push('--check-annotations');
  if (r.conditionalStores) parts.push('--conditional-stores');
  if (r.slice) parts.push('--slice', quote(r.slice));
  return parts.join(' ');
}

