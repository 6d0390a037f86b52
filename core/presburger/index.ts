/**
 * The Presburger layer (issue 5): exact symbolic sets, relations and heaps over integer tuples,
 * after thesis ch. 3 (Presburger sets) and §5.2 (symbolic heaps), without isl.
 *
 * Model. A Term is quasi-affine: Σ k·atom + c over BigInt, atoms being variables, ⌊t/c⌋ (t mod c
 * is t − c⌊t/c⌋), min, max and select(φ, a, b); terms are in a normal form so that equal normal
 * forms have equal `key`s and print equally. A Formula is in negation normal form over t ≥ 0,
 * t = 0, t ≡ 0 (mod m), ∧ ∨ ∃ ∀. A PSet / PRel is a union of pieces `{t : φ}` / `{d → r : φ}`
 * over named-tuple spaces (heterogeneous unions allowed); the tuple variables of a piece are
 * bound and generated (`i$12`), every other free variable is a parameter, so there is no capture.
 * Every constructive operation is synchronous and exact: guards are simplified and their
 * quantifiers eliminated in closed form when possible (qe.ts, lexopt.ts), otherwise kept.
 * Decisions (isEmpty, isSubset, isSingleValued, isValid, …) are async: one Z3 query through the
 * single queue of smt/z3.ts, unless the simplifier already decided them; `unknown` is reported as
 * such. Concrete evaluation (evalSet, evalRel) enumerates boxes and is the test oracle.
 *
 * Symbolic heaps. A heap is a PRel from array locations `a/n` to value templates `E/m` (E an
 * interned expression-context string such as `R(□,□,□)`). Build one with `heapOf([{ array: 'c',
 * index: [i, j], ctx: 'R(□,□,□)', args: [i, j, k], guard }])`; read it back with
 * `heapClauses(h)` (array + index variables + context + value variables + guard, with index/value
 * terms where the guard defines them). `update(h1, h2)` is h1 ▷ h2, `iteratedUpdate(h, 'k', P)` is
 * ▶_{0≤k<P} h, `substitute(R, ['x'], L)` is R[x := L], `singleValuedRestriction` is v(·),
 * `apply(h, location)` reads a location, `restrictRel(h, φ)` is h ∩ {: φ}.
 *
 *   const h = heapOf([{ array: 'c', index: [v('i'), v('j')], ctx: 'R', args: [v('i'), v('j'), v('k')] }]);
 *   printRel(iteratedUpdate(h, 'k', v('P')))   // [P, i, j] -> { c[i, j] -> R[i, j, P - 1] : P > 0 }
 *
 * `removeArray(h, 'a')` is Δh \ a (S-ALLOCATE).
 *
 * Quantifier elimination is logged (`eliminationLog()`: exact eliminations, lexmax closed forms
 * against their implicit ∀-definition, Z3 qe results), and `eliminationCertificates(entry)` gives
 * the two SMT-LIB implication checks (original ∧ ¬result, ¬original ∧ result), each expected `unsat`.
 * `eliminateWithZ3(φ)` finishes what the exact method leaves, with Z3's qe (floors of bound
 * variables purified first; each result proved equivalent by a second query before use).
 * Quantifiers neither method eliminates are kept: the layer never approximates.
 *
 * Text: `printSet` / `printRel` / `printFormula` print isl-like syntax
 * (`[N] -> { a[i] -> A[i + 2] : 0 <= i < N }`, or the thesis's with `{ thesis: true }`);
 * `parseSet` / `parseRel` / `parseFormula` / `parseTerm` read it back (fixtures, tests).
 */

export type {
  Atom, Formula, Literal, PRel, PSet, RelPiece, SetPiece, Space, Term, Tuple,
} from './types.ts';

// Terms.
export {
  ONE, ZERO, add, addConst, asVar, ceilT as ceil, constant, floorT as floor, isConst, linear,
  maxT as max, minT as min, modT as mod, neg, scale, selectT as select, sub, variable,
} from './term.ts';

// Formulas.
export {
  FALSE, TRUE, and, andAll, bool, cong, conjuncts, disjuncts, eq, eqT, exists, forall, ge, geT, gtT,
  iff, implies, leT, ltT, neT, not, or, orAll,
} from './formula.ts';
export { substFormula, substTerm, renameFormula } from './subst.ts';
export { formulaVars, termVars, hasQuantifier } from './vars.ts';
export { simplify, type SimplifyOptions } from './simplify.ts';
export { eliminate, eliminateExists } from './qe.ts';
export { eliminateWithZ3, type Z3QeOptions } from './z3qe.ts';
export { fresh, baseName } from './names.ts';

// Tuples and spaces.
export { flat, pair, spaceOf, spaceKey, tupleVars, sameSpace } from './tuple.ts';

// Sets.
export {
  EMPTY_SET, complementSet, decomposeSet, intersectSet, iteratedUnionSet, nonEmptyCondition,
  restrictSet, setOf, subtractSet, subtractUnitSet, tupleSet, unionSet, universeSet, updateSet,
} from './sets.ts';

// Relations.
export {
  EMPTY_REL, ShapeError, apply, bind, curry, domain, fst, fstRel, intersectDomain, intersectRange,
  intersectRel, inverse, iteratedUnionRel, lambda, range, relFromTerms, relOf, restrictRel, snd,
  sndRel, subtractDomain, subtractRange, subtractRel, subtractUnitRel, uncurry, unionRel, unwrap,
  wrap, type Bound, type TupleSpec,
} from './relations.ts';

// Lexicographic optimisation.
export { lexLess, lexOptimum, lexmax, lexmaxSet, lexmin, lexminSet, type Piecewise } from './lexopt.ts';

// Heaps (thesis §5.2).
export {
  heapClauses, heapOf, iteratedUpdate, removeArray, removeArrayFromSet, singleValuedRestriction,
  substitute, update,
  type HeapClause, type HeapClauseSpec, type Substituend,
} from './heap.ts';

// Decisions (Z3).
export {
  clearDecisionCache, decisionStats, isDisjoint, isEmpty, isEqual, isSingleValued, isSingleton, isSubset, isValid,
  satisfiable, type DecideOptions, type Decision, type Model,
} from './decide.ts';

// Concrete evaluation (the test oracle).
export { evalFormula, evalRel, evalSet, evalTerm, type BoxOptions, type Env, type EvalOptions } from './eval.ts';

// Text.
export { printFormula, printRel, printSet, printTerm, printUnit, type PrintOptions } from './print.ts';
export { ParseError, parseFormula, parseTerm } from './parse.ts';
export { parseRel, parseSet } from './text.ts';

// SMT-LIB, elimination log and certificates.
export { declarations, formulaToSmt, smtSymbol, smtToFormula, termToSmt } from './smtlib.ts';
export {
  clearEliminationLog, eliminationLog, recordEliminations, type ElimEntry, type ElimMethod,
} from './elimlog.ts';
export { eliminationCertificates, equivalenceScript } from './certificate.ts';
