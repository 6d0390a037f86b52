(* ⟦f⟧: SCHED's interpretation of the pure functions of the CALL rule (thesis Fig. 4.3), as
   docs/language.md §4 defines every operator:

   - machine integers (iN, uN): + − × and unary − wrap modulo 2^N ([wrap]); / and % are Euclidean
     (0 ≤ r < |b|) and give 0 for a zero divisor; comparisons are exact; abs of the most negative
     value wraps to itself;
   - f32 and f64: IEEE-754 binary32/binary64 with round to nearest even, by Flocq's
     BinarySingleNaN (one NaN): + − × ÷ sqrt, floor and ceil (round to an integral value toward
     −∞/+∞), comparisons (NaN unordered, −0 = +0), abs and unary −;
   - min(a, b) = a < b ? a : b and max(a, b) = a > b ? a : b on every type;
   - exp, log and pow are the platform's binary64 libm, then rounded to the type: an explicit
     parameter [libm] here (nothing about them is assumed);
   - casts: integer or index → integer wraps; → float rounds to nearest even (exactly, from any
     integer); float → integer truncates toward zero then wraps, NaN and ±∞ give 0;
     float → float rounds to nearest even; anything → bool is ≠ 0 (NaN is true, −0 is false);
     bool → number is 1 or 0.

   A call whose arguments are not of the types its operator takes has no value (⊥): the type
   checker rules those out, and the semantics does not guess. *)

From Coq Require Import ZArith List Bool Floats.SpecFloat.
From Flocq Require Import IEEE754.BinarySingleNaN.
From Sched Require Import Values Eval.
Import ListNotations.
Open Scope Z_scope.

#[export] Instance prec32_gt_0 : FLX.Prec_gt_0 24 := eq_refl.
#[export] Instance prec32_lt_emax : Prec_lt_emax 24 128 := eq_refl.
#[export] Instance prec64_gt_0 : FLX.Prec_gt_0 53 := eq_refl.
#[export] Instance prec64_lt_emax : Prec_lt_emax 53 1024 := eq_refl.

(** The platform's libm on binary64 (exp, log, pow): a parameter of the semantics. *)
Record libm := Libm {
  lm_exp : binary64 -> binary64;
  lm_log : binary64 -> binary64;
  lm_pow : binary64 -> binary64 -> binary64
}.

(* ------------------------------------------------------------------------------------------ *)
(** Machine integers *)

Definition bits (t : ity) : Z :=
  match t with I8 | U8 => 8 | I16 | U16 => 16 | I32 | U32 => 32 | I64 | U64 => 64 end.

Definition signed (t : ity) : bool :=
  match t with I8 | I16 | I32 | I64 => true | _ => false end.

(** 2^bits and 2^(bits − 1), as constants (the kernel computes with them at every operation). *)
Definition modulus (t : ity) : Z :=
  match t with
  | I8 | U8 => 256 | I16 | U16 => 65536 | I32 | U32 => 4294967296
  | I64 | U64 => 18446744073709551616
  end.
Definition half (t : ity) : Z :=
  match t with
  | I8 | U8 => 128 | I16 | U16 => 32768 | I32 | U32 => 2147483648
  | I64 | U64 => 9223372036854775808
  end.

Lemma modulus_bits : forall t, modulus t = 2 ^ bits t /\ half t = 2 ^ (bits t - 1).
Proof. destruct t; split; reflexivity. Qed.

(** The integer n reduced into t: two's complement wrap-around. *)
Definition wrap (t : ity) (n : Z) : Z :=
  let r := n mod modulus t in
  if signed t && (half t <=? r) then r - modulus t else r.

(** Euclidean division as Halide's: the remainder is in [0, |b|); 0 for a zero divisor. *)
Definition emod (a b : Z) : Z := if b =? 0 then 0 else a mod Z.abs b.
Definition ediv (a b : Z) : Z := if b =? 0 then 0 else (a - emod a b) / b.

(* ------------------------------------------------------------------------------------------ *)
(** Floats *)

Definition f32_of_f64 (x : binary64) : binary32 :=
  match x with
  | B754_zero s => B754_zero s
  | B754_infinity s => B754_infinity s
  | B754_nan => B754_nan
  | B754_finite s m e _ => binary_normalize 24 128 _ _ mode_NE (SpecFloat.cond_Zopp s (Zpos m)) e s
  end.

Definition f64_of_f32 (x : binary32) : binary64 :=
  match x with
  | B754_zero s => B754_zero s
  | B754_infinity s => B754_infinity s
  | B754_nan => B754_nan
  | B754_finite s m e _ => binary_normalize 53 1024 _ _ mode_NE (SpecFloat.cond_Zopp s (Zpos m)) e s
  end.

(** An exact integer rounded to the nearest float (ties to even); 0 is +0. *)
Definition f32_of_Z (n : Z) : binary32 := binary_normalize 24 128 _ _ mode_NE n 0 false.
Definition f64_of_Z (n : Z) : binary64 := binary_normalize 53 1024 _ _ mode_NE n 0 false.

Definition is_zero {p e} (x : binary_float p e) : bool :=
  match x with B754_zero _ => true | _ => false end.

Definition cmp_float (c : cmpop) (r : option comparison) : bool :=
  match c, r with
  | Ceq, Some Eq => true
  | Cne, Some Eq => false
  | Cne, _ => true
  | Clt, Some Lt => true
  | Cle, Some Lt | Cle, Some Eq => true
  | Cgt, Some Gt => true
  | Cge, Some Gt | Cge, Some Eq => true
  | _, _ => false
  end.

(* ------------------------------------------------------------------------------------------ *)
(** The operators on values *)

Definition arith (fi : Z -> Z -> Z) (f32 : binary32 -> binary32 -> binary32)
    (f64 : binary64 -> binary64 -> binary64) (a b : val) : option val :=
  match a, b with
  | VInt t n, VInt t' k => if ity_eqb t t' then Some (VInt t (wrap t (fi n k))) else None
  | VF32 x, VF32 y => Some (VF32 (f32 x y))
  | VF64 x, VF64 y => Some (VF64 (f64 x y))
  | _, _ => None
  end.

Definition vcmp (c : cmpop) (a b : val) : option bool :=
  match a, b with
  | VInt t n, VInt t' k => if ity_eqb t t' then Some (cmpZ c n k) else None
  | VF32 x, VF32 y => Some (cmp_float c (Bcompare x y))
  | VF64 x, VF64 y => Some (cmp_float c (Bcompare x y))
  | VBool x, VBool y =>
      match c with
      | Ceq => Some (Bool.eqb x y)
      | Cne => Some (negb (Bool.eqb x y))
      | _ => None
      end
  | _, _ => None
  end.

Definition vselect (c : cmpop) (a b : val) : option val :=
  match vcmp c a b with Some true => Some a | Some false => Some b | None => None end.

Definition float1 (f32 : binary32 -> binary32) (f64 : binary64 -> binary64) (a : val) : option val :=
  match a with
  | VF32 x => Some (VF32 (f32 x))
  | VF64 x => Some (VF64 (f64 x))
  | _ => None
  end.

(** A libm function of binary64, on f32 through binary64 then rounded (as the toolkit does). *)
Definition via64 (f : binary64 -> binary64) (x : binary32) : binary32 := f32_of_f64 (f (f64_of_f32 x)).

Definition cast (t : vty) (v : val) : option val :=
  match t, v with
  | TBool, VBool b => Some (VBool b)
  | TBool, VZ n | TBool, VInt _ n => Some (VBool (negb (n =? 0)))
  | TBool, VF32 x => Some (VBool (negb (is_zero x)))
  | TBool, VF64 x => Some (VBool (negb (is_zero x)))
  | TInt t, VBool b => Some (VInt t (if b then 1 else 0))
  | TInt t, VZ n | TInt t, VInt _ n => Some (VInt t (wrap t n))
  | TInt t, VF32 x => Some (VInt t (wrap t (Btrunc x)))
  | TInt t, VF64 x => Some (VInt t (wrap t (Btrunc x)))
  | TF32, VBool b => Some (VF32 (f32_of_Z (if b then 1 else 0)))
  | TF32, VZ n | TF32, VInt _ n => Some (VF32 (f32_of_Z n))
  | TF32, VF32 x => Some (VF32 x)
  | TF32, VF64 x => Some (VF32 (f32_of_f64 x))
  | TF64, VBool b => Some (VF64 (f64_of_Z (if b then 1 else 0)))
  | TF64, VZ n | TF64, VInt _ n => Some (VF64 (f64_of_Z n))
  | TF64, VF32 x => Some (VF64 (f64_of_f32 x))
  | TF64, VF64 x => Some (VF64 x)
  end.

Definition sched_call (L : libm) (f : fn) (args : list val) : option val :=
  match f, args with
  | FAdd, [a; b] => arith Z.add (Bplus mode_NE) (Bplus mode_NE) a b
  | FSub, [a; b] => arith Z.sub (Bminus mode_NE) (Bminus mode_NE) a b
  | FMul, [a; b] => arith Z.mul (Bmult mode_NE) (Bmult mode_NE) a b
  | FDiv, [a; b] => arith ediv (Bdiv mode_NE) (Bdiv mode_NE) a b
  | FMod, [VInt t n; VInt t' k] => if ity_eqb t t' then Some (VInt t (wrap t (emod n k))) else None
  | FNeg, [VInt t n] => Some (VInt t (wrap t (- n)))
  | FNeg, [a] => float1 Bopp Bopp a
  | FCmp c, [a; b] => match vcmp c a b with Some r => Some (VBool r) | None => None end
  | FMin, [a; b] => vselect Clt a b
  | FMax, [a; b] => vselect Cgt a b
  | FAbs, [VInt t n] => Some (VInt t (if n <? 0 then wrap t (- n) else n))
  | FAbs, [a] => float1 Babs Babs a
  | FSqrt, [a] => float1 (Bsqrt mode_NE) (Bsqrt mode_NE) a
  | FFloor, [a] => float1 (Bnearbyint mode_DN) (Bnearbyint mode_DN) a
  | FCeil, [a] => float1 (Bnearbyint mode_UP) (Bnearbyint mode_UP) a
  | FExp, [a] => float1 (via64 (lm_exp L)) (lm_exp L) a
  | FLog, [a] => float1 (via64 (lm_log L)) (lm_log L) a
  | FPow, [VF32 x; VF32 y] => Some (VF32 (f32_of_f64 (lm_pow L (f64_of_f32 x) (f64_of_f32 y))))
  | FPow, [VF64 x; VF64 y] => Some (VF64 (lm_pow L x y))
  | FCast t, [a] => cast t a
  | _, _ => None
  end.
