(* What an exported run (sched derivation … --coq FILE.v) is checked against.

   An export states, for SCHED's operators (Ops.v, for every libm), the parameters E, the initial
   memory μ and the implementation's body c of one run:
   - a run that succeeded: E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ for the δμ and ρ the toolkit computed (the maps are
     compared as the partial functions they denote), hence the final memory μ ▷ δμ;
   - a run that failed: there is no derivation at all (a run error is the absence of one).
   The proof runs the interpreter of Exec.v in the kernel (vm_compute) and concludes with its
   soundness theorems below, so what coqc accepts is the relation of Fig. 4.5 itself. *)

From Coq Require Import ZArith List Bool Floats.SpecFloat.
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

(** The index tuples of a box, in row-major order. *)
Fixpoint box (dims : list Z) : list (list Z) :=
  match dims with
  | [] => [[]]
  | n :: dims' =>
      let inner := box dims' in
      flat_map (fun i => map (fun t => i :: t) inner) (map Z.of_nat (seq 0 (Z.to_nat n)))
  end.

(** The cells of one array: all of them in row-major order (None: no entry), or some of them. *)
Inductive cells (A : Type) :=
| Dense (dims : list Z) (vs : list (option A))
| Sparse (entries : list (list Z * A)).
Arguments Dense {A} _ _.
Arguments Sparse {A} _.

Fixpoint add_dense {A} (a : ident) (ts : list (list Z)) (vs : list (option A)) (m : lmap A) : lmap A :=
  match ts, vs with
  | t :: ts', v :: vs' =>
      add_dense a ts' vs' (match v with Some x => lset (a, t) x m | None => m end)
  | _, _ => m
  end.

Definition add_cells {A} (a : ident) (c : cells A) (m : lmap A) : lmap A :=
  match c with
  | Dense dims vs => add_dense a (box dims) vs m
  | Sparse es => fold_left (fun m tv => lset (a, fst tv) (snd tv) m) es m
  end.

Definition lmap_of {A} (l : list (ident * cells A)) : lmap A :=
  fold_left (fun m ac => add_cells (fst ac) (snd ac) m) l lempty.

(** A memory: each array's name, shape and written cells (the others hold ⊥). *)
Definition mem_of (l : list (ident * list Z * cells val)) : mem :=
  Mem (fold_left (fun s adc => set (fst (fst adc)) (snd (fst adc)) s) l Leaf)
      (fold_left (fun m adc => add_cells (fst (fst adc)) (snd adc) m) l lempty).

Definition set_of (l : list (ident * list (list Z))) : locset :=
  lmap_of (map (fun a_ts => (fst a_ts, Sparse (map (fun t => (t, tt)) (snd a_ts)))) l).
