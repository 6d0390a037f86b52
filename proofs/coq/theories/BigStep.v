(* The big-step update semantics E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ of thesis Fig. 4.5, one constructor per rule.
   δμ is a differential memory (the last value written to each location) and ρ the set of
   locations read.

   How the figure is read:
   - U-FOR's premise for iteration i runs in μ ▷ ▶_{j<i} δμ_j, written here
     [fold_left mupd (firstn i ds) m] = (…(μ ▷ δμ_0) ▷ …) ▷ δμ_{i−1}: the same memory, since ▷ is
     associative. ▶_{i<n} δμ_i and ⋃_{i<n} ρ_i are [fold_left lmerge ds lempty] and
     [fold_left lmerge rs lempty].
   - U-PARLOOP's ⋃ δμ_i is the same fold of ▷: under its side condition δμ_i ∘ δμ_j (the maps
     agree where both are defined) the order does not matter and the fold is the union.
   - "for all 0 ≤ i < n" with n ∈ ℤ ranges over the Z.to_nat n naturals below n (none if n ≤ 0);
     the lists ds and rs of the premises' results have that length.
   - U-ALLOCATE's δμ ∖ dom(μ_a) and ρ ∖ dom(μ_a) remove every location of a ([lremove a]): the
     body's δμ and ρ hold no location of a outside μ_a's box (Remark 4.2.2, Framing.v), so this is
     the same. Its ρ also holds the reads of the dimensions e_i, as U-FOR's holds rd(e): none for
     the affine dimensions the type system allows, but without them Lemma 4.2.4 would fail for a
     dimension that reads memory.
   - The environment is updated (E + x ↦ v), so a binder may shadow an outer one: the Barendregt
     convention of the thesis is not needed.

   Proved here: the well-formedness of δμ and ρ (their keys are codes of index tuples). *)

From Coq Require Import ZArith List Bool Lia.
From Sched Require Import Maps Values Syntax Memory Eval.
Import ListNotations.

(** E + x ↦ z *)
Definition bindz (x : ident) (z : Z) (E : env) : env := set x (VZ z) E.

(** E + x ↦ i for an iteration i of a loop. *)
Definition bind (x : ident) (i : nat) (E : env) : env := bindz x (Z.of_nat i) E.

(** δμ1 ∘ δμ2: the two differential memories agree where both are defined (Definition 4.2.4). *)
Definition compat (d1 d2 : lmap val) : Prop :=
  forall l v1 v2, lget l d1 = Some v1 -> lget l d2 = Some v2 -> v1 = v2.

(** dom(δμ) # ρ (Definition 4.2.3). *)
Definition disjoint_from (d : lmap val) (r : locset) : Prop :=
  forall l, lget l d <> None -> lget l r <> None -> False.

Section BigStep.
Variable call : fn -> list val -> option val.

(** ⟦ι_i⟧_{E;μ} = n_i ∈ ℤ for all i. *)
Definition eval_ints (E : env) (m : mem) (l : list expr) : option (list Z) :=
  match evals (eval call E m) l with Some vs => ints vs | None => None end.

Inductive bigstep : env -> mem -> cmd -> lmap val -> locset -> Prop :=
| U_SKIP : forall E m,
    bigstep E m CSkip lempty lempty
| U_SEQ : forall E m c1 c2 d1 r1 d2 r2,
    bigstep E m c1 d1 r1 ->
    bigstep E (mupd m d1) c2 d2 r2 ->
    bigstep E m (CSeq c1 c2) (lmerge d1 d2) (lmerge r1 r2)
| U_IF_TRUE : forall E m e c1 c2 re d r,
    eval call E m e = Some (VBool true) ->
    rd call E m e = Some re ->
    bigstep E m c1 d r ->
    bigstep E m (CIf e c1 c2) d (lmerge re r)
| U_IF_FALSE : forall E m e c1 c2 re d r,
    eval call E m e = Some (VBool false) ->
    rd call E m e = Some re ->
    bigstep E m c2 d r ->
    bigstep E m (CIf e c1 c2) d (lmerge re r)
| U_LET : forall E m x e c v re d r,
    eval call E m e = Some v ->
    rd call E m e = Some re ->
    bigstep (set x v E) m c d r ->
    bigstep E m (CLet x e c) d (lmerge re r)
| U_FOR : forall E m x e c n re ds rs,
    eval call E m e = Some (VZ n) ->
    rd call E m e = Some re ->
    length ds = Z.to_nat n ->
    length rs = Z.to_nat n ->
    (forall i, (i < Z.to_nat n)%nat ->
       bigstep (bind x i E) (fold_left mupd (firstn i ds) m) c (nth i ds lempty) (nth i rs lempty)) ->
    bigstep E m (CFor x e c) (fold_left lmerge ds lempty) (lmerge re (fold_left lmerge rs lempty))
| U_PARLOOP : forall E m x e c n re ds rs,
    eval call E m e = Some (VZ n) ->
    rd call E m e = Some re ->
    length ds = Z.to_nat n ->
    length rs = Z.to_nat n ->
    (forall i, (i < Z.to_nat n)%nat ->
       bigstep (bind x i E) m c (nth i ds lempty) (nth i rs lempty)) ->
    (forall i j, (i < Z.to_nat n)%nat -> (j < Z.to_nat n)%nat -> i <> j ->
       compat (nth i ds lempty) (nth j ds lempty)) ->
    (forall i j, (i < Z.to_nat n)%nat -> (j < Z.to_nat n)%nat -> i <> j ->
       disjoint_from (nth i ds lempty) (nth j rs lempty)) ->
    bigstep E m (CPar x e c) (fold_left lmerge ds lempty) (lmerge re (fold_left lmerge rs lempty))
| U_ASSIGN : forall E m a idx e ns v re ri,
    eval_ints E m idx = Some ns ->
    in_dom m (a, ns) ->
    eval call E m e = Some v ->
    rd call E m e = Some re ->
    rds (rd call E m) idx = Some ri ->
    bigstep E m (CAssign a idx e) (lsingle (a, ns) v) (lmerge re ri)
| U_ALLOCATE : forall E m a dims c ns rdims d r,
    eval_ints E m dims = Some ns ->
    rds (rd call E m) dims = Some rdims ->
    bigstep E (alloc m a ns) c d r ->
    bigstep E m (CAlloc a dims c) (lremove a d) (lmerge rdims (lremove a r))
(* The rules of §4.3 for the small-step semantics' intermediate terms, derived from U-PARLOOP and
   U-ALLOCATE. *)
| U_PAR : forall E m c1 c2 d1 r1 d2 r2,
    bigstep E m c1 d1 r1 ->
    bigstep E m c2 d2 r2 ->
    compat d1 d2 -> disjoint_from d1 r2 -> disjoint_from d2 r1 ->
    bigstep E m (CParComp c1 c2) (lmerge d1 d2) (lmerge r1 r2)
| U_INALLOC : forall E m a dims s c d r,
    bigstep E (inject m a dims s) c d r ->
    bigstep E m (CInAlloc a dims s c) (lremove a d) (lremove a r).

(* ------------------------------------------------------------------------------------------ *)
(** Read sets are well-formed maps (their keys are codes of tuples). *)

Lemma rds_wf : forall {A} (f : A -> option locset) l r,
  Forall (fun x => forall r1, f x = Some r1 -> wf r1) l -> rds f l = Some r -> wf r.
Proof.
  intros. eapply rds_forall; eauto. apply wf_empty. intros; apply wf_merge; auto.
Qed.

Lemma rd_wf : forall e E m r, rd call E m e = Some r -> wf r.
Proof.
  induction e using expr_ind'; intros E m r Hr; simpl in Hr;
    repeat match goal with
    | K : match ?x with _ => _ end = Some _ |- _ => destruct x eqn:?; try discriminate
    | K : Some _ = Some _ |- _ => inversion K; subst; clear K
    end;
    repeat apply wf_merge; eauto using wf_empty, wf_single.
  - match goal with K : rds _ _ = Some ?r |- wf ?r => eapply rds_wf; [|exact K] end.
    eapply Forall_impl; [|exact H]. eauto.
  - eapply rds_wf; [|exact Hr]. eapply Forall_impl; [|exact H]. eauto.
Qed.

Lemma wf_fold_nth : forall {A} (ds : list (lmap A)) n,
  length ds = n -> (forall i, (i < n)%nat -> wf (nth i ds lempty)) -> Forall wf ds.
Proof.
  intros A ds n L H. apply Forall_forall. intros x I. destruct (In_nth _ _ lempty I) as [i [Hi <-]].
  apply H. lia.
Qed.

Lemma bigstep_wf : forall E m c d r, bigstep E m c d r -> wf d /\ wf r.
Proof.
  induction 1.
  - split; apply wf_empty.
  - destruct IHbigstep1, IHbigstep2. split; apply wf_merge; auto.
  - destruct IHbigstep. split; auto. apply wf_merge; eauto using rd_wf.
  - destruct IHbigstep. split; auto. apply wf_merge; eauto using rd_wf.
  - destruct IHbigstep. split; auto. apply wf_merge; eauto using rd_wf.
  - split.
    + apply wf_fold_merge. apply wf_empty. eapply wf_fold_nth; eauto. intros; apply H4; congruence.
    + apply wf_merge. eauto using rd_wf. apply wf_fold_merge. apply wf_empty.
      eapply wf_fold_nth; eauto. intros; apply H4; congruence.
  - split.
    + apply wf_fold_merge. apply wf_empty. eapply wf_fold_nth; eauto. intros; apply H4; congruence.
    + apply wf_merge. eauto using rd_wf. apply wf_fold_merge. apply wf_empty.
      eapply wf_fold_nth; eauto. intros; apply H4; congruence.
  - split. apply wf_single. apply wf_merge. eauto using rd_wf.
    eapply rds_wf; [|exact H3]. apply Forall_forall. intros; eapply rd_wf; eauto.
  - destruct IHbigstep. split. apply wf_remove; auto. apply wf_merge. 2: apply wf_remove; auto.
    eapply rds_wf; [|exact H0]. apply Forall_forall. intros; eapply rd_wf; eauto.
  - destruct IHbigstep1, IHbigstep2. split; apply wf_merge; auto.
  - destruct IHbigstep. split; apply wf_remove; auto.
Qed.

End BigStep.
