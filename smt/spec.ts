// SMT-LIB encoding of a well-formed spec (ARCHITECTURE decision 3): one uninterpreted function
// per tensor, one named, quantified axiom per equation, `∀x. guard(x) ⇒ T(x) = rhs(x)`, with
// T(x) as the instantiation pattern. Only well-formed specs may be encoded: an ill-founded one
// (A(i) = A(i) + 1) would be an inconsistent axiom set from which anything follows.

import { smtSymbol } from './affine.ts';
import type { CheckedSpec, NormEquation } from '../core/typecheck.ts';
import type { ValueEncoder } from './values.ts';

export function tensorFunctionName(tensor: string): string {
  return smtSymbol(tensor);
}

/** Declarations of every tensor of the spec. */
export function declareTensors(cs: CheckedSpec, enc: ValueEncoder): string[] {
  const out: string[] = [];
  for (const t of cs.tensors.values()) {
    const args = t.vars.map(() => 'Int').join(' ');
    out.push(`(declare-fun ${tensorFunctionName(t.name)} (${args}) ${enc.sort(t.type)})`);
  }
  return out;
}

export function axiomName(eq: NormEquation): string {
  return `spec.${eq.tensor}.${eq.ordinal}`;
}

/** The axiom of one equation, as a named assertion. */
export function equationAxiom(eq: NormEquation, enc: ValueEncoder): string {
  const bound = eq.vars.map((_, k) => `x!${k}`);
  const rename = new Map(eq.vars.map((v, k) => [v, bound[k]!] as const));
  const intVar = (n: string): string => rename.get(n) ?? smtSymbol(n);
  const head = bound.length === 0 ? tensorFunctionName(eq.tensor) : `(${tensorFunctionName(eq.tensor)} ${bound.join(' ')})`;
  const guard = enc.index(eq.guard, { intVar });
  const rhs = enc.value(eq.rhs, { intVar });
  const body = guard === 'true' ? `(= ${head} ${rhs})` : `(=> ${guard} (= ${head} ${rhs}))`;
  if (bound.length === 0) return `(assert (! ${body} :named ${axiomName(eq)}))`;
  const binders = bound.map((b) => `(${b} Int)`).join(' ');
  return `(assert (! (forall (${binders}) (! ${body} :pattern (${head}))) :named ${axiomName(eq)}))`;
}

export function specAxioms(cs: CheckedSpec, enc: ValueEncoder): string[] {
  return cs.equations.map((eq) => equationAxiom(eq, enc));
}
