// The number of steps a big-step run of an implementation takes (loop iterations plus
// assignments: what `--max-steps` counts, semantics/bigstep.ts), known before running when every
// loop bound is a function of the parameters alone. A run that exhausts its step budget has paid
// for every step it made (a 1024³ matrix product stops after the whole budget), so a caller that
// may afford a large run asks this first and runs only what fits.

import type { Cmd } from '../core/language/ast.ts';
import type { CheckedImpl } from '../core/language/typecheck.ts';
import { evalExpr } from './eval.ts';

/**
 * The exact number of steps of a run of `ci` at `params` when each loop bound depends on the
 * parameters only (a branch counts as its costlier side, so the count is an upper bound then),
 * or null when a bound depends on a loop variable, a `let` or memory.
 */
export function stepCount(ci: CheckedImpl, params: ReadonlyMap<string, bigint>): bigint | null {
  const env = new Map<string, bigint>(params);
  const bound = (c: Cmd & { kind: 'for' | 'par' }): bigint | null => {
    let v;
    try {
      v = evalExpr(c.bound, env, new Map());
    } catch {
      return null; // a name the environment does not hold (a loop variable, a let)
    }
    if (typeof v === 'bigint') return v > 0n ? v : 0n;
    if (typeof v === 'number' && Number.isInteger(v)) return v > 0 ? BigInt(v) : 0n;
    return null;
  };
  // A bound that names a loop variable or a let is not a function of the parameters, even when
  // the name is also a parameter's: inside the binder it is not found.
  const hiding = <T>(name: string, k: () => T): T => {
    const v = env.get(name);
    env.delete(name);
    try {
      return k();
    } finally {
      if (v !== undefined) env.set(name, v);
    }
  };
  const count = (c: Cmd): bigint | null => {
    switch (c.kind) {
      case 'skip':
        return 0n;
      case 'assign':
        return 1n;
      case 'seq': {
        let t = 0n;
        for (const x of c.cmds) {
          const n = count(x);
          if (n === null) return null;
          t += n;
        }
        return t;
      }
      case 'if': {
        const a = count(c.then);
        const b = c.else === null ? 0n : count(c.else);
        return a === null || b === null ? null : a > b ? a : b;
      }
      case 'let':
        return hiding(c.name, () => count(c.body));
      case 'allocate':
        return count(c.body);
      case 'for':
      case 'par': {
        const n = bound(c);
        const body = n === null || n === 0n ? n : hiding(c.var, () => count(c.body));
        return n === null || body === null ? null : n * (1n + body);
      }
    }
  };
  return count(ci.impl.body);
}

/**
 * The cells of `ci`'s global arrays (inputs, outputs, `array`s) at `params`: what a run fills or
 * holds before its first step. Null when a dimension is not a function of the parameters.
 */
export function globalCells(ci: CheckedImpl, params: ReadonlyMap<string, bigint>): bigint | null {
  const env = new Map<string, bigint>(params);
  let total = 0n;
  for (const { decl } of ci.arrays.values()) {
    let size = 1n;
    for (const d of decl.dims) {
      let v;
      try {
        v = evalExpr(d, env, new Map());
      } catch {
        return null;
      }
      const n = typeof v === 'bigint' ? v : typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : null;
      if (n === null) return null;
      size *= n > 0n ? n : 0n;
    }
    total += size;
  }
  return total;
}
