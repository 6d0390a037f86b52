// The data types of the Presburger layer. Terms and formulas are immutable trees that carry a
// canonical `key` (built by the smart constructors in term.ts / formula.ts), so that equal normal
// forms have equal keys and print equally; caches are keyed by it.

/** An atom of a quasi-affine term: what a linear combination ranges over. */
export type Atom =
  | { readonly kind: 'var'; readonly name: string; readonly key: string }
  /** ⌊arg / div⌋ with div ≥ 2 (`t mod c` is sugar for `t − c·⌊t/c⌋`). */
  | { readonly kind: 'floor'; readonly arg: Term; readonly div: bigint; readonly key: string }
  /** n-ary min / max, at least two arguments, no two differing by a constant. */
  | { readonly kind: 'min' | 'max'; readonly args: readonly Term[]; readonly key: string }
  /** `cond ? then : else` (the thesis's piece-wise `select`). */
  | { readonly kind: 'select'; readonly cond: Formula; readonly then: Term; readonly else: Term; readonly key: string };

/** Σ coeff·atom + c, parts sorted by atom key, coefficients nonzero. */
export interface Term {
  readonly parts: readonly (readonly [Atom, bigint])[];
  readonly c: bigint;
  readonly key: string;
}

/**
 * Formulas in negation normal form (negation is an operation, not a node). Literals:
 * `ge` (t ≥ 0), `eq` (t = 0), `cong` (t ≡ 0 mod m, m ≥ 2).
 */
export type Formula =
  | { readonly kind: 'true'; readonly key: string }
  | { readonly kind: 'false'; readonly key: string }
  | { readonly kind: 'ge'; readonly t: Term; readonly key: string }
  | { readonly kind: 'eq'; readonly t: Term; readonly key: string }
  | { readonly kind: 'cong'; readonly t: Term; readonly m: bigint; readonly key: string }
  | { readonly kind: 'and' | 'or'; readonly args: readonly Formula[]; readonly key: string }
  | { readonly kind: 'exists' | 'forall'; readonly vars: readonly string[]; readonly body: Formula; readonly key: string };

export type Literal = Extract<Formula, { kind: 'ge' | 'eq' | 'cong' }>;

/**
 * A variable tuple (thesis Def. 3.2.1): flat `name⟨v1, …, vd⟩` with distinct variables, or a pair
 * `name⟨t1, t2⟩`. The empty name '' is the anonymous ε. Names may be any string (array names,
 * interned expression contexts such as `A(□)`).
 */
export type Tuple =
  | { readonly kind: 'flat'; readonly name: string; readonly vars: readonly string[] }
  | { readonly kind: 'pair'; readonly name: string; readonly left: Tuple; readonly right: Tuple };

/** A space (thesis Def. 3.2.2): the shape of a tuple. */
export type Space =
  | { readonly kind: 'flat'; readonly name: string; readonly arity: number }
  | { readonly kind: 'pair'; readonly name: string; readonly left: Space; readonly right: Space };

/** One homogeneous piece `{t : φ}`; the tuple's variables are bound, the others are parameters. */
export interface SetPiece {
  readonly tuple: Tuple;
  readonly guard: Formula;
}

/** A symbolic set: a finite union of pieces, possibly of different spaces (thesis Def. 3.3.1). */
export interface PSet {
  readonly kind: 'set';
  readonly pieces: readonly SetPiece[];
}

/** One homogeneous piece `{d → r : φ}` of a relation. */
export interface RelPiece {
  readonly dom: Tuple;
  readonly ran: Tuple;
  readonly guard: Formula;
}

/** A symbolic relation (thesis Def. 3.5.1); a symbolic heap is a relation from `a/n` to `E/m`. */
export interface PRel {
  readonly kind: 'rel';
  readonly pieces: readonly RelPiece[];
}
