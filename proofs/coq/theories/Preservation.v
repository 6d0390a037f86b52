(* Thesis §4.3, continued: every small-step reduction of a command with a big-step derivation
   stays within that derivation.
   - Lemma 4.3.8 (single-step preservation) and Corollary 4.3.9 (many steps);
   - Theorem 4.3.7 (determinism): every reduction to skip ends in μ ▷ δμ;
   - Corollary 4.3.10 (confluence): two reductions can always be completed to a common end.
   Memories are compared by contents ([mequiv]); δμ' ⊆ δμ and ρ' ⊆ ρ are inclusions of maps. *)

From Coq Require Import ZArith List Bool Lia.
From Sched Require Import Maps Values Syntax Memory Eval BigStep Framing Exec Subst SmallStep Soundness.
Import ListNotations.

(** a ⊆ b, as partial maps. *)
Definition lsub {B} (a b : lmap B) : Prop := forall l v, lget l a = Some v -> lget l b = Some v.

Lemma lsub_refl : forall {B} (a : lmap B), lsub a a.
Proof. intros B a l v H. auto. Qed.

Lemma lsub_trans : forall {B} (a b c : lmap B), lsub a b -> lsub b c -> lsub a c.
Proof. intros B a b c H K l v E. auto. Qed.

Lemma lsub_merge : forall {B} (a a' b : lmap B), lsub a' a -> lsub (lmerge a' b) (lmerge a b).
Proof.
  intros B a a' b H l v E. rewrite lget_merge in *. destruct (lget l b); auto.
Qed.

Lemma lsub_merge_r : forall {B} (a b : lmap B), lsub b (lmerge a b).
Proof. intros B a b l v E. rewrite lget_merge, E. auto. Qed.

Lemma lsub_merge_empty : forall {B} (b : lmap B), lsub b (lmerge lempty b).
Proof. intros B b l v E. rewrite lget_merge, E. auto. Qed.

Lemma lsub_remove : forall {B} a (x y : lmap B), lsub x y -> lsub (lremove a x) (lremove a y).
Proof. intros B a x y H l v E. rewrite lget_remove in *. destruct (Pos.eqb (fst l) a); auto. Qed.

Lemma lsub_empty : forall {B} (b : lmap B), lsub lempty b.
Proof. intros B b l v E. rewrite lget_empty in E. discriminate. Qed.

(** The value of a fold of ▷ from any start. *)
Lemma lget_fold_acc : forall {B} (ds : list (lmap B)) acc l,
  lget l (fold_left lmerge ds acc) = match lget l (fold_left lmerge ds lempty) with Some v => Some v | None => lget l acc end.
Proof.
  induction ds as [|d ds IH]; simpl; intros acc l.
  - rewrite lget_empty. auto.
  - rewrite IH, (IH (lmerge lempty d)), !lget_merge, lget_empty.
    destruct (lget l (fold_left lmerge ds lempty)); auto. destruct (lget l d); auto.
Qed.

Section Preservation.
Variable call : fn -> list val -> option val.
Notation step := (step call).
Notation steps := (steps call).
Notation bigstep := (bigstep call).

Lemma mupd_same_ext : forall m d d', (forall l, lget l d = lget l d') -> mequiv (mupd m d) (mupd m d').
Proof. intros m d d' H l. rewrite !mget_upd, H. auto. Qed.

(* ------------------------------------------------------------------------------------------ *)
(** The unfolded loops have big-step derivations. *)

Lemma seq_bigstep : forall cs ds rs m0,
  length cs = length ds -> length rs = length ds ->
  (forall i, (i < length ds)%nat -> bigstep Leaf (fold_left mupd (firstn i ds) m0) (nth i cs CSkip) (nth i ds lempty) (nth i rs lempty)) ->
  exists D R, bigstep Leaf m0 (seq_of cs) D R /\
    (forall l, lget l D = lget l (fold_left lmerge ds lempty)) /\ (forall l, lget l R = lget l (fold_left lmerge rs lempty)).
Proof.
  induction cs as [|c cs IH]; intros [|d ds] [|r rs] m0 L1 L2 H; simpl in L1, L2; try discriminate.
  - exists lempty, lempty. split; [constructor|]. split; intros; reflexivity.
  - pose proof (H 0%nat ltac:(simpl; lia)) as B0. simpl in B0.
    destruct cs as [|c' cs'].
    + destruct ds; try discriminate. destruct rs; try discriminate.
      exists d, r. split; auto. cbn [fold_left]. split; intros l; rewrite lget_merge, lget_empty; destruct (lget l _); auto.
    + destruct (IH ds rs (mupd m0 d)) as [D [R [B [ED ER]]]]; auto.
      { intros i I. apply (H (S i)). simpl. lia. }
      exists (lmerge d D), (lmerge r R). split.
      * change (seq_of (c :: c' :: cs')) with (CSeq c (seq_of (c' :: cs'))). constructor; auto.
      * cbn [fold_left]. split; intros l; rewrite lget_fold_acc, lget_merge, lget_merge, lget_empty;
          [rewrite ED | rewrite ER]; destruct (lget l (fold_left lmerge _ lempty)); auto;
          [destruct (lget l d) | destruct (lget l r)]; auto.
Qed.

Lemma fold_some_nth : forall {B} (ds : list (lmap B)) l v,
  lget l (fold_left lmerge ds lempty) = Some v -> exists j, (j < length ds)%nat /\ lget l (nth j ds lempty) = Some v.
Proof.
  intros B ds l v E. destruct (lget_fold_some _ _ _ _ E) as [E'|J]; auto.
  rewrite lget_empty in E'. discriminate.
Qed.

Lemma par_bigstep : forall cs ds rs m,
  length cs = length ds -> length rs = length ds ->
  (forall i, (i < length ds)%nat -> bigstep Leaf m (nth i cs CSkip) (nth i ds lempty) (nth i rs lempty)) ->
  (forall i j, (i < length ds)%nat -> (j < length ds)%nat -> i <> j -> compat (nth i ds lempty) (nth j ds lempty)) ->
  (forall i j, (i < length ds)%nat -> (j < length ds)%nat -> i <> j -> disjoint_from (nth i ds lempty) (nth j rs lempty)) ->
  exists D R, bigstep Leaf m (par_of cs) D R /\
    (forall l, lget l D = lget l (fold_left lmerge ds lempty)) /\ (forall l, lget l R = lget l (fold_left lmerge rs lempty)).
Proof.
  induction cs as [|c cs IH]; intros [|d ds] [|r rs] m L1 L2 H C Dj; simpl in L1, L2; try discriminate.
  - exists lempty, lempty. split; [constructor|]. split; intros; reflexivity.
  - pose proof (H 0%nat ltac:(simpl; lia)) as B0. simpl in B0.
    destruct cs as [|c' cs'].
    + destruct ds; try discriminate. destruct rs; try discriminate.
      exists d, r. split; auto. cbn [fold_left]. split; intros l; rewrite lget_merge, lget_empty; destruct (lget l _); auto.
    + destruct (IH ds rs m) as [D [R [B [ED ER]]]]; auto.
      { intros i I. apply (H (S i)). simpl. lia. }
      { intros i j I J N. apply (C (S i) (S j)); simpl; lia. }
      { intros i j I J N. apply (Dj (S i) (S j)); simpl; lia. }
      exists (lmerge d D), (lmerge r R). split.
      * change (par_of (c :: c' :: cs')) with (CParComp c (par_of (c' :: cs'))). constructor; auto.
        -- intros l v1 v2 K1 K2. rewrite ED in K2. destruct (fold_some_nth _ _ _ K2) as [j [J K]].
           apply (C 0%nat (S j) ltac:(simpl; lia) ltac:(simpl; lia) ltac:(lia) l); auto.
        -- intros l K1 K2. rewrite ER in K2. destruct (lget l (fold_left lmerge rs lempty)) as [u|] eqn:F; try congruence.
           destruct (fold_some_nth _ _ _ F) as [j [J K]]. unfold locset in *.
           apply (Dj 0%nat (S j) ltac:(simpl; lia) ltac:(simpl; lia) ltac:(lia) l); simpl; congruence.
        -- intros l K1 K2. rewrite ED in K1. destruct (lget l (fold_left lmerge ds lempty)) as [u|] eqn:F; try congruence.
           destruct (fold_some_nth _ _ _ F) as [j [J K]].
           apply (Dj (S j) 0%nat ltac:(simpl; lia) ltac:(simpl; lia) ltac:(lia) l); simpl; congruence.
      * cbn [fold_left]. split; intros l; rewrite lget_fold_acc, lget_merge, lget_merge, lget_empty;
          [rewrite ED | rewrite ER]; destruct (lget l (fold_left lmerge _ lempty)); auto;
          [destruct (lget l d) | destruct (lget l r)]; auto.
Qed.


(* ------------------------------------------------------------------------------------------ *)
(** Lemma 4.3.8 *)

Definition preserved (m : mem) (d : lmap val) (r : locset) (c' : cmd) (m' : mem) : Prop :=
  exists d' r', bigstep Leaf m' c' d' r' /\ lsub d' d /\ lsub r' r /\ mequiv (mupd m' d') (mupd m d).

Lemma for_inv : forall E m x e c d r, bigstep E m (CFor x e c) d r ->
  exists n re ds rs, eval call E m e = Some (VZ n) /\ rd call E m e = Some re /\
    length ds = Z.to_nat n /\ length rs = Z.to_nat n /\
    (forall i, (i < Z.to_nat n)%nat ->
       bigstep (bind x i E) (fold_left mupd (firstn i ds) m) c (nth i ds lempty) (nth i rs lempty)) /\
    d = fold_left lmerge ds lempty /\ r = lmerge re (fold_left lmerge rs lempty).
Proof. intros. inversion H; subst. exists n, re, ds, rs. repeat split; auto. Qed.

Lemma par_inv : forall E m x e c d r, bigstep E m (CPar x e c) d r ->
  exists n re ds rs, eval call E m e = Some (VZ n) /\ rd call E m e = Some re /\
    length ds = Z.to_nat n /\ length rs = Z.to_nat n /\
    (forall i, (i < Z.to_nat n)%nat -> bigstep (bind x i E) m c (nth i ds lempty) (nth i rs lempty)) /\
    (forall i j, (i < Z.to_nat n)%nat -> (j < Z.to_nat n)%nat -> i <> j -> compat (nth i ds lempty) (nth j ds lempty)) /\
    (forall i j, (i < Z.to_nat n)%nat -> (j < Z.to_nat n)%nat -> i <> j -> disjoint_from (nth i ds lempty) (nth j rs lempty)) /\
    d = fold_left lmerge ds lempty /\ r = lmerge re (fold_left lmerge rs lempty).
Proof. intros. inversion H; subst. exists n, re, ds, rs. repeat split; auto. Qed.

Lemma skip_inv : forall E m d r, bigstep E m CSkip d r -> d = lempty /\ r = lempty.
Proof. intros E m d r H. inversion H; auto. Qed.

Lemma mupd_empty_mequiv : forall m, mequiv (mupd m lempty) m.
Proof. intros m l. apply mupd_empty. Qed.

Lemma merge_empty_l : forall {B} (d : lmap B) l, lget l (lmerge lempty d) = lget l d.
Proof. intros B d l. rewrite lget_merge, lget_empty. destruct (lget l d); auto. Qed.

Lemma merge_empty_r : forall {B} (d : lmap B) l, lget l (lmerge d lempty) = lget l d.
Proof. intros B d l. rewrite lget_merge, lget_empty. auto. Qed.

Theorem lemma_4_3_8 : forall c m c' m', step c m c' m' ->
  forall d r, bigstep Leaf m c d r -> preserved m d r c' m'.
Proof.
  induction 1; intros d r B.
  - (* SEQ-CTX *)
    inversion B; subst.
    match goal with K1 : bigstep Leaf m c1 ?d1 ?r1, K2 : bigstep Leaf (mupd m ?d1) c2 ?d2 ?r2 |- _ =>
      destruct (IHstep _ _ K1) as [d1' [r1' [B1 [S1 [R1 M1]]]]];
      exists (lmerge d1' d2), (lmerge r1' r2); split; [|split; [|split]];
      [ constructor; auto; eapply bigstep_mequiv; [exact K2|]; apply mequiv_sym; auto
      | apply lsub_merge; auto
      | apply lsub_merge; auto
      | eapply mequiv_trans; [apply mequiv_sym; apply mupd_merge|];
        eapply mequiv_trans; [apply mequiv_upd; exact M1|]; apply mupd_merge ]
    end.
  - (* SEQ-SKIP *)
    inversion B; subst.
    match goal with K1 : bigstep Leaf m CSkip ?d1 ?r1, K2 : bigstep Leaf (mupd m ?d1) c ?d2 ?r2 |- _ =>
      destruct (skip_inv _ _ _ _ K1); subst;
      exists d2, r2; split; [|split; [|split]];
      [ eapply bigstep_mequiv; [exact K2|]; apply mupd_empty_mequiv
      | apply lsub_merge_empty
      | apply lsub_merge_empty
      | apply mupd_same_ext; intro l; rewrite merge_empty_l; auto ]
    end.
  - (* PAR-L *)
    inversion B; subst.
    match goal with K1 : bigstep Leaf m c1 ?d1 ?r1, K2 : bigstep Leaf m c2 ?d2 ?r2,
                    C : compat ?d1 ?d2, D12 : disjoint_from ?d1 ?r2, D21 : disjoint_from ?d2 ?r1 |- _ =>
      destruct (IHstep _ _ K1) as [d1' [r1' [B1 [S1 [R1 M1]]]]];
      assert (B2 : bigstep Leaf m' c2 d2 r2);
      [ eapply lemma_4_2_4; [exact K2| |];
        [ intros l K; apply (in_dom_step call _ _ _ _ H); destruct (remark_4_2_2 call _ _ _ _ _ K2) as [D _]; auto
        | intros l K; assert (N : lget l d1 = None) by (destruct (lget l d1) eqn:E; auto; exfalso; apply (D12 l); congruence);
          assert (N' : lget l d1' = None) by (destruct (lget l d1') eqn:E; auto; apply S1 in E; congruence);
          specialize (M1 l); rewrite !mget_upd, N, N' in M1;
          destruct (mget m l), (mget m' l); congruence ]
      | exists (lmerge d1' d2), (lmerge r1' r2); split; [|split; [|split]];
        [ constructor; auto;
          [ intros l v1 v2 K3 K4; apply (C l); auto
          | intros l K3 K4; destruct (lget l d1') eqn:E; try congruence; apply (D12 l); auto; apply S1 in E; congruence
          | intros l K3 K4; destruct (lget l r1') eqn:E; try congruence; apply (D21 l); auto; apply R1 in E; congruence ]
        | apply lsub_merge; auto
        | apply lsub_merge; auto
        | eapply mequiv_trans; [apply mequiv_sym; apply mupd_merge|];
          eapply mequiv_trans; [apply mequiv_upd; exact M1|]; apply mupd_merge ] ]
    end.
  - (* PAR-R *)
    inversion B; subst.
    match goal with K1 : bigstep Leaf m c1 ?d1 ?r1, K2 : bigstep Leaf m c2 ?d2 ?r2,
                    C : compat ?d1 ?d2, D12 : disjoint_from ?d1 ?r2, D21 : disjoint_from ?d2 ?r1 |- _ =>
      rename K1 into B1o; rename K2 into B2o; rename C into Cc; rename D12 into Dx; rename D21 into Dy
    end.
    destruct (IHstep _ _ B2o) as [d2' [r2' [B2 [S2 [R2 M2]]]]].
    assert (B1 : bigstep Leaf m' c1 d1 r1).
    { eapply lemma_4_2_4; [exact B1o| |].
      - intros l K. apply (in_dom_step call _ _ _ _ H). destruct (remark_4_2_2 call _ _ _ _ _ B1o) as [D _]. auto.
      - intros l K. assert (N : lget l d2 = None) by (destruct (lget l d2) eqn:E; auto; exfalso; apply (Dy l); congruence).
        assert (N' : lget l d2' = None) by (destruct (lget l d2') eqn:E; auto; apply S2 in E; congruence).
        specialize (M2 l). rewrite !mget_upd, N, N' in M2.
        destruct (mget m l), (mget m' l); congruence. }
    exists (lmerge d1 d2'), (lmerge r1 r2'). split; [|split; [|split]].
    + constructor; auto.
      * intros l v1 v2 K3 K4. apply (Cc l); auto.
      * intros l K3 K4. destruct (lget l r2') eqn:E; try congruence. apply (Dx l); auto. apply R2 in E. congruence.
      * intros l K3 K4. destruct (lget l d2') eqn:E; try congruence. apply (Dy l); auto. apply S2 in E. congruence.
    + intros l v E. rewrite lget_merge in *. destruct (lget l d2') eqn:E2.
      * inversion E; subst. rewrite (S2 l v E2). auto.
      * destruct (lget l d2) eqn:E3; auto. f_equal. symmetry. apply (Cc l v v0); auto.
    + intros l v E. rewrite lget_merge in *. destruct (lget l r2') eqn:E2.
      * inversion E; subst. rewrite (R2 l v E2). auto.
      * destruct (lget l r2) eqn:E3; auto. destruct u, v; auto.
    + intros l. specialize (M2 l). rewrite !mget_upd, !lget_merge. rewrite !mget_upd in M2.
      destruct (mget m' l) as [o'|] eqn:Em'; destruct (mget m l) as [o|] eqn:Em; try discriminate; auto.
      destruct (lget l d2') as [v|] eqn:E2'.
      * rewrite (S2 l v E2'). auto.
      * destruct (lget l d2) as [u|] eqn:E2; destruct (lget l d1) as [w|] eqn:E1; inversion M2; subst; auto.
        f_equal. f_equal. apply (Cc l w u); auto.
  - (* PAR-SKIP-L *)
    inversion B; subst.
    match goal with K1 : bigstep Leaf m CSkip ?d1 ?r1, K2 : bigstep Leaf m c ?d2 ?r2 |- _ =>
      destruct (skip_inv _ _ _ _ K1); subst;
      exists d2, r2; split; [|split; [|split]]; auto using lsub_merge_empty;
      apply mupd_same_ext; intro l; rewrite merge_empty_l; auto
    end.
  - (* PAR-SKIP-R *)
    inversion B; subst.
    match goal with K1 : bigstep Leaf m c ?d1 ?r1, K2 : bigstep Leaf m CSkip ?d2 ?r2 |- _ =>
      destruct (skip_inv _ _ _ _ K2); subst;
      exists d1, r1; split; [|split; [|split]]; auto;
      [ intros l v E; rewrite merge_empty_r; auto
      | intros l v E; rewrite merge_empty_r; auto
      | apply mupd_same_ext; intro l; rewrite merge_empty_r; auto ]
    end.
  - (* IF-TRUE *)
    inversion B; subst; [|congruence].
    match goal with K : bigstep Leaf m c1 ?d ?r |- _ =>
      exists d, r; split; [|split; [|split]]; auto using lsub_refl, lsub_merge_r, mequiv_refl
    end.
  - (* IF-FALSE *)
    inversion B; subst; [congruence|].
    match goal with K : bigstep Leaf m c2 ?d ?r |- _ =>
      exists d, r; split; [|split; [|split]]; auto using lsub_refl, lsub_merge_r, mequiv_refl
    end.
  - (* LET *)
    inversion B; subst.
    match goal with V : eval call Leaf m e = Some ?v', K : bigstep (set x ?v' Leaf) m c ?d ?r |- _ =>
      rewrite H in V; inversion V; subst;
      exists d, r; split; [|split; [|split]]; auto using lsub_refl, lsub_merge_r, mequiv_refl;
      apply (proj1 (bigstep_subst call (set x v' Leaf) m c d r)); auto
    end.
  - (* SEQLOOP *)
    destruct (for_inv _ _ _ _ _ _ _ B) as [n' [re [ds [rs [V [Re [L1 [L2 [K [-> ->]]]]]]]]]].
    assert (n' = n) by congruence. subst n'.
    destruct (seq_bigstep (unroll x c n) ds rs m) as [D [R [BD [ED ER]]]].
    + rewrite length_unroll. auto.
    + unfold locset in *. lia.
    + intros i I. rewrite nth_unroll by lia. apply (proj1 (bigstep_subst call (bind x i Leaf) _ c _ _)). apply K. lia.
    + exists D, R. split; [|split; [|split]]; auto.
      * intros l v E. rewrite ED in E. auto.
      * intros l v E. rewrite lget_merge. rewrite ER in E. rewrite E. auto.
      * apply mupd_same_ext. auto.
  - (* PARLOOP *)
    destruct (par_inv _ _ _ _ _ _ _ B) as [n' [re [ds [rs [V [Re [L1 [L2 [K [C [Dj [-> ->]]]]]]]]]]]].
    assert (n' = n) by congruence. subst n'.
    destruct (par_bigstep (unroll x c n) ds rs m) as [D [R [BD [ED ER]]]].
    + rewrite length_unroll. auto.
    + unfold locset in *. lia.
    + intros i I. rewrite nth_unroll by lia. apply (proj1 (bigstep_subst call (bind x i Leaf) _ c _ _)). apply K. lia.
    + intros i j I J N. apply C; lia.
    + intros i j I J N. apply Dj; lia.
    + exists D, R. split; [|split; [|split]]; auto.
      * intros l v E. rewrite ED in E. auto.
      * intros l v E. rewrite lget_merge. rewrite ER in E. rewrite E. auto.
      * apply mupd_same_ext. auto.
  - (* ASSIGN *)
    inversion B; subst.
    match goal with I : eval_ints call Leaf m idx = Some ?ns', V : eval call Leaf m e = Some ?v' |- _ =>
      rewrite H in I; inversion I; subst; rewrite H0 in V; inversion V; subst
    end.
    exists lempty, lempty. split; [|split; [|split]]; auto using lsub_empty.
    + constructor.
    + apply mupd_empty_mequiv.
  - (* ALLOCATE *)
    inversion B; subst.
    match goal with I : eval_ints call Leaf m dims = Some ?ns', K : bigstep Leaf (alloc m a ?ns') c ?d ?r |- _ =>
      rewrite H in I; inversion I; subst;
      exists (lremove a d), (lremove a r); split; [|split; [|split]]; auto using lsub_refl, lsub_merge_r, mequiv_refl;
      constructor; auto
    end.
  - (* INALLOC-CTX *)
    inversion B; subst.
    match goal with K : bigstep Leaf (inject m a dims s) c ?d ?r |- _ =>
      destruct (IHstep _ _ K) as [d' [r' [B' [S' [R' M']]]]]
    end.
    assert (Sa : get a (shapes M) = Some dims).
    { rewrite (lemma_4_3_1 call _ _ _ _ H a), shapes_inject, Pos.eqb_refl. auto. }
    exists (lremove a d'), (lremove a r'). split; [|split; [|split]].
    + constructor. eapply bigstep_mequiv; eauto. intros l. rewrite mget_inject, mget_restore.
      destruct (Pos.eqb_spec (fst l) a); auto. unfold mget, lget. rewrite e, Sa.
      destruct (in_box (snd l) dims) eqn:Bx; auto. rewrite (H0 (snd l) Bx). auto.
    + apply lsub_remove; auto.
    + apply lsub_remove; auto.
    + intros l. rewrite !mget_upd, !lget_remove, mget_restore. destruct (Pos.eqb_spec (fst l) a); auto.
      specialize (M' l). rewrite !mget_upd, mget_inject in M'. apply Pos.eqb_neq in n. rewrite n in M'. auto.
  - (* INALLOC-SKIP *)
    inversion B; subst.
    match goal with K : bigstep Leaf _ CSkip ?d ?r |- _ => destruct (skip_inv _ _ _ _ K); subst end.
    exists lempty, lempty. split; [|split; [|split]]; auto using lsub_empty.
    + constructor.
    + apply mupd_same_ext. intro l. rewrite lget_remove, lget_empty. destruct (Pos.eqb (fst l) a); auto.
Qed.

(** Corollary 4.3.9 *)
Corollary cor_4_3_9 : forall c m c' m', steps c m c' m' ->
  forall d r, bigstep Leaf m c d r -> preserved m d r c' m'.
Proof.
  induction 1; intros d r B.
  - exists d, r. split; [|split; [|split]]; auto using lsub_refl, mequiv_refl.
  - destruct (lemma_4_3_8 _ _ _ _ H d r B) as [d1 [r1 [B1 [S1 [R1 M1]]]]].
    destruct (IHsteps d1 r1 B1) as [d2 [r2 [B2 [S2 [R2 M2]]]]].
    exists d2, r2. split; [|split; [|split]]; eauto using lsub_trans, mequiv_trans.
Qed.

(** Theorem 4.3.7 (determinism): if E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ and ⟨c[E] | μ⟩ ⇝* ⟨skip | μ'⟩, then μ'
    has the contents of μ ▷ δμ. *)
Theorem thm_4_3_7 : forall E m c d r m', bigstep E m c d r ->
  steps (csubst E c) m CSkip m' -> mequiv m' (mupd m d).
Proof.
  intros E m c d r m' B S. apply bigstep_subst in B.
  destruct (cor_4_3_9 _ _ _ _ S d r B) as [d' [r' [B' [_ [_ M]]]]].
  destruct (skip_inv _ _ _ _ B'); subst. eapply mequiv_trans; [|exact M].
  apply mequiv_sym, mupd_empty_mequiv.
Qed.

(** Corollary 4.3.10 (confluence): two reductions of ⟨c[E] | μ⟩ both continue to skip in memories
    with the contents of μ ▷ δμ (the common end, up to the representation of memories). *)
Corollary cor_4_3_10 : forall E m c d r c1 m1 c2 m2, bigstep E m c d r ->
  steps (csubst E c) m c1 m1 -> steps (csubst E c) m c2 m2 ->
  exists m1' m2', steps c1 m1 CSkip m1' /\ steps c2 m2 CSkip m2' /\
    mequiv m1' (mupd m d) /\ mequiv m2' (mupd m d).
Proof.
  intros E m c d r c1 m1 c2 m2 B S1 S2. apply bigstep_subst in B.
  destruct (cor_4_3_9 _ _ _ _ S1 d r B) as [d1 [r1 [B1 [_ [_ M1]]]]].
  destruct (cor_4_3_9 _ _ _ _ S2 d r B) as [d2 [r2 [B2 [_ [_ M2]]]]].
  destruct (thm_4_3_3 call Leaf m1 c1 d1 r1 B1) as [m1' [T1 E1]].
  destruct (thm_4_3_3 call Leaf m2 c2 d2 r2 B2) as [m2' [T2 E2]].
  rewrite csubst_empty in T1, T2.
  exists m1', m2'. split; [|split; [|split]]; auto; eapply mequiv_trans; eauto.
Qed.

End Preservation.
