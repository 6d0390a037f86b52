// SMT-LIB encoding of a well-formed spec (ARCHITECTURE decision 3). Only well-formed specs may be
// encoded: an ill-founded one (A(i) = A(i) + 1) would be an inconsistent axiom set.
//
// - Input tensors: uninterpreted functions.
// - Computed tensors outside every recursive group: `define-fun` macros,
//     T(x) := ite(φ1(x), e1(x), ite(φ2(x), e2(x), T.undef(x)))
//   with T.undef uninterpreted (a computed tensor is unconstrained outside its domains). Solvers
//   expand macros eagerly, so stages such as `Prod(k, i, j) = A(i, k) * B(k, j)` cost no
//   quantifier instantiation at all.
// - Tensors of a recursive group (reductions): uninterpreted functions with one named,
//   quantified axiom per equation, ∀x. φ(x) ⇒ T(x) = e(x), instantiated on the pattern T(x).

import { smtSymbol } from '../../core/language/affine-smt.ts';
import type { CheckedSpec, NormEquation } from '../../core/language/typecheck.ts';
import type { Expr } from '../../core/language/ast.ts';
import { visit } from '../../core/language/walk.ts';
import type { ValueEncoder } from './smt-values.ts';

export function tensorFunctionName(tensor: string): string {
  return smtSymbol(tensor);
}

export function axiomName(eq: NormEquation): string {
  return `spec.${eq.tensor}.${eq.ordinal}`;
}

function readsOf(e: Expr, out: Set<string>): Set<string> {
  visit(e, (x) => {
    if (x.kind === 'tensor') out.add(x.name);
  });
  return out;
}

/** The computed tensors that can reach themselves in the dependence graph. */
export function recursiveTensors(cs: CheckedSpec): Set<string> {
  const succ = new Map<string, Set<string>>();
  for (const eq of cs.equations) {
    const s = succ.get(eq.tensor) ?? new Set<string>();
    readsOf(eq.rhs, s);
    succ.set(eq.tensor, s);
  }
  const rec = new Set<string>();
  for (const t of succ.keys()) {
    const seen = new Set<string>();
    const stack = [...(succ.get(t) ?? [])];
    while (stack.length > 0) {
      const u = stack.pop()!;
      if (u === t) {
        rec.add(t);
        break;
      }
      if (seen.has(u)) continue;
      seen.add(u);
      stack.push(...(succ.get(u) ?? []));
    }
  }
  return rec;
}

function bound(eq: NormEquation): { vars: string[]; intVar: (n: string) => string } {
  const vars = eq.vars.map((_, k) => `x!${k}`);
  const rename = new Map(eq.vars.map((v, k) => [v, vars[k]!] as const));
  return { vars, intVar: (n) => rename.get(n) ?? smtSymbol(n) };
}

/** The axiom of one equation of a recursive tensor, as a named assertion. */
function equationAxiom(eq: NormEquation, enc: ValueEncoder): string {
  const { vars, intVar } = bound(eq);
  const head = vars.length === 0 ? tensorFunctionName(eq.tensor) : `(${tensorFunctionName(eq.tensor)} ${vars.join(' ')})`;
  const guard = enc.index(eq.guard, { intVar });
  const rhs = enc.value(eq.rhs, { intVar });
  const body = guard === 'true' ? `(= ${head} ${rhs})` : `(=> ${guard} (= ${head} ${rhs}))`;
  if (vars.length === 0) return `(assert (! ${body} :named ${axiomName(eq)}))`;
  const binders = vars.map((b) => `(${b} Int)`).join(' ');
  return `(assert (! (forall (${binders}) (! ${body} :pattern (${head}))) :named ${axiomName(eq)}))`;
}

/** The `define-fun` of a non-recursive computed tensor (its equations as an ite chain). */
function tensorMacro(name: string, eqs: readonly NormEquation[], arity: number, sort: string, enc: ValueEncoder, out: string[]): void {
  const vars = Array.from({ length: arity }, (_, k) => `x!${k}`);
  let body: string | null = null;
  for (const eq of [...eqs].reverse()) {
    const { intVar } = bound(eq);
    const guard = enc.index(eq.guard, { intVar });
    const rhs = enc.value(eq.rhs, { intVar });
    if (guard === 'true' && body === null) body = rhs;
    else {
      if (body === null) {
        const undef = smtSymbol(`${name}.undef`);
        out.push(`(declare-fun ${undef} (${vars.map(() => 'Int').join(' ')}) ${sort})`);
        body = vars.length === 0 ? undef : `(${undef} ${vars.join(' ')})`;
      }
      body = `(ite ${guard} ${rhs} ${body})`;
    }
  }
  const params = vars.map((v) => `(${v} Int)`).join(' ');
  out.push(`(define-fun ${tensorFunctionName(name)} (${params}) ${sort} ${body})`);
}

/**
 * The recursive tensors whose axioms a claim about `seeds` can need first: those read by the
 * seeds, directly or through macros (non-recursive tensors), without following the recursive
 * tensors' own equations, and those the script's other lines apply (`mentioned`: the values a
 * heap read can hold, P_1's among P_2's). Proofs of annotations usually unfold the annotated
 * tensor once; leaving the other recursive groups out keeps the solver from unfolding them for
 * nothing. (Without the tensors of the read alternatives, a real Halide fuzz case's claim took
 * Z3 its whole budget of 7.5 M units, 12.6 s, to stay undecided; with them, unsat at once.)
 */
export function relevantRecursive(cs: CheckedSpec, seeds: readonly Expr[], mentioned: Iterable<string> = []): Set<string> {
  const rec = recursiveTensors(cs);
  const out = new Set<string>();
  const seen = new Set<string>();
  const byTensor = new Map<string, NormEquation[]>();
  for (const eq of cs.equations) byTensor.set(eq.tensor, [...(byTensor.get(eq.tensor) ?? []), eq]);
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    if (rec.has(name)) {
      out.add(name);
      return;
    }
    for (const eq of byTensor.get(name) ?? []) for (const t of readsOf(eq.rhs, new Set())) visit(t);
  };
  for (const e of seeds) for (const t of readsOf(e, new Set())) visit(t);
  for (const t of mentioned) visit(t);
  return out;
}

/**
 * Whether the axioms of `only` are all a script needs for its models to extend to models of all
 * the spec's axioms: every recursive tensor that the script's other lines (`mentioned`) or those
 * axioms reach is in `only`. The axioms left out then define tensors nothing in the script reads,
 * and each has a solution whatever the script's model says (W5: the spec's recursion is
 * well-founded, its equations disjoint), so the script with all axioms is satisfiable when this
 * one is.
 */
export function axiomsSuffice(cs: CheckedSpec, only: ReadonlySet<string>, mentioned: ReadonlySet<string>): boolean {
  const rec = recursiveTensors(cs);
  const byTensor = new Map<string, NormEquation[]>();
  for (const eq of cs.equations) byTensor.set(eq.tensor, [...(byTensor.get(eq.tensor) ?? []), eq]);
  for (const t of reachable(byTensor, [...only, ...mentioned])) if (rec.has(t) && !only.has(t)) return false;
  return true;
}

/** The tensors whose SMT symbol occurs in `texts` (SMT-LIB lines), read token by token. */
export function tensorsMentioned(cs: CheckedSpec, texts: readonly string[]): Set<string> {
  const bySymbol = new Map([...cs.tensors.keys()].map((t) => [tensorFunctionName(t), t] as const));
  const out = new Set<string>();
  for (const text of texts) {
    for (const tok of text.split(/[\s()]+/)) {
      const t = bySymbol.get(tok);
      if (t !== undefined) out.add(t);
    }
  }
  return out;
}

/**
 * Declarations, macros and axioms of the spec. Parameters must be declared before these lines
 * (guards mention them). With `axiomsFor`, only those recursive tensors get their axioms (a
 * weaker hypothesis: a proof with fewer axioms is a proof). With `used` (the tensors the rest of
 * the script mentions), only the macros those tensors and the emitted axioms reach are defined:
 * a definition nothing refers to constrains nothing, and Z3 expands nested macros when it reads
 * them, so a chain of stencils each reading its predecessor 25 times (sc32: 32 stages) exhausts
 * its memory before the query starts.
 */
export function specEncoding(cs: CheckedSpec, enc: ValueEncoder, axiomsFor: ReadonlySet<string> | null = null, used: ReadonlySet<string> | null = null): string[] {
  const rec = recursiveTensors(cs);
  const byTensor = new Map<string, NormEquation[]>();
  for (const eq of cs.equations) byTensor.set(eq.tensor, [...(byTensor.get(eq.tensor) ?? []), eq]);
  const needed = used === null ? null : reachable(byTensor, [...used, ...(axiomsFor ?? rec)]);
  const out: string[] = [];
  // Inputs and recursive tensors first: macros and axioms may mention them.
  for (const t of cs.tensors.values()) {
    if (t.role === 'input' || rec.has(t.name)) {
      out.push(`(declare-fun ${tensorFunctionName(t.name)} (${t.vars.map(() => 'Int').join(' ')}) ${enc.sort(t.type)})`);
    }
  }
  // Macros in dependence order (a macro may only mention what is already defined).
  const done = new Set<string>();
  const visiting = new Set<string>();
  const define = (name: string): void => {
    if (done.has(name) || rec.has(name) || (needed !== null && !needed.has(name))) return;
    const t = cs.tensors.get(name);
    if (!t || t.role === 'input') return;
    if (visiting.has(name)) throw new Error(`internal: ${name} is recursive`);
    visiting.add(name);
    const eqs = byTensor.get(name) ?? [];
    for (const eq of eqs) for (const dep of readsOf(eq.rhs, new Set())) define(dep);
    tensorMacro(name, eqs, t.vars.length, enc.sort(t.type), enc, out);
    visiting.delete(name);
    done.add(name);
  };
  for (const t of cs.tensors.values()) define(t.name);
  for (const eq of cs.equations) if (rec.has(eq.tensor) && (axiomsFor === null || axiomsFor.has(eq.tensor))) out.push(equationAxiom(eq, enc));
  return out;
}

/** The tensors `roots` read, directly or through the equations of what they read, roots included. */
function reachable(byTensor: ReadonlyMap<string, readonly NormEquation[]>, roots: readonly string[]): Set<string> {
  const seen = new Set<string>(roots);
  const stack = [...roots];
  while (stack.length > 0) {
    for (const eq of byTensor.get(stack.pop()!) ?? []) {
      for (const t of readsOf(eq.rhs, new Set())) {
        if (!seen.has(t)) {
          seen.add(t);
          stack.push(t);
        }
      }
    }
  }
  return seen;
}
