(* The theorems are not vacuous: a racy parallel loop has two small-step reductions to skip that
   end in different memories, and no big-step derivation (so Theorem 4.3.7 does not apply to it);
   its sequential version has a derivation, and its reduction ends in μ ▷ δμ. *)

From Coq Require Import ZArith List.
From Sched Require Import Maps Values Syntax Memory Eval BigStep Exec Subst SmallStep Preservation.
Import ListNotations.

Definition no_call (f : fn) (vs : list val) : option val := None.

Definition x : ident := 1%positive.   (* the array x[] *)
Definition i : ident := 2%positive.   (* the loop variable *)

(** par i < 2 do x[] := i *)
Definition racy : cmd := CPar i (EConst (VZ 2)) (CAssign x [] (EVar i)).
Definition sequential : cmd := CFor i (EConst (VZ 2)) (CAssign x [] (EVar i)).

(** x[] holds ⊥. *)
Definition mu : mem := Mem (set x [] Leaf) Leaf.

Lemma racy_has_no_derivation : forall d r, ~ bigstep no_call Leaf mu racy d r.
Proof. intros d r B. apply exec_complete in B. vm_compute in B. discriminate. Qed.

Definition assign (n : Z) : cmd := CAssign x [] (EConst (VZ n)).
Definition write (m : mem) (n : Z) : mem := mupd m (lsingle (x, []) (VZ n)).

Lemma racy_unfolds : step no_call racy mu (CParComp (assign 0) (assign 1)) mu.
Proof. apply (PARLOOP no_call i (EConst (VZ 2)) (CAssign x [] (EVar i)) 2 mu). reflexivity. Qed.

Lemma assign_step : forall m n, in_dom m (x, []) -> step no_call (assign n) m CSkip (write m n).
Proof. intros m n D. apply ASSIGN; auto. Qed.

Lemma in_dom_x : forall m, (forall l, mget m l = None <-> mget mu l = None) -> in_dom m (x, []).
Proof. intros m H K. apply H in K. vm_compute in K. discriminate. Qed.

(** Two interleavings, two final memories: x = 1 when iteration 0 writes first, x = 0 otherwise. *)
Theorem racy_is_nondeterministic : exists m1 m2,
  steps no_call racy mu CSkip m1 /\ steps no_call racy mu CSkip m2 /\
  mget m1 (x, []) = Some (Some (VZ 1)) /\ mget m2 (x, []) = Some (Some (VZ 0)).
Proof.
  exists (write (write mu 0) 1), (write (write mu 1) 0). split; [|split; [|split]].
  - econstructor; [apply racy_unfolds|].
    econstructor; [apply PAR_L, assign_step; intro K; vm_compute in K; discriminate|].
    econstructor; [apply PAR_SKIP_L|].
    econstructor; [apply assign_step; intro K; vm_compute in K; discriminate|]. constructor.
  - econstructor; [apply racy_unfolds|].
    econstructor; [apply PAR_R, assign_step; intro K; vm_compute in K; discriminate|].
    econstructor; [apply PAR_SKIP_R|].
    econstructor; [apply assign_step; intro K; vm_compute in K; discriminate|]. constructor.
  - vm_compute. reflexivity.
  - vm_compute. reflexivity.
Qed.

(** The sequential loop has a derivation, and (Theorem 4.3.7) every reduction of it to skip ends
    with x = 1. *)
Lemma sequential_derives : exists d r, bigstep no_call Leaf mu sequential d r /\ lget (x, []) d = Some (VZ 1).
Proof.
  destruct (exec no_call Leaf mu sequential) as [d r|f] eqn:X.
  - exists d, r. split. apply exec_sound; auto. vm_compute in X. inversion X; subst. vm_compute. reflexivity.
  - vm_compute in X. discriminate.
Qed.

Corollary sequential_ends_with_1 : forall m', steps no_call sequential mu CSkip m' -> mget m' (x, []) = Some (Some (VZ 1)).
Proof.
  intros m' S. destruct sequential_derives as [d [r [B D]]].
  assert (S' : steps no_call (csubst Leaf sequential) mu CSkip m') by (rewrite csubst_empty; exact S).
  rewrite (thm_4_3_7 no_call Leaf mu sequential d r m' B S' (x, [])).
  rewrite mget_upd, D. vm_compute. reflexivity.
Qed.
