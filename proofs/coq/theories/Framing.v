(* Framing: what an evaluation depends on.
   - Theorem 4.2.2: the value and the read set of an expression only depend on the memory over
     that read set.
   - Remark 4.2.2: a derivation only reads and writes inside dom(μ).
   - Lemma 4.2.4: a command evaluates to the same ⟨δμ; ρ⟩ in any memory that contains dom(δμ)
     and agrees with μ on ρ.
   All three for every interpretation [call] of the operators. *)

From Coq Require Import ZArith List Bool Lia.
From Sched Require Import Maps Values Syntax Memory Eval BigStep.
Import ListNotations.

Section Framing.
Variable call : fn -> list val -> option val.

Lemma agree_merge_l : forall {B} m m' (a b : lmap B), agree_on m m' (lmerge a b) -> agree_on m m' a.
Proof.
  intros B m m' a b H l K. apply H. rewrite lget_merge. destruct (lget l b); congruence.
Qed.

Lemma agree_merge_r : forall {B} m m' (a b : lmap B), agree_on m m' (lmerge a b) -> agree_on m m' b.
Proof.
  intros B m m' a b H l K. apply H. rewrite lget_merge. destruct (lget l b); congruence.
Qed.

(** Each element's read set is inside the union. *)
Lemma rds_each : forall {A} (f : A -> option locset) l r,
  rds f l = Some r -> Forall (fun x => exists r1, f x = Some r1 /\ forall loc, lget loc r1 <> None -> lget loc r <> None) l.
Proof.
  induction l as [|x l IH]; simpl; intros r H; constructor.
  - destruct (f x) as [r1|] eqn:Ex; try discriminate. destruct (rds f l) eqn:El; try discriminate.
    inversion H; subst. exists r1. split; auto. intros loc K. rewrite lget_merge.
    destruct (lget loc l0); congruence.
  - destruct (f x) as [r1|] eqn:Ex; try discriminate. destruct (rds f l) as [rl|] eqn:El; try discriminate.
    inversion H; subst. eapply Forall_impl; [|exact (IH rl eq_refl)].
    intros y [r2 [R2 S2]]. exists r2. split; auto. intros loc K. rewrite lget_merge.
    specialize (S2 loc K). destruct (lget loc rl); congruence.
Qed.

Definition framed (E : env) (m : mem) (e : expr) : Prop :=
  forall r, rd call E m e = Some r -> forall m', agree_on m m' r ->
    rd call E m' e = Some r /\ eval call E m' e = eval call E m e.

(** Theorem 4.2.2 for every element of a list whose read sets are defined. *)
Lemma framed_list : forall E m l r m',
  Forall (fun e => framed E m e) l ->
  rds (rd call E m) l = Some r -> agree_on m m' r ->
  rds (rd call E m') l = Some r /\ evals (eval call E m') l = evals (eval call E m) l.
Proof.
  intros E m l r m' F R A. pose proof (rds_each _ _ _ R) as Each.
  assert (G : Forall (fun e => rd call E m' e = rd call E m e /\ eval call E m' e = eval call E m e) l).
  { rewrite Forall_forall in *. intros x I. destruct (Each x I) as [r1 [R1 S1]].
    destruct (F x I r1 R1 m') as [H1 H2].
    - intros loc K. apply A. auto.
    - rewrite R1. auto. }
  split.
  - rewrite <- R. apply rds_ext. eapply Forall_impl; [|exact G]. intros x [K _]; auto.
  - apply evals_ext. eapply Forall_impl; [|exact G]. intros x [_ K]; auto.
Qed.

Theorem thm_4_2_2 : forall e E m r,
  rd call E m e = Some r -> forall m', agree_on m m' r ->
  rd call E m' e = Some r /\ eval call E m' e = eval call E m e.
Proof.
  induction e using expr_ind'; intros E m r R m' A; simpl in *.
  (* ι1 ⊙ ι2 (+, comparisons, &&, ||): the read sets of both sides. *)
  all: try solve [
    destruct (rd call E m e1) as [r1|] eqn:R1; try discriminate;
    destruct (rd call E m e2) as [r2|] eqn:R2; try discriminate; inversion R; subst;
    destruct (IHe1 E m r1 R1 m') as [R1' V1']; [eapply agree_merge_l; eauto|];
    destruct (IHe2 E m r2 R2 m') as [R2' V2']; [eapply agree_merge_r; eauto|];
    rewrite R1', R2', V1', V2'; auto ].
  - inversion R; auto.
  - inversion R; auto.
  - (* a[ι1, …, ιn] *)
    destruct (evals (eval call E m) idx) as [vs|] eqn:Ev; try discriminate.
    destruct (rds (rd call E m) idx) as [ri|] eqn:Ri; try discriminate.
    destruct (nats vs) as [ns|] eqn:Nv; try discriminate. inversion R; subst.
    destruct (framed_list E m idx ri m') as [R' V']; auto.
    + eapply Forall_impl; [|exact H]. intros x Hx r1 R1 m1 A1. eauto.
    + eapply agree_merge_r; eauto.
    + rewrite R', V', Ev, Nv. split; auto.
      rewrite (nats_ints _ _ Nv).
      assert (M : mget m' (a, ns) = mget m (a, ns)).
      { symmetry. apply A. rewrite lget_merge, lget_single.
        destruct (lget (a, ns) ri); try congruence. destruct loc_eq_dec; congruence. }
      rewrite M. auto.
  - destruct (eval call E m e1) as [v0|] eqn:E1; try discriminate.
    destruct (rd call E m e1) as [r1|] eqn:R1; try discriminate.
    destruct (rd call (set x v0 E) m e2) as [r2|] eqn:R2; try discriminate. inversion R; subst.
    destruct (IHe1 E m r1 R1 m') as [R1' V1']. eapply agree_merge_l; eauto.
    destruct (IHe2 (set x v0 E) m r2 R2 m') as [R2' V2']. eapply agree_merge_r; eauto.
    rewrite V1', E1, R1', R2', V2'. auto.
  - destruct (IHe E m r R m' A) as [R' V']. rewrite R', V'. auto.
  - destruct (rd call E m e1) as [r1|] eqn:R1; try discriminate.
    destruct (rd call E m e2) as [r2|] eqn:R2; try discriminate.
    destruct (rd call E m e3) as [r3|] eqn:R3; try discriminate. inversion R; subst.
    destruct (IHe1 E m r1 R1 m') as [R1' V1']. eapply agree_merge_l; eauto.
    destruct (IHe2 E m r2 R2 m') as [R2' V2']. eapply agree_merge_l, agree_merge_r; eauto.
    destruct (IHe3 E m r3 R3 m') as [R3' V3']. eapply agree_merge_r, agree_merge_r; eauto.
    rewrite R1', R2', R3', V1', V2', V3'. auto.
  - destruct (framed_list E m args r m') as [R' V']; auto.
    + eapply Forall_impl; [|exact H]. intros x Hx r1 R1 m1 A1. eauto.
    + rewrite R', V'. auto.
Qed.

Corollary eval_ints_framed : forall E m l ns r m',
  eval_ints call E m l = Some ns -> rds (rd call E m) l = Some r -> agree_on m m' r ->
  eval_ints call E m' l = Some ns /\ rds (rd call E m') l = Some r.
Proof.
  intros E m l ns r m' H R A. unfold eval_ints in *.
  destruct (framed_list E m l r m') as [R' V']; auto.
  - apply Forall_forall. intros x _ r1 R1 m1 A1. eapply thm_4_2_2; eauto.
  - rewrite V', R'. auto.
Qed.

(* ------------------------------------------------------------------------------------------ *)
(** Remark 4.2.2: dom(δμ) ⊆ dom(μ) and ρ ⊆ dom(μ). *)

Lemma rd_in_dom : forall E m e v r, eval call E m e = Some v -> rd call E m e = Some r -> in_dom_set m r.
Proof.
  intros E m e v r V R. destruct (lemma_4_2_1 call e E m v V) as [r' [R' D]].
  rewrite R in R'. inversion R'; subst; auto.
Qed.

Lemma rds_in_dom : forall E m l vs r, evals (eval call E m) l = Some vs -> rds (rd call E m) l = Some r -> in_dom_set m r.
Proof.
  intros E m l vs r V R. pose proof (evals_forall _ _ _ V) as G.
  eapply rds_forall; [apply in_dom_set_empty | apply in_dom_set_merge | | exact R].
  eapply Forall_impl; [|exact G]. intros x [v Hv] r1 R1. eapply rd_in_dom; eauto.
Qed.

Lemma in_dom_fold_upd : forall ds m l, in_dom (fold_left mupd ds m) l <-> in_dom m l.
Proof.
  induction ds; simpl; intros m l. tauto. rewrite IHds. apply in_dom_upd.
Qed.

Lemma in_dom_set_fold : forall {B} (ds : list (lmap B)) m,
  (forall i, (i < length ds)%nat -> in_dom_set m (nth i ds lempty)) ->
  in_dom_set m (fold_left lmerge ds lempty).
Proof.
  intros B ds m H l K. destruct (lget l (fold_left lmerge ds lempty)) as [v|] eqn:E; try congruence.
  destruct (lget_fold_some _ _ _ _ E) as [E'|[j [J E']]].
  - rewrite lget_empty in E'. discriminate.
  - apply (H j J). congruence.
Qed.

Theorem remark_4_2_2 : forall E m c d r, bigstep call E m c d r -> in_dom_set m d /\ in_dom_set m r.
Proof.
  induction 1.
  - split; apply in_dom_set_empty.
  - destruct IHbigstep1 as [D1 R1], IHbigstep2 as [D2 R2].
    split; apply in_dom_set_merge; auto; intros l K; apply (in_dom_upd m d1); auto.
  - destruct IHbigstep. split; auto. apply in_dom_set_merge; eauto using rd_in_dom.
  - destruct IHbigstep. split; auto. apply in_dom_set_merge; eauto using rd_in_dom.
  - destruct IHbigstep. split; auto. apply in_dom_set_merge; eauto using rd_in_dom.
  - split.
    + apply in_dom_set_fold. intros i I. intros l K. apply (in_dom_fold_upd (firstn i ds)).
      apply (proj1 (H4 i ltac:(lia))); auto.
    + apply in_dom_set_merge; eauto using rd_in_dom. apply in_dom_set_fold. intros i I l K.
      apply (in_dom_fold_upd (firstn i ds)). apply (proj2 (H4 i ltac:(unfold locset in *; lia))); auto.
  - split.
    + apply in_dom_set_fold. intros i I. apply (proj1 (H4 i ltac:(lia))).
    + apply in_dom_set_merge; eauto using rd_in_dom. apply in_dom_set_fold. intros i I.
      apply (proj2 (H4 i ltac:(unfold locset in *; lia))).
  - split.
    + intros l K. rewrite lget_single in K. destruct loc_eq_dec; subst; congruence.
    + unfold eval_ints in H. destruct (evals _ _) eqn:Ev; try discriminate.
      apply in_dom_set_merge; eauto using rd_in_dom, rds_in_dom.
  - destruct IHbigstep as [D R].
    assert (S : forall {B} (x : lmap B), in_dom_set (alloc m a ns) x -> in_dom_set m (lremove a x)).
    { intros B x X l K. rewrite lget_remove in K. destruct (Pos.eqb_spec (fst l) a); try congruence.
      specialize (X l K). unfold in_dom in *. rewrite mget_alloc in X. apply Pos.eqb_neq in n.
      rewrite n in X. auto. }
    split; auto. apply in_dom_set_merge; auto.
    unfold eval_ints in H. destruct (evals _ _) eqn:Ev; try discriminate. eauto using rds_in_dom.
  - destruct IHbigstep1 as [D1 R1], IHbigstep2 as [D2 R2]. split; apply in_dom_set_merge; auto.
  - destruct IHbigstep as [D R].
    assert (S : forall {B} (x : lmap B), in_dom_set (inject m a dims s) x -> in_dom_set m (lremove a x)).
    { intros B x X l K. rewrite lget_remove in K. destruct (Pos.eqb_spec (fst l) a); try congruence.
      specialize (X l K). unfold in_dom in *. rewrite mget_inject in X. apply Pos.eqb_neq in n.
      rewrite n in X. auto. }
    split; auto.
Qed.

(* ------------------------------------------------------------------------------------------ *)
(** Lemma 4.2.4 *)

Lemma agree_fold_upd : forall ds m m' l, mget m l = mget m' l ->
  mget (fold_left mupd ds m) l = mget (fold_left mupd ds m') l.
Proof.
  induction ds; simpl; intros m m' l H; auto. apply IHds. rewrite !mget_upd, H. auto.
Qed.

Lemma fold_sub : forall {B} (ds : list (lmap B)) i l, (i < length ds)%nat ->
  lget l (nth i ds lempty) <> None -> lget l (fold_left lmerge ds lempty) <> None.
Proof.
  intros B ds i l I K E. apply lget_fold_none in E as [_ E]. exact (K (E i I)).
Qed.

Theorem lemma_4_2_4 : forall E m c d r, bigstep call E m c d r ->
  forall m', (forall l, lget l d <> None -> in_dom m' l) -> agree_on m m' r ->
  bigstep call E m' c d r.
Proof.
  induction 1; intros m' Dm A.
  - constructor.
  - constructor.
    + apply IHbigstep1. intros l K; apply Dm. rewrite lget_merge. destruct (lget l d2); congruence.
      eapply agree_merge_l; eauto.
    + apply IHbigstep2.
      * intros l K. apply in_dom_upd. apply Dm. rewrite lget_merge. destruct (lget l d2); congruence.
      * intros l K. rewrite !mget_upd. rewrite (agree_merge_r _ _ _ _ A l K). auto.
  - destruct (thm_4_2_2 e E m re H0 m') as [R' V']. eapply agree_merge_l; eauto.
    rewrite <- V' in H. eapply U_IF_TRUE; eauto. apply IHbigstep; auto. eapply agree_merge_r; eauto.
  - destruct (thm_4_2_2 e E m re H0 m') as [R' V']. eapply agree_merge_l; eauto.
    rewrite <- V' in H. eapply U_IF_FALSE; eauto. apply IHbigstep; auto. eapply agree_merge_r; eauto.
  - destruct (thm_4_2_2 e E m re H0 m') as [R' V']. eapply agree_merge_l; eauto.
    rewrite <- V' in H. eapply U_LET; eauto. apply IHbigstep; auto. eapply agree_merge_r; eauto.
  - destruct (thm_4_2_2 e E m re H0 m') as [R' V']. eapply agree_merge_l; eauto.
    rewrite <- V' in H. eapply U_FOR; eauto. intros i I. apply H4; auto.
    + intros l K. apply in_dom_fold_upd. apply Dm. eapply fold_sub; eauto. lia.
    + intros l K. apply agree_fold_upd. apply A. rewrite lget_merge.
      assert (lget l (fold_left lmerge rs lempty) <> None) by (eapply fold_sub; eauto; unfold locset in *; lia).
      destruct (lget l (fold_left lmerge rs lempty)); congruence.
  - destruct (thm_4_2_2 e E m re H0 m') as [R' V']. eapply agree_merge_l; eauto.
    rewrite <- V' in H. eapply U_PARLOOP; eauto. intros i I. apply H4; auto.
    + intros l K. apply Dm. eapply fold_sub; eauto. lia.
    + intros l K. apply A. rewrite lget_merge.
      assert (lget l (fold_left lmerge rs lempty) <> None) by (eapply fold_sub; eauto; unfold locset in *; lia).
      destruct (lget l (fold_left lmerge rs lempty)); congruence.
  - destruct (thm_4_2_2 e E m re H2 m') as [R' V']. eapply agree_merge_l; eauto.
    destruct (eval_ints_framed E m idx ns ri m' H H3) as [I' Ri']. eapply agree_merge_r; eauto.
    rewrite <- V' in H1. eapply U_ASSIGN; eauto.
    apply Dm. rewrite lget_single. destruct loc_eq_dec; congruence.
  - destruct (eval_ints_framed E m dims ns rdims m' H H0) as [I' Rd']. eapply agree_merge_l; eauto.
    destruct (remark_4_2_2 _ _ _ _ _ H1) as [Dd _].
    eapply U_ALLOCATE; eauto. apply IHbigstep.
    + intros l K. unfold in_dom. rewrite mget_alloc. destruct (Pos.eqb_spec (fst l) a).
      * specialize (Dd l K). unfold in_dom in Dd. rewrite mget_alloc in Dd. rewrite e in Dd.
        rewrite Pos.eqb_refl in Dd. destruct (in_box (snd l) ns); congruence.
      * apply Dm. rewrite lget_remove. apply Pos.eqb_neq in n. rewrite n. auto.
    + intros l K. rewrite !mget_alloc. destruct (Pos.eqb_spec (fst l) a); auto.
      apply (agree_merge_r _ _ _ _ A). rewrite lget_remove. apply Pos.eqb_neq in n. rewrite n. auto.
  - apply U_PAR; auto.
    + apply IHbigstep1. intros l K; apply Dm. rewrite lget_merge. destruct (lget l d2); congruence.
      eapply agree_merge_l; eauto.
    + apply IHbigstep2. intros l K; apply Dm. rewrite lget_merge. destruct (lget l d2); congruence.
      eapply agree_merge_r; eauto.
  - destruct (remark_4_2_2 _ _ _ _ _ H) as [Dd _].
    apply U_INALLOC. apply IHbigstep.
    + intros l K. unfold in_dom. rewrite mget_inject. destruct (Pos.eqb_spec (fst l) a).
      * specialize (Dd l K). unfold in_dom in Dd. rewrite mget_inject in Dd. rewrite e in Dd.
        rewrite Pos.eqb_refl in Dd. destruct (in_box (snd l) dims); congruence.
      * apply Dm. rewrite lget_remove. apply Pos.eqb_neq in n. rewrite n. auto.
    + intros l K. rewrite !mget_inject. destruct (Pos.eqb_spec (fst l) a); auto.
      apply A. rewrite lget_remove. apply Pos.eqb_neq in n. rewrite n. auto.
Qed.

End Framing.
