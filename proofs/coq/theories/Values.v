(* Values of SCHED (thesis §4.2: 𝒱 = 𝒰 ∪ ℤ ∪ {true, false} ⊎ {⊥}).

   ⊥ is [None] of [option val]. The values proper carry their type: exact integers of the affine
   world (ℤ, for indices), Booleans (𝔹, also the value type bool), machine integers of every width
   (a width and an integer kept in the type's range, so two's complement wrap-around is the
   normalisation [wrap] of Ops.v), and IEEE-754 binary32/binary64 numbers as Flocq's
   BinarySingleNaN floats (one NaN: the toolkit never observes NaN payloads or signs).

   This file declares the values and their equality only: the meaning of the operators, ⟦f⟧, is a
   parameter of the semantics (Eval.v), given concretely in Ops.v. *)

From Coq Require Import ZArith Bool Eqdep_dec.
From Flocq Require Import IEEE754.BinarySingleNaN.

(** Machine integer types: signed and unsigned, 8 to 64 bits. *)
Inductive ity := I8 | I16 | I32 | I64 | U8 | U16 | U32 | U64.

Definition ity_eqb (a b : ity) : bool :=
  match a, b with
  | I8, I8 | I16, I16 | I32, I32 | I64, I64 | U8, U8 | U16, U16 | U32, U32 | U64, U64 => true
  | _, _ => false
  end.

Lemma ity_eqb_spec : forall a b, ity_eqb a b = true <-> a = b.
Proof. destruct a, b; simpl; split; congruence. Qed.

Definition binary32 := binary_float 24 128.
Definition binary64 := binary_float 53 1024.

Inductive val :=
| VZ (n : Z)                 (* an exact integer: an index (𝔸) *)
| VBool (b : bool)           (* 𝔹, and the value type bool *)
| VInt (t : ity) (n : Z)     (* a machine integer, n in the range of t *)
| VF32 (x : binary32)
| VF64 (x : binary64).

(** Value types (targets of casts). *)
Inductive vty := TBool | TInt (t : ity) | TF32 | TF64.

(** Comparison operators. *)
Inductive cmpop := Ceq | Cne | Clt | Cle | Cgt | Cge.

(** The pure functions of the CALL rule (Fig. 4.3): the operators on values and the builtins. *)
Inductive fn :=
| FAdd | FSub | FMul | FDiv | FMod | FNeg
| FCmp (c : cmpop)
| FMin | FMax | FAbs | FSqrt | FExp | FLog | FPow | FFloor | FCeil
| FCast (t : vty).

(** Structural equality of floats (the bounds proof of a finite float is irrelevant). *)
Definition float_eqb {p e} (x y : binary_float p e) : bool :=
  match x, y with
  | B754_zero s, B754_zero s' => Bool.eqb s s'
  | B754_infinity s, B754_infinity s' => Bool.eqb s s'
  | B754_nan, B754_nan => true
  | B754_finite s m ex _, B754_finite s' m' ex' _ => Bool.eqb s s' && Pos.eqb m m' && Z.eqb ex ex'
  | _, _ => false
  end.

Lemma float_eqb_spec : forall p e (x y : binary_float p e), float_eqb x y = true <-> x = y.
Proof.
  intros p e [s|s| |s m ex H] [s'|s'| |s' m' ex' H']; simpl; split; intro K; try discriminate;
    try (inversion K; subst; auto using eqb_reflx);
    try (apply eqb_prop in K; subst; reflexivity); auto.
  - apply andb_true_iff in K as [K K3]. apply andb_true_iff in K as [K1 K2].
    apply eqb_prop in K1. apply Pos.eqb_eq in K2. apply Z.eqb_eq in K3. subst.
    f_equal. apply UIP_dec. apply bool_dec.
  - rewrite eqb_reflx, Pos.eqb_refl, Z.eqb_refl. reflexivity.
Qed.

Definition val_eqb (a b : val) : bool :=
  match a, b with
  | VZ n, VZ n' => Z.eqb n n'
  | VBool x, VBool y => Bool.eqb x y
  | VInt t n, VInt t' n' => ity_eqb t t' && Z.eqb n n'
  | VF32 x, VF32 y => float_eqb x y
  | VF64 x, VF64 y => float_eqb x y
  | _, _ => false
  end.

Lemma val_eqb_spec : forall a b, val_eqb a b = true <-> a = b.
Proof.
  intros [n|x|t n|x|x] [n'|y|t' n'|y|y]; simpl; split; intro K; try discriminate; try congruence.
  - apply Z.eqb_eq in K. congruence.
  - inversion K. apply Z.eqb_refl.
  - apply eqb_prop in K. congruence.
  - inversion K. apply eqb_reflx.
  - apply andb_true_iff in K as [K1 K2]. apply ity_eqb_spec in K1. apply Z.eqb_eq in K2. congruence.
  - inversion K; subst. rewrite (proj2 (ity_eqb_spec t' t') eq_refl), Z.eqb_refl. reflexivity.
  - apply float_eqb_spec in K. congruence.
  - inversion K. apply float_eqb_spec. reflexivity.
  - apply float_eqb_spec in K. congruence.
  - inversion K. apply float_eqb_spec. reflexivity.
Qed.

Lemma val_eqb_eq : forall a b, val_eqb a b = true -> a = b.
Proof. intros. apply val_eqb_spec. auto. Qed.

Lemma val_eqb_refl : forall a, val_eqb a a = true.
Proof. intros. apply val_eqb_spec. reflexivity. Qed.
