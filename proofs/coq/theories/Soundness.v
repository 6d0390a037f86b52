(* Thesis §4.3: the big-step semantics is sound for the small-step interleaving semantics.
   - Lemma 4.3.4 and Theorem 4.3.3 (existence): a command with a big-step derivation reduces, in
     small steps, to skip in a memory with the contents of μ ▷ δμ.
   Memories are compared by contents ([mequiv]: the same domain and the same value or ⊥ at every
   location), as everywhere in this development. *)

From Coq Require Import ZArith List Bool Lia.
From Sched Require Import Maps Values Syntax Memory Eval BigStep Framing Exec Subst SmallStep.
Import ListNotations.

Section Soundness.
Variable call : fn -> list val -> option val.
Notation step := (step call).
Notation steps := (steps call).

(* ------------------------------------------------------------------------------------------ *)
(** Memories *)

Lemma mupd_merge : forall m d1 d2, mequiv (mupd (mupd m d1) d2) (mupd m (lmerge d1 d2)).
Proof.
  intros m d1 d2 l. rewrite !mget_upd, lget_merge. destruct (mget m l); auto.
  destruct (lget l d2); auto.
Qed.

Lemma fold_mupd_mequiv : forall ds m n, mequiv m n -> mequiv (fold_left mupd ds m) (fold_left mupd ds n).
Proof. induction ds; simpl; intros; auto. apply IHds. apply mequiv_upd. auto. Qed.

Lemma fold_mupd_merge : forall ds m acc, mequiv (fold_left mupd ds (mupd m acc)) (mupd m (fold_left lmerge ds acc)).
Proof.
  induction ds as [|d ds IH]; simpl; intros m acc.
  - apply mequiv_refl.
  - eapply mequiv_trans; [|apply IH]. apply fold_mupd_mequiv. apply mupd_merge.
Qed.

Lemma fold_mupd_lmerge : forall ds m, mequiv (fold_left mupd ds m) (mupd m (fold_left lmerge ds lempty)).
Proof.
  intros ds m. eapply mequiv_trans; [|apply fold_mupd_merge]. apply fold_mupd_mequiv.
  intros l. rewrite mupd_empty. auto.
Qed.

Lemma in_dom_mequiv : forall m n l, mequiv m n -> in_dom m l -> in_dom n l.
Proof. intros m n l H K. unfold in_dom in *. rewrite <- H. auto. Qed.

Lemma inject_restore : forall Y a m dims, get a (shapes Y) = Some dims ->
  mequiv (inject (restore Y a m) a dims (sub a (cells Y))) Y.
Proof.
  intros Y a m dims S l. rewrite mget_inject, mget_restore. destruct (Pos.eqb_spec (fst l) a); auto.
  unfold mget, lget. rewrite e, S. auto.
Qed.

Lemma shapes_inject : forall m a dims s b,
  get b (shapes (inject m a dims s)) = if Pos.eqb b a then Some dims else get b (shapes m).
Proof. intros. unfold inject; simpl. apply gsspec. Qed.

(* ------------------------------------------------------------------------------------------ *)
(** Lifting steps into contexts *)

Lemma steps_seq_ctx : forall c1 m c1' m' c2, steps c1 m c1' m' -> steps (CSeq c1 c2) m (CSeq c1' c2) m'.
Proof. induction 1; intros. constructor. econstructor. apply SEQ_CTX; eauto. auto. Qed.

Lemma steps_par_l : forall c1 m c1' m' c2, steps c1 m c1' m' -> steps (CParComp c1 c2) m (CParComp c1' c2) m'.
Proof. induction 1; intros. constructor. econstructor. apply PAR_L; eauto. auto. Qed.

Lemma steps_par_r : forall c2 m c2' m' c1, steps c2 m c2' m' -> steps (CParComp c1 c2) m (CParComp c1 c2') m'.
Proof. induction 1; intros. constructor. econstructor. apply PAR_R; eauto. auto. Qed.

(** Steps of the body of an inalloc block, from a memory with the contents of (μ ∖ a) ▷ μ_a,
    are steps of the block (INALLOC-CTX), which leave μ's own a alone. *)
Lemma steps_inalloc : forall c X c' M, steps c X c' M ->
  forall m a dims s, mequiv X (inject m a dims s) -> same_shapes X (inject m a dims s) ->
  exists s' m', steps (CInAlloc a dims s c) m (CInAlloc a dims s' c') m' /\
    mequiv (inject m' a dims s') M /\ (forall l, fst l = a -> mget m' l = mget m l) /\ same_shapes m m'.
Proof.
  induction 1; intros m0 a dims s HX SX.
  - exists s, m0. split; [constructor|]. split; [apply mequiv_sym; auto|]. split; auto. intros b; auto.
  - destruct (step_mequiv call _ _ _ _ H (inject m0 a dims s) HX SX) as [Y [S1 [E1 SY]]].
    assert (Sa : get a (shapes Y) = Some dims).
    { rewrite (lemma_4_3_1 call _ _ _ _ S1 a). rewrite shapes_inject, Pos.eqb_refl. auto. }
    destruct (IHsteps (restore Y a m0) a dims (sub a (cells Y))) as [s' [m' [S2 [E2 [A2 SS2]]]]].
    + eapply mequiv_trans; [exact E1|]. apply mequiv_sym. apply inject_restore; auto.
    + intros b. rewrite <- (SY b). rewrite shapes_inject.
      destruct (Pos.eqb_spec b a); subst. rewrite Sa. auto.
      rewrite shapes_restore. apply Pos.eqb_neq in n. rewrite n. auto.
    + exists s', m'. split; [|split; [auto|split]].
      * econstructor; [|exact S2]. apply INALLOC_CTX; auto. intros i B. auto.
      * intros l L. rewrite A2; auto. rewrite mget_restore. rewrite L, Pos.eqb_refl. auto.
      * intros b. rewrite (SS2 b), shapes_restore. destruct (Pos.eqb_spec b a); subst; auto.
        rewrite (lemma_4_3_1 call _ _ _ _ S1 b), shapes_inject. apply Pos.eqb_neq in n. rewrite n. auto.
Qed.

(* ------------------------------------------------------------------------------------------ *)
(** Folds of ▷ and their parts *)

Lemma fold_cons_tail : forall {B} (d : lmap B) ds l,
  lget l (fold_left lmerge ds lempty) <> None -> lget l (fold_left lmerge (d :: ds) lempty) <> None.
Proof.
  intros B d ds l K E. cbn [fold_left] in E. apply lget_fold_none in E as [_ E].
  apply K. apply lget_fold_none. split. apply lget_empty. auto.
Qed.

Lemma fold_cons_head : forall {B} (d : lmap B) ds l,
  lget l d <> None -> lget l (fold_left lmerge (d :: ds) lempty) <> None.
Proof.
  intros B d ds l K E. cbn [fold_left] in E. apply lget_fold_none in E as [E _].
  rewrite lget_merge in E. destruct (lget l d); congruence.
Qed.

Lemma lget_fold_none' : forall {B} (ds : list (lmap B)) l,
  lget l (fold_left lmerge ds lempty) <> None -> exists j, (j < length ds)%nat /\ lget l (nth j ds lempty) <> None.
Proof.
  intros B ds l K. destruct (lget l (fold_left lmerge ds lempty)) as [v|] eqn:E; try congruence.
  destruct (lget_fold_some _ _ _ _ E) as [E'|[j [J E']]].
  - rewrite lget_empty in E'. discriminate.
  - exists j. split; auto. congruence.
Qed.

(* ------------------------------------------------------------------------------------------ *)
(** Substitutions of loop and let variables *)

Lemma csubst_set : forall x v E c, csubst (set x v Leaf) (csubst (remove x E) c) = csubst (set x v E) c.
Proof.
  intros x v E c. rewrite csubst_comp. apply csubst_ext. intro y.
  rewrite gmerge, grspec, !gsspec, get_leaf. destruct (Pos.eqb y x); auto.
  destruct (get y E); auto.
Qed.

Lemma nth_unroll : forall x c n i, (i < Z.to_nat n)%nat ->
  nth i (unroll x c n) CSkip = csubst (bind x i Leaf) c.
Proof.
  intros x c n i I. unfold unroll, unroll_from.
  assert (G : forall (f : nat -> cmd) l d j, (j < length l)%nat -> nth j (map f l) d = f (nth j l 0%nat)).
  { intros f l d. induction l; intros [|j] J; simpl in *; try lia; auto. apply IHl. lia. }
  rewrite G by (rewrite seq_length; auto). rewrite seq_nth; auto.
Qed.

Lemma length_unroll : forall x c n, length (unroll x c n) = Z.to_nat n.
Proof. intros. unfold unroll, unroll_from. rewrite map_length, seq_length. auto. Qed.

Lemma eval_ints_subst_empty : forall E m l,
  eval_ints call E m l = eval_ints call Leaf m (map (subst E) l) /\ rds (rd call E m) l = rds (rd call Leaf m) (map (subst E) l).
Proof.
  intros E m l. unfold eval_ints. rewrite evals_map, rds_map.
  rewrite (evals_ext (eval call E m) (fun e => eval call Leaf m (subst E e))),
          (rds_ext (rd call E m) (fun e => rd call Leaf m (subst E e))); auto;
    apply Forall_forall; intros e _; apply (eval_subst_empty call E m e).
Qed.

(* ------------------------------------------------------------------------------------------ *)
(** Running the unfolded loops *)

Definition runs_to (c : cmd) (m0 : mem) (d : lmap val) (r : locset) : Prop :=
  forall m', in_dom_set m' d -> agree_on m0 m' r ->
    exists m'', steps c m' CSkip m'' /\ mequiv m'' (mupd m' d).

(** Running c1 ⊕ (c2 ⊕ (… ⊕ cn)) for a combinator ⊕ that runs its left argument to skip first
    (sequence, parallel composition run left first), iteration i in the memory the earlier ones
    left. *)
Section Comb.
Variable K : cmd -> cmd -> cmd.
Variable comb : list cmd -> cmd.
Hypothesis comb_nil : comb [] = CSkip.
Hypothesis comb_one : forall c, comb [c] = c.
Hypothesis comb_cons : forall c c' cs, comb (c :: c' :: cs) = K c (comb (c' :: cs)).
Hypothesis lift : forall c m m' rest, steps c m CSkip m' -> steps (K c rest) m rest m'.

Lemma comb_run : forall cs ds rs m0 m0',
  length cs = length ds -> length rs = length ds ->
  (forall i, (i < length ds)%nat -> runs_to (nth i cs CSkip) (fold_left mupd (firstn i ds) m0) (nth i ds lempty) (nth i rs lempty)) ->
  in_dom_set m0' (fold_left lmerge ds lempty) -> agree_on m0 m0' (fold_left lmerge rs lempty) ->
  exists m'', steps (comb cs) m0' CSkip m'' /\ mequiv m'' (fold_left mupd ds m0').
Proof.
  induction cs as [|c cs IH]; intros [|d ds] [|r rs] m0 m0' L1 L2 H D A; simpl in L1, L2; try discriminate.
  - exists m0'. rewrite comb_nil. split; [constructor | apply mequiv_refl].
  - destruct (H 0%nat ltac:(simpl; lia) m0') as [m1 [S1 E1]].
    + intros l K'. apply D. apply fold_cons_head; auto.
    + intros l K'. apply A. apply fold_cons_head; auto.
    + destruct cs as [|c' cs'].
      * destruct ds; try discriminate. exists m1. rewrite comb_one. split; auto.
      * destruct (IH ds rs (mupd m0 d) m1) as [m2 [S2 E2]]; auto.
        -- intros i I. apply (H (S i)). simpl. lia.
        -- intros l K'. apply (in_dom_mequiv (mupd m0' d)); [apply mequiv_sym; auto|].
           apply in_dom_upd. apply D. apply fold_cons_tail; auto.
        -- intros l K'. rewrite (E1 l), !mget_upd, (A l); auto. apply fold_cons_tail; auto.
        -- exists m2. split.
           ++ rewrite comb_cons. eapply steps_trans; [apply lift; exact S1|]. exact S2.
           ++ eapply mequiv_trans; [exact E2|]. simpl. apply fold_mupd_mequiv. auto.
Qed.
End Comb.

Lemma fold_two : forall {B} (a b : lmap B) l, lget l (fold_left lmerge [a; b] lempty) = lget l (lmerge a b).
Proof. intros. cbn [fold_left]. rewrite !lget_merge, lget_empty. destruct (lget l b), (lget l a); auto. Qed.

Lemma lift_seq : forall c m m' rest, steps c m CSkip m' -> steps (CSeq c rest) m rest m'.
Proof. intros. eapply steps_trans; [apply steps_seq_ctx; eauto|]. apply steps_one, SEQ_SKIP. Qed.

Lemma nth_firstn_lt : forall {A} (l : list A) i j d, (j < i)%nat -> nth j (firstn i l) d = nth j l d.
Proof.
  intros A l. induction l as [|x l IH]; intros [|i] [|j] d J; simpl; try lia; auto.
  apply IH. lia.
Qed.

Lemma runs_to_agree : forall c m0 m1 d r, runs_to c m0 d r -> agree_on m0 m1 r -> runs_to c m1 d r.
Proof. intros c m0 m1 d r H A m' D A'. apply H; auto. intros l K. rewrite (A l K). apply A'; auto. Qed.

(** μ ▷ δμ_0 ▷ … ▷ δμ_{i−1} agrees with μ where none of them writes. *)
Lemma fold_mupd_untouched : forall ds m l, (forall d, In d ds -> lget l d = None) ->
  mget (fold_left mupd ds m) l = mget m l.
Proof.
  induction ds as [|d ds IH]; simpl; intros m l H; auto.
  rewrite IH; auto. rewrite mget_upd, (H d); auto. destruct (mget m l); auto.
Qed.

Lemma par_run : forall cs ds rs m m0',
  length cs = length ds -> length rs = length ds ->
  (forall i, (i < length ds)%nat -> runs_to (nth i cs CSkip) m (nth i ds lempty) (nth i rs lempty)) ->
  (forall i j, (i < length ds)%nat -> (j < length ds)%nat -> i <> j -> disjoint_from (nth i ds lempty) (nth j rs lempty)) ->
  in_dom_set m0' (fold_left lmerge ds lempty) -> agree_on m m0' (fold_left lmerge rs lempty) ->
  exists m'', steps (par_of cs) m0' CSkip m'' /\ mequiv m'' (fold_left mupd ds m0').
Proof.
  intros cs ds rs m m0' L1 L2 H Dj D A.
  refine (comb_run CParComp par_of eq_refl (fun _ => eq_refl) (fun _ _ _ => eq_refl) _ cs ds rs m m0' L1 L2 _ D A).
  - intros c m1 m' rest S. eapply steps_trans; [apply steps_par_l; exact S|]. apply steps_one, PAR_SKIP_L.
  - (* iteration i reads nothing the earlier ones write *)
    intros i I. apply (runs_to_agree _ m); auto. intros l K. symmetry. apply fold_mupd_untouched.
    intros d' In'. destruct (In_nth _ _ lempty In') as [j [J <-]]. rewrite firstn_length in J.
    rewrite nth_firstn_lt by lia.
    destruct (lget l (nth j ds lempty)) eqn:E; auto. exfalso. apply (Dj j i ltac:(lia) I ltac:(lia) l); congruence.
Qed.

Lemma inalloc_run : forall c m a dims s d r,
  runs_to c (inject m a dims s) d r -> in_dom_set (inject m a dims s) d ->
  runs_to (CInAlloc a dims s c) m (lremove a d) (lremove a r).
Proof.
  intros c m a dims s d r H Dd m' D A.
  destruct (H (inject m' a dims s)) as [M [S1 E1]].
  - intros l K. unfold in_dom. rewrite mget_inject. destruct (Pos.eqb_spec (fst l) a).
    + specialize (Dd l K). unfold in_dom in Dd. rewrite mget_inject, e, Pos.eqb_refl in Dd.
      destruct (in_box (snd l) dims); congruence.
    + apply D. rewrite lget_remove. apply Pos.eqb_neq in n. rewrite n. auto.
  - intros l K. rewrite !mget_inject. destruct (Pos.eqb_spec (fst l) a); auto.
    apply A. rewrite lget_remove. apply Pos.eqb_neq in n. rewrite n. auto.
  - destruct (steps_inalloc _ _ _ _ S1 m' a dims s (mequiv_refl _) (fun b => eq_refl)) as [s' [m1 [S2 [E2 [A2 _]]]]].
    exists m1. split.
    + eapply steps_trans; [exact S2|]. apply steps_one. apply INALLOC_SKIP.
    + intros l. rewrite mget_upd, lget_remove. destruct (Pos.eqb_spec (fst l) a).
      * rewrite A2; auto. destruct (mget m' l); auto.
      * specialize (E2 l). rewrite mget_inject in E2. apply Pos.eqb_neq in n. rewrite n in E2.
        rewrite E2, (E1 l), mget_upd, mget_inject, n. auto.
Qed.

Lemma agree_sub : forall {B C} m m' (r : lmap B) (r' : lmap C),
  agree_on m m' r -> (forall l, lget l r' <> None -> lget l r <> None) -> agree_on m m' r'.
Proof. intros B C m m' r r' A S l K. apply A, S, K. Qed.

Lemma merge_sub_l : forall {B} (a b : lmap B) l, lget l a <> None -> lget l (lmerge a b) <> None.
Proof. intros B a b l K. rewrite lget_merge. destruct (lget l b); congruence. Qed.

Lemma merge_sub_r : forall {B} (a b : lmap B) l, lget l b <> None -> lget l (lmerge a b) <> None.
Proof. intros B a b l K. rewrite lget_merge. destruct (lget l b); congruence. Qed.

(** Lemma 4.3.4: from any memory that contains dom(δμ) and agrees with μ on ρ, c[E] reduces to
    skip, in a memory with the contents of μ' ▷ δμ. *)
Theorem lemma_4_3_4 : forall E m c d r, bigstep call E m c d r -> runs_to (csubst E c) m d r.
Proof.
  induction 1; intros m' D A; simpl.
  - exists m'. split; [constructor|]. intros l. rewrite mupd_empty. auto.
  - (* c1; c2 is the sequence of [c1; c2] *)
    destruct (comb_run CSeq seq_of eq_refl (fun _ => eq_refl) (fun _ _ _ => eq_refl) lift_seq
                [csubst E c1; csubst E c2] [d1; d2] [r1; r2] m m') as [m2 [S2 E2]]; auto.
    + intros [|[|i]] I; simpl in *; auto; lia.
    + intros l K. apply D. rewrite <- fold_two. auto.
    + intros l K. apply A. rewrite <- fold_two. auto.
    + exists m2. split; auto. eapply mequiv_trans; [exact E2|]. apply mupd_merge.
  - destruct (thm_4_2_2 call e E m re H0 m') as [_ V]. { eapply agree_sub; eauto. intros l K. apply merge_sub_l; auto. }
    destruct (IHbigstep m' D) as [m1 [S1 E1]]. { eapply agree_sub; eauto. intros l K. apply merge_sub_r; auto. }
    exists m1. split; auto. econstructor; [|exact S1]. apply IF_TRUE.
    rewrite <- (proj1 (eval_subst_empty call E m' e)). congruence.
  - destruct (thm_4_2_2 call e E m re H0 m') as [_ V]. { eapply agree_sub; eauto. intros l K. apply merge_sub_l; auto. }
    destruct (IHbigstep m' D) as [m1 [S1 E1]]. { eapply agree_sub; eauto. intros l K. apply merge_sub_r; auto. }
    exists m1. split; auto. econstructor; [|exact S1]. apply IF_FALSE.
    rewrite <- (proj1 (eval_subst_empty call E m' e)). congruence.
  - destruct (thm_4_2_2 call e E m re H0 m') as [_ V]. { eapply agree_sub; eauto. intros l K. apply merge_sub_l; auto. }
    destruct (IHbigstep m' D) as [m1 [S1 E1]]. { eapply agree_sub; eauto. intros l K. apply merge_sub_r; auto. }
    exists m1. split; auto. econstructor; [apply (LET call x (subst E e) (csubst (remove x E) c) v)|].
    + rewrite <- (proj1 (eval_subst_empty call E m' e)). congruence.
    + rewrite csubst_set. exact S1.
  - destruct (thm_4_2_2 call e E m re H0 m') as [_ V]. { eapply agree_sub; eauto. intros l K. apply merge_sub_l; auto. }
    destruct (comb_run CSeq seq_of eq_refl (fun _ => eq_refl) (fun _ _ _ => eq_refl) lift_seq
                (unroll x (csubst (remove x E) c) n) ds rs m m') as [m1 [S1 E1]].
    + rewrite length_unroll. auto.
    + unfold locset in *. lia.
    + intros i I. rewrite nth_unroll by lia. unfold bind at 1, bindz. rewrite csubst_set. apply H4. lia.
    + auto.
    + eapply agree_sub; eauto. intros l K. apply merge_sub_r; auto.
    + exists m1. split.
      * econstructor; [|exact S1]. apply SEQLOOP. rewrite <- (proj1 (eval_subst_empty call E m' e)). congruence.
      * eapply mequiv_trans; [exact E1|]. apply fold_mupd_lmerge.
  - destruct (thm_4_2_2 call e E m re H0 m') as [_ V]. { eapply agree_sub; eauto. intros l K. apply merge_sub_l; auto. }
    destruct (par_run (unroll x (csubst (remove x E) c) n) ds rs m m') as [m1 [S1 E1]].
    + rewrite length_unroll. auto.
    + unfold locset in *. lia.
    + intros i I. rewrite nth_unroll by lia. unfold bind at 1, bindz. rewrite csubst_set. apply H4. lia.
    + intros i j I J N. apply H6; lia.
    + auto.
    + eapply agree_sub; eauto. intros l K. apply merge_sub_r; auto.
    + exists m1. split.
      * econstructor; [|exact S1]. apply PARLOOP. rewrite <- (proj1 (eval_subst_empty call E m' e)). congruence.
      * eapply mequiv_trans; [exact E1|]. apply fold_mupd_lmerge.
  - destruct (thm_4_2_2 call e E m re H2 m') as [_ V]. { eapply agree_sub; eauto. intros l K. apply merge_sub_l; auto. }
    destruct (eval_ints_framed call E m idx ns ri m' H H3) as [I' _].
    { eapply agree_sub; eauto. intros l K. apply merge_sub_r; auto. }
    exists (mupd m' (lsingle (a, ns) v)). split; [|apply mequiv_refl].
    apply steps_one. apply ASSIGN.
    + rewrite <- (proj1 (eval_ints_subst_empty E m' idx)). auto.
    + rewrite <- (proj1 (eval_subst_empty call E m' e)). congruence.
    + apply D. rewrite lget_single. destruct loc_eq_dec; congruence.
  - destruct (eval_ints_framed call E m dims ns rdims m' H H0) as [I' _].
    { eapply agree_sub; eauto. intros l K. apply merge_sub_l; auto. }
    destruct (remark_4_2_2 call _ _ _ _ _ H1) as [Dd _].
    destruct (inalloc_run (csubst E c) m a ns Leaf d r IHbigstep Dd m') as [m1 [S1 E1]]; auto.
    { eapply agree_sub; eauto. intros l K. apply merge_sub_r; auto. }
    exists m1. split; auto. econstructor; [|exact S1]. apply ALLOCATE.
    rewrite <- (proj1 (eval_ints_subst_empty E m' dims)). auto.
  - (* c1 ∥ c2 is the parallel composition of [c1; c2] *)
    destruct (par_run [csubst E c1; csubst E c2] [d1; d2] [r1; r2] m m') as [m2 [S2 E2]]; auto.
    + intros [|[|i]] I; simpl in *; auto; lia.
    + intros [|[|i]] [|[|j]] I J N; simpl in *; try lia; auto.
    + intros l K. apply D. rewrite <- fold_two. auto.
    + intros l K. apply A. rewrite <- fold_two. auto.
    + exists m2. split; auto. eapply mequiv_trans; [exact E2|]. apply mupd_merge.
  - destruct (remark_4_2_2 call _ _ _ _ _ H) as [Dd _].
    apply (inalloc_run (csubst E c) m a dims s d r IHbigstep Dd m'); auto.
Qed.

(** Theorem 4.3.3 (existence): if E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ then ⟨c[E] | μ⟩ ⇝* ⟨skip | μ'⟩ for a μ' with
    the contents of μ ▷ δμ. *)
Theorem thm_4_3_3 : forall E m c d r, bigstep call E m c d r ->
  exists m', steps (csubst E c) m CSkip m' /\ mequiv m' (mupd m d).
Proof.
  intros E m c d r H. apply (lemma_4_3_4 E m c d r H m).
  - destruct (remark_4_2_2 call _ _ _ _ _ H) as [D _]. auto.
  - intros l _. auto.
Qed.

End Soundness.
