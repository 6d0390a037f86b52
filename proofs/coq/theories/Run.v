(* What an exported run (sched derivation … --coq FILE.v) is checked against.

   An export states, for SCHED's operators (Ops.v, for every libm), the parameters E, the initial
   memory μ and the implementation's body c of one run:
   - a run that succeeded: E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ for the δμ and ρ the toolkit computed (the maps are
     compared as the partial functions they denote), hence the final memory μ ▷ δμ;
   - a run that failed: there is no derivation at all (a run error is the absence of one).
   The proof runs the interpreter of Exec.v in the kernel (vm_compute) and concludes with its
   soundness theorems below, so what coqc accepts is the relation of Fig. 4.5 itself. *)

From Coq Require Import ZArith List Bool Floats.SpecFloat Uint63.
From Flocq Require Import IEEE754.BinarySingleNaN.
From Sched Require Export Maps Values Syntax Memory Eval BigStep Exec Ops.
Import ListNotations.
Open Scope Z_scope.

(** E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ for maps δμ, ρ denoting the given ones. *)
Definition derives (call : fn -> list val -> option val) (E : env) (m : mem) (c : cmd)
    (d : lmap val) (r : locset) : Prop :=
  exists d' r', bigstep call E m c d' r' /\
    (forall l, lget l d' = lget l d) /\ (forall l, lget l r' = lget l r).

Definition check_run (call : fn -> list val -> option val) (E : env) (m : mem) (c : cmd)
    (d : lmap val) (r : locset) : bool :=
  match exec call E m c with
  | Done d' r' => lsame val_eqb d' d && lsame (fun _ _ => true) r' r
  | Failed _ => false
  end.

Theorem check_run_sound : forall call E m c d r,
  check_run call E m c d r = true -> derives call E m c d r.
Proof.
  unfold check_run, derives. intros call E m c d r H.
  destruct (exec call E m c) as [d' r'|] eqn:X; try discriminate.
  apply andb_true_iff in H as [H1 H2]. exists d', r'. split; [|split].
  - apply exec_sound; auto.
  - apply (lsame_spec val_eqb val_eqb_eq). auto.
  - apply (lsame_spec (fun _ _ => true)); auto. intros [] [] _; reflexivity.
Qed.

Definition check_fails (call : fn -> list val -> option val) (E : env) (m : mem) (c : cmd) : bool :=
  match exec call E m c with Done _ _ => false | Failed _ => true end.

Theorem check_fails_sound : forall call E m c,
  check_fails call E m c = true -> forall d r, ~ bigstep call E m c d r.
Proof.
  unfold check_fails. intros call E m c H d r.
  destruct (exec call E m c) as [|f] eqn:X; try discriminate. eapply exec_fails; eauto.
Qed.

(* ------------------------------------------------------------------------------------------ *)
(** Literals as the exporter writes them. *)

Definition i8 n := VInt I8 (wrap I8 n).
Definition i16 n := VInt I16 (wrap I16 n).
Definition i32 n := VInt I32 (wrap I32 n).
Definition i64 n := VInt I64 (wrap I64 n).
Definition u8 n := VInt U8 (wrap U8 n).
Definition u16 n := VInt U16 (wrap U16 n).
Definition u32 n := VInt U32 (wrap U32 n).
Definition u64 n := VInt U64 (wrap U64 n).

(** m · 2^e, exact when representable (the exporter writes only representable values). *)
Definition f32 (m e : Z) : val := VF32 (binary_normalize 24 128 _ _ mode_NE m e false).
Definition f64 (m e : Z) : val := VF64 (binary_normalize 53 1024 _ _ mode_NE m e false).
Definition f32_zero (s : bool) : val := VF32 (B754_zero s).
Definition f64_zero (s : bool) : val := VF64 (B754_zero s).
Definition f32_inf (s : bool) : val := VF32 (B754_infinity s).
Definition f64_inf (s : bool) : val := VF64 (B754_infinity s).
Definition f32_nan : val := VF32 B754_nan.
Definition f64_nan : val := VF64 B754_nan.

(* ------------------------------------------------------------------------------------------ *)
(** Environments, memories, differential memories and read sets from lists. *)

Definition env_of (l : list (ident * val)) : env :=
  fold_left (fun E xv => set (fst xv) (snd xv) E) l Leaf.

(** 0, 1, …, n − 1 (counted in ℤ: Z.of_nat would cost each index's value). *)
Fixpoint zrange (k : nat) (i : Z) : list Z :=
  match k with O => [] | S k' => i :: zrange k' (Z.succ i) end.

(** The index tuples of a box, in row-major order. *)
Fixpoint box (dims : list Z) : list (list Z) :=
  match dims with
  | [] => [[]]
  | n :: dims' =>
      let inner := box dims' in
      flat_map (fun i => map (fun t => i :: t) inner) (zrange (Z.to_nat n) 0)
  end.

(** The cells of one array: all of them in row-major order (None: no entry), some of them, every
    cell of the box with the same entry, or the cells of the box whose bit is set (cell k is bit
    k mod 63 of word k / 63; primitive integers are written and read much faster than numerals). *)
Inductive cells (A : Type) :=
| Dense (dims : list Z) (vs : list (option A))
| Sparse (entries : list (list Z * A))
| Full (dims : list Z) (v : A)
| Bits (dims : list Z) (ws : list int) (v : A).
Arguments Dense {A} _ _.
Arguments Sparse {A} _.
Arguments Full {A} _ _.
Arguments Bits {A} _ _ _.

Fixpoint add_dense {A} (a : ident) (ts : list (list Z)) (vs : list (option A)) (m : lmap A) : lmap A :=
  match ts, vs with
  | t :: ts', v :: vs' =>
      add_dense a ts' vs' (match v with Some x => lset (a, t) x m | None => m end)
  | _, _ => m
  end.

Definition word_bits (w : int) : list bool := map (fun i => Z.testbit (to_Z w) i) (zrange 63 0).

Definition add_cells {A} (a : ident) (c : cells A) (m : lmap A) : lmap A :=
  match c with
  | Dense dims vs => add_dense a (box dims) vs m
  | Sparse es => fold_left (fun m tv => lset (a, fst tv) (snd tv) m) es m
  | Full dims v => fold_left (fun m t => lset (a, t) v m) (box dims) m
  | Bits dims ws v =>
      add_dense a (box dims) (flat_map (fun w => map (fun b : bool => if b then Some v else None) (word_bits w)) ws) m
  end.

Definition lmap_of {A} (l : list (ident * cells A)) : lmap A :=
  fold_left (fun m ac => add_cells (fst ac) (snd ac) m) l lempty.

(** Values from their bit patterns: IEEE-754 for floats (sign bit, exponent field of mask
    [emask] above [mbits] mantissa bits, implicit bit [hidden] = 2^mbits, subnormal exponent
    [sub]), two's complement for integers. *)
Definition float_of_bits (inf : bool -> val) (nan : val) (zero : bool -> val) (fin : Z -> Z -> val)
    (sign mbits emask hidden sub : Z) (b : Z) : val :=
  let s := Z.testbit b sign in
  let e := Z.land (Z.shiftr b mbits) emask in
  let m := Z.land b (hidden - 1) in
  if e =? emask then (if m =? 0 then inf s else nan)
  else if e =? 0 then (if m =? 0 then zero s else fin (if s then - m else m) sub)
  else fin (if s then - (m + hidden) else m + hidden) (e + sub - 1).

Definition f32_of_bits : Z -> val := float_of_bits f32_inf f32_nan f32_zero f32 31 23 255 8388608 (-149).
Definition f64_of_bits : Z -> val :=
  float_of_bits f64_inf f64_nan f64_zero f64 63 52 2047 4503599627370496 (-1074).

Definition of_bits (t : vty) (b : Z) : val :=
  match t with
  | TBool => VBool (negb (b =? 0))
  | TInt it => VInt it (wrap it b)
  | TF32 => f32_of_bits b
  | TF64 => f64_of_bits b
  end.

(* Bit patterns read back (values compared as val_eqb does: the proof inside a float is irrelevant). *)
Example f32_bits_one : val_eqb (f32_of_bits 1065353216) (f32 1 0) = true. Proof. vm_compute. reflexivity. Qed.
Example f32_bits_neg_tiny : val_eqb (f32_of_bits 2147483649) (f32 (-1) (-149)) = true. Proof. vm_compute. reflexivity. Qed.
Example f32_bits_neg_zero : val_eqb (f32_of_bits 2147483648) (f32_zero true) = true. Proof. vm_compute. reflexivity. Qed.
Example f32_bits_max : val_eqb (f32_of_bits 2139095039) (f32 16777215 104) = true. Proof. vm_compute. reflexivity. Qed.
Example f64_bits_minus_half : val_eqb (f64_of_bits 13826050856027422720) (f64 (-1) (-1)) = true. Proof. vm_compute. reflexivity. Qed.
Example f64_bits_nan : val_eqb (f64_of_bits 9221120237041090560) f64_nan = true. Proof. vm_compute. reflexivity. Qed.
Example i8_bits : of_bits (TInt I8) 251 = i8 (-5). Proof. reflexivity. Qed.

(** Two words (high and low 32 bits) per value of a 64-bit type, one otherwise; the word 2^62
    stands for a cell without a value. *)
Definition wide (t : vty) : bool :=
  match t with TInt I64 | TInt U64 | TF64 => true | _ => false end.

Definition no_value : Z := 4611686018427387904. (* 2^62 *)

Fixpoint unpack (t : vty) (ws : list int) : list (option val) :=
  match ws with
  | [] => []
  | w :: ws' =>
      if wide t then
        match ws' with
        | w2 :: ws'' =>
            (if to_Z w =? no_value then None else Some (of_bits t (to_Z w * 4294967296 + to_Z w2))) :: unpack t ws''
        | [] => []
        end
      else (if to_Z w =? no_value then None else Some (of_bits t (to_Z w))) :: unpack t ws'
  end.

(** The values of one array: as [cells], or packed (every cell of the box in row-major order). *)
Inductive vcells :=
| Cells (c : cells val)
| Packed (t : vty) (dims : list Z) (ws : list int).

Definition add_vcells (a : ident) (c : vcells) (m : lmap val) : lmap val :=
  match c with
  | Cells c => add_cells a c m
  | Packed t dims ws => add_dense a (box dims) (unpack t ws) m
  end.

Definition vmap_of (l : list (ident * vcells)) : lmap val :=
  fold_left (fun m ac => add_vcells (fst ac) (snd ac) m) l lempty.

(** A memory: each array's name, shape and written cells (the others hold ⊥). *)
Definition mem_of (l : list (ident * list Z * vcells)) : mem :=
  Mem (fold_left (fun s adc => set (fst (fst adc)) (snd (fst adc)) s) l Leaf)
      (fold_left (fun m adc => add_vcells (fst (fst adc)) (snd adc) m) l lempty).
