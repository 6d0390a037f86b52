// Proof obligations: everything the symbolic evaluator needs to hold for a `valid` verdict, each
// a standalone SMT-LIB 2.6 script whose expected answer is `unsat` (ARCHITECTURE decision 3). The
// same text is sent to the in-process Z3 and written to certificate bundles.

export type ObligationKind =
  /** S-ASSIGN: the written location is inside the array (Γ ⊢ {ℓ̂} ⊆ box). */
  | 'write-bounds'
  /** S-ASSIGN: every array read is inside its array. */
  | 'read-bounds'
  /** S-ASSIGN: reads(e) ⊆ dom(h): every read cell holds a value. */
  | 'read-defined'
  /** S-ASSIGN: ⟦e⟧_h = decompose(t): the value written is the annotated spec value. */
  | 'value'
  /** S-ASSIGN: every checked operation whose result the written value uses is in its range. */
  | 'defined'
  /** S-PARLOOP rw-safe: no iteration reads what another writes. */
  | 'rw-race'
  /** S-PARLOOP ww-covered: iterations writing the same cell write the same value. */
  | 'ww-race'
  /** Output check (§5.4 `__discard`): every output cell of the checked region holds a value … */
  | 'output-defined'
  /** … and that value is the output tensor's. */
  | 'output-value'
  /** An equivalence used by the Presburger layer (a quantifier elimination), re-checkable. */
  | 'elimination'
  /** The impl's interface against the spec (proofs/verifier/interface.ts: I-ONTO, I-WITHIN, I-ASSUME). */
  | 'interface'
  /**
   * A side condition of the reduction rules (proofs/verifier/symbolic.ts, sAccumulate): a position
   * accumulated once, the initial value, the operator, a transfer's source, a reduction complete
   * where its value is read. Its refutation is reported only with a concrete run showing it.
   */
  | 'reduction';

export interface Obligation {
  /** Stable identifier within one verification (`vc003`). */
  readonly id: string;
  readonly kind: ObligationKind;
  /** The thesis rule that produced it. */
  readonly rule: string;
  readonly line: number;
  readonly col: number;
  /** What it proves, for people. */
  readonly description: string;
  /** SMT-LIB script without `(check-sat)`; `unsat` means the obligation holds. */
  readonly script: string;
  /** The float encoding of the script (value obligations), else null. */
  readonly float: string | null;
  /**
   * Why a `sat` answer to this script is not by itself a counterexample (uninterpreted `exp`,
   * `--float uf`, floats as reals), or null/absent when the encoding is exact. A refutation in an
   * inexact encoding is only a candidate: it counts once a concrete run confirms it.
   */
  readonly inexact?: string | null;
  /**
   * A script with only some of the spec's axioms whose models extend to models of all of them
   * (smt-spec.ts, axiomsSuffice): its `sat` is the whole script's.
   */
  readonly satExtends?: boolean;
}

/** The verdict class an obligation's failure establishes. */
export function failureClass(k: ObligationKind): string {
  switch (k) {
    case 'write-bounds':
    case 'read-bounds':
      return 'out-of-bounds';
    case 'read-defined':
      return 'uninitialized-read';
    case 'value':
      return 'value-mismatch';
    case 'defined':
      return 'undefined-behaviour';
    case 'rw-race':
    case 'ww-race':
      return 'race';
    case 'output-defined':
    case 'output-value':
      return 'output-mismatch';
    case 'elimination':
      return 'internal';
    case 'interface':
      return 'interface';
    case 'reduction':
      return 'output-mismatch';
  }
}

/** What became of an obligation: proved, refuted (a model exists) or undecided, and why. */
export interface ObligationOutcome {
  readonly obligation: Obligation;
  readonly status: 'proved' | 'refuted' | 'unknown';
  readonly ms: number;
  readonly reason: string | null;
}
