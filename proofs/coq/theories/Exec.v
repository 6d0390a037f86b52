(* An interpreter for the big-step semantics, proved to decide it:
     exec E μ c = Done δμ ρ  ⟺  E; μ ⊢ c ⇓ ⟨δμ; ρ⟩
   (exec_sound, exec_complete). It is structurally recursive (a loop of n iterations counts down a
   natural), so the relation is decidable, and it is what Coq's kernel runs to check an exported
   run (Run.v). Determinism of the big-step relation follows (bigstep_deterministic), and a run
   whose interpreter fails has no derivation at all (exec_fails).

   The interpreter checks U-PARLOOP's side conditions incrementally: iteration i against the union
   of the earlier iterations' reads and writes (par_checks_iff shows this is the pairwise condition
   of the rule). A failure carries the rule and location for diagnostics only: the relation has no
   notion of "the" error, a run error is the absence of a derivation (thesis §4.2). *)

From Coq Require Import ZArith List Bool Lia.
From Sched Require Import Maps Values Syntax Memory Eval BigStep.
Import ListNotations.

Inductive failure :=
| FNoValue                            (* an expression has no value (⊥): a read of ⊥ or outside
                                         dom(μ), or no rule applies (a type error) *)
| FOutOfBounds (a : ident) (ns : list Z)  (* U-ASSIGN: a[ns] ∉ dom(μ) *)
| FRaceRW (x : ident) (i : Z)         (* U-PARLOOP: dom(δμ_i) # ρ_j or dom(δμ_j) # ρ_i fails, j < i *)
| FRaceWW (x : ident) (i : Z)         (* U-PARLOOP: δμ_i ∘ δμ_j fails, j < i *)
| FRaceComp.                          (* U-PAR's side conditions fail *)

Inductive outcome := Done (d : lmap val) (r : locset) | Failed (f : failure).

Definition lfold {A} (l : list (lmap A)) : lmap A := fold_left lmerge l lempty.

Section Loops.
Variable run : env -> mem -> outcome.
Variables (E : env) (x : ident).

(** U-FOR: iteration i runs in the memory the earlier ones left. (The loop variable's value is
    counted in ℤ: Z.of_nat at every iteration would cost the iteration's number.) *)
Fixpoint for_loop (k : nat) (i : Z) (m : mem) (dacc : lmap val) (racc : locset) : outcome :=
  match k with
  | O => Done dacc racc
  | S k' =>
      match run (bindz x i E) m with
      | Done d r => for_loop k' (Z.succ i) (mupd m d) (lmerge dacc d) (lmerge racc r)
      | Failed f => Failed f
      end
  end.

(** U-PARLOOP: every iteration runs in μ; its effects are checked against the earlier ones'. *)
Fixpoint par_loop (m : mem) (k : nat) (i : Z) (dacc : lmap val) (racc : locset) : outcome :=
  match k with
  | O => Done dacc racc
  | S k' =>
      match run (bindz x i E) m with
      | Done d r =>
          if ldisjoint d racc && ldisjoint dacc r then
            if lagree val_eqb d dacc then par_loop m k' (Z.succ i) (lmerge dacc d) (lmerge racc r)
            else Failed (FRaceWW x i)
          else Failed (FRaceRW x i)
      | Failed f => Failed f
      end
  end.
End Loops.

Section Exec.
Variable call : fn -> list val -> option val.

Fixpoint exec (E : env) (m : mem) (c : cmd) : outcome :=
  match c with
  | CSkip => Done lempty lempty
  | CSeq c1 c2 =>
      match exec E m c1 with
      | Done d1 r1 =>
          match exec E (mupd m d1) c2 with
          | Done d2 r2 => Done (lmerge d1 d2) (lmerge r1 r2)
          | Failed f => Failed f
          end
      | Failed f => Failed f
      end
  | CIf e c1 c2 =>
      match eval call E m e, rd call E m e with
      | Some (VBool b), Some re =>
          match (if b then exec E m c1 else exec E m c2) with
          | Done d r => Done d (lmerge re r)
          | Failed f => Failed f
          end
      | _, _ => Failed FNoValue
      end
  | CLet x e c1 =>
      match eval call E m e, rd call E m e with
      | Some v, Some re =>
          match exec (set x v E) m c1 with
          | Done d r => Done d (lmerge re r)
          | Failed f => Failed f
          end
      | _, _ => Failed FNoValue
      end
  | CFor x e c1 =>
      match eval call E m e, rd call E m e with
      | Some (VZ n), Some re =>
          match for_loop (fun E' m' => exec E' m' c1) E x (Z.to_nat n) 0%Z m lempty lempty with
          | Done d r => Done d (lmerge re r)
          | Failed f => Failed f
          end
      | _, _ => Failed FNoValue
      end
  | CPar x e c1 =>
      match eval call E m e, rd call E m e with
      | Some (VZ n), Some re =>
          match par_loop (fun E' m' => exec E' m' c1) E x m (Z.to_nat n) 0%Z lempty lempty with
          | Done d r => Done d (lmerge re r)
          | Failed f => Failed f
          end
      | _, _ => Failed FNoValue
      end
  | CAssign a idx e =>
      match eval_ints call E m idx with
      | Some ns =>
          if in_domb m (a, ns) then
            match eval call E m e, rd call E m e, rds (rd call E m) idx with
            | Some v, Some re, Some ri => Done (lsingle (a, ns) v) (lmerge re ri)
            | _, _, _ => Failed FNoValue
            end
          else Failed (FOutOfBounds a ns)
      | None => Failed FNoValue
      end
  | CAlloc a dims c1 =>
      match eval_ints call E m dims, rds (rd call E m) dims with
      | Some ns, Some rdims =>
          match exec E (alloc m a ns) c1 with
          | Done d r => Done (lremove a d) (lmerge rdims (lremove a r))
          | Failed f => Failed f
          end
      | _, _ => Failed FNoValue
      end
  | CParComp c1 c2 =>
      match exec E m c1, exec E m c2 with
      | Done d1 r1, Done d2 r2 =>
          if ldisjoint d1 r2 && ldisjoint d2 r1 && lagree val_eqb d1 d2
          then Done (lmerge d1 d2) (lmerge r1 r2) else Failed FRaceComp
      | Failed f, _ => Failed f
      | _, Failed f => Failed f
      end
  | CInAlloc a dims s c1 =>
      match exec E (inject m a dims s) c1 with
      | Done d r => Done (lremove a d) (lremove a r)
      | Failed f => Failed f
      end
  end.

(* ------------------------------------------------------------------------------------------ *)
(** The sequential loop. *)

Section ForLoop.
Variable run : env -> mem -> outcome.
Variables (E : env) (x : ident).

Lemma for_loop_sound : forall k (i : Z) m dacc racc d r,
  for_loop run E x k i m dacc racc = Done d r ->
  exists ds rs, length ds = k /\ length rs = k /\
    d = fold_left lmerge ds dacc /\ r = fold_left lmerge rs racc /\
    forall j, (j < k)%nat ->
      run (bindz x (i + Z.of_nat j) E) (fold_left mupd (firstn j ds) m) = Done (nth j ds lempty) (nth j rs lempty).
Proof.
  induction k; simpl; intros i m dacc racc d r H.
  - inversion H; subst. exists [], []. repeat split; auto. intros; lia.
  - destruct (run (bindz x i E) m) as [d0 r0|f] eqn:R; try discriminate.
    destruct (IHk _ _ _ _ _ _ H) as [ds [rs [L1 [L2 [D [Rr F]]]]]].
    exists (d0 :: ds), (r0 :: rs). simpl. repeat split; auto.
    intros [|j] J; cbn [nth firstn fold_left].
    + rewrite Z.add_0_r. auto.
    + replace (i + Z.of_nat (S j))%Z with (Z.succ i + Z.of_nat j)%Z by lia. apply F. lia.
Qed.

Lemma for_loop_complete : forall ds rs (i : Z) m dacc racc,
  length rs = length ds ->
  (forall j, (j < length ds)%nat ->
     run (bindz x (i + Z.of_nat j) E) (fold_left mupd (firstn j ds) m) = Done (nth j ds lempty) (nth j rs lempty)) ->
  for_loop run E x (length ds) i m dacc racc = Done (fold_left lmerge ds dacc) (fold_left lmerge rs racc).
Proof.
  induction ds as [|d0 ds IH]; intros [|r0 rs] i m dacc racc L F; simpl in *; try discriminate; auto.
  pose proof (F 0%nat ltac:(lia)) as F0. simpl in F0. rewrite Z.add_0_r in F0. rewrite F0.
  apply IH; auto. intros j J. replace (Z.succ i + Z.of_nat j)%Z with (i + Z.of_nat (S j))%Z by lia.
  apply (F (S j)). lia.
Qed.

End ForLoop.

(* ------------------------------------------------------------------------------------------ *)
(** U-PARLOOP's side conditions, pairwise and incremental. *)

Definition pairwise (ds : list (lmap val)) (rs : list locset) : Prop :=
  forall i j, (i < length ds)%nat -> (j < length ds)%nat -> i <> j ->
    compat (nth i ds lempty) (nth j ds lempty) /\ disjoint_from (nth i ds lempty) (nth j rs lempty).

(** Under pairwise compatibility, the fold of ▷ holds every entry of every map (it is the union). *)
Lemma lget_fold_compat : forall ds (acc : lmap val) j l v,
  (forall i k, (i < length ds)%nat -> (k < length ds)%nat -> i <> k -> compat (nth i ds lempty) (nth k ds lempty)) ->
  (j < length ds)%nat -> lget l (nth j ds lempty) = Some v -> lget l (fold_left lmerge ds acc) = Some v.
Proof.
  intros ds acc j l v C. revert j. induction ds as [|d ds IH] using rev_ind; intros j J K.
  - simpl in J. lia.
  - rewrite fold_left_app. simpl. rewrite lget_merge. rewrite app_length in J. simpl in J.
    destruct (Nat.eq_dec j (length ds)) as [->|N].
    + rewrite app_nth2 in K by lia. rewrite Nat.sub_diag in K. simpl in K. rewrite K. auto.
    + rewrite app_nth1 in K by lia. destruct (lget l d) as [w|] eqn:Ed.
      * f_equal. symmetry.
        assert (CC : compat (nth j (ds ++ [d]) lempty) (nth (length ds) (ds ++ [d]) lempty))
          by (apply C; rewrite ?app_length; simpl; lia).
        apply (CC l).
        -- rewrite app_nth1 by lia. auto.
        -- rewrite app_nth2 by lia. rewrite Nat.sub_diag. simpl. auto.
      * apply IH with (j := j); auto; try lia. intros i k I1 I2 N'.
        pose proof (C i k) as Cik. rewrite !app_length in Cik. simpl in Cik.
        rewrite !app_nth1 in Cik by lia. apply Cik; lia.
Qed.

Lemma compat_sym : forall a b, compat a b -> compat b a.
Proof. intros a b H l v1 v2 H1 H2. symmetry. eapply H; eauto. Qed.

Lemma pairwise_nil : pairwise [] [].
Proof. intros i j I. simpl in I. lia. Qed.

Lemma pairwise_snoc : forall ds rs d r, length rs = length ds ->
  pairwise (ds ++ [d]) (rs ++ [r]) <->
  pairwise ds rs /\
  forall j, (j < length ds)%nat ->
    compat d (nth j ds lempty) /\ disjoint_from d (nth j rs lempty) /\ disjoint_from (nth j ds lempty) r.
Proof.
  intros ds rs d r L. unfold pairwise. rewrite app_length. simpl. split.
  - intros H. split.
    + intros i j I J N. specialize (H i j ltac:(lia) ltac:(lia) N).
      rewrite !app_nth1 in H by lia. auto.
    + intros j J. destruct (H (length ds) j ltac:(lia) ltac:(lia) ltac:(lia)) as [H1 H2].
      destruct (H j (length ds) ltac:(lia) ltac:(lia) ltac:(lia)) as [_ H3].
      rewrite app_nth2 in H1, H2 by lia. rewrite app_nth1 in H1, H3 by lia.
      rewrite app_nth1 in H2 by lia. rewrite (app_nth2 rs) in H3 by lia.
      rewrite Nat.sub_diag in *. rewrite <- L in H3. rewrite Nat.sub_diag in H3. simpl in *. auto.
  - intros [H1 H2] i j I J N.
    destruct (Nat.eq_dec i (length ds)) as [->|Ni]; destruct (Nat.eq_dec j (length ds)) as [->|Nj]; try lia.
    + rewrite app_nth2 by lia. rewrite Nat.sub_diag. rewrite !app_nth1 by lia. simpl.
      destruct (H2 j ltac:(lia)) as [A [B _]]. auto.
    + rewrite (app_nth1 ds) by lia. rewrite (app_nth2 ds) by lia. rewrite Nat.sub_diag.
      rewrite (app_nth2 rs) by lia. rewrite <- L, Nat.sub_diag. simpl.
      destruct (H2 i ltac:(lia)) as [A [_ C]]. split; auto. apply compat_sym; auto.
    + rewrite !app_nth1 by lia. apply H1; lia.
Qed.

Lemma pairwise_app_l : forall ds rs ds' rs', length rs = length ds ->
  pairwise (ds ++ ds') (rs ++ rs') -> pairwise ds rs.
Proof.
  intros ds rs ds' rs' L H i j I J N. specialize (H i j). rewrite app_length in H.
  rewrite !app_nth1 in H by lia. apply H; lia.
Qed.

(** The interpreter's check of iteration ⟨d; r⟩ against the earlier ones ⟨ds; rs⟩. *)
Definition par_check (ds : list (lmap val)) (rs : list locset) (d : lmap val) (r : locset) : bool :=
  (ldisjoint d (lfold rs) && ldisjoint (lfold ds) r) && lagree val_eqb d (lfold ds).

Lemma par_check_sound : forall ds rs d r,
  pairwise ds rs -> length rs = length ds -> par_check ds rs d r = true ->
  forall j, (j < length ds)%nat ->
    compat d (nth j ds lempty) /\ disjoint_from d (nth j rs lempty) /\ disjoint_from (nth j ds lempty) r.
Proof.
  intros ds rs d r P L H j J. unfold par_check in H.
  apply andb_true_iff in H as [H H3]. apply andb_true_iff in H as [H1 H2].
  split; [|split].
  - intros l v1 v2 K1 K2.
    assert (F : lget l (lfold ds) = Some v2).
    { unfold lfold. eapply lget_fold_compat; eauto. intros i k I Kk N. apply (P i k); auto. }
    apply val_eqb_eq. eapply lagree_spec; eauto.
  - intros l K1 K2. destruct (ldisjoint_spec _ _ H1 l) as [E|E]; try congruence.
    unfold lfold in E. apply lget_fold_none in E as [_ E]. apply K2, E. unfold locset in *. lia.
  - intros l K1 K2. destruct (ldisjoint_spec _ _ H2 l) as [E|E]; try congruence.
    unfold lfold in E. apply lget_fold_none in E as [_ E]. apply K1, E. lia.
Qed.

Lemma par_check_complete : forall ds rs d r,
  pairwise ds rs -> length rs = length ds -> wf d -> Forall wf ds ->
  (forall j, (j < length ds)%nat ->
    compat d (nth j ds lempty) /\ disjoint_from d (nth j rs lempty) /\ disjoint_from (nth j ds lempty) r) ->
  par_check ds rs d r = true.
Proof.
  intros ds rs d r P L Wd Wds H. unfold locset in *. unfold par_check. apply andb_true_iff; split; [apply andb_true_iff; split|].
  - apply ldisjoint_complete; auto. intros l. destruct (lget l d) eqn:K; auto. right.
    unfold lfold. apply lget_fold_none. split. apply lget_empty.
    intros j J. destruct (lget l (nth j rs lempty)) eqn:K'; auto. exfalso.
    destruct (H j ltac:(lia)) as [_ [D _]]. apply (D l); congruence.
  - apply ldisjoint_complete. apply wf_fold_merge; auto. apply wf_empty.
    intros l. destruct (lget l r) eqn:K; auto. left.
    unfold lfold. apply lget_fold_none. split. apply lget_empty.
    intros j J. destruct (lget l (nth j ds lempty)) eqn:K'; auto. exfalso.
    destruct (H j J) as [_ [_ D]]. apply (D l); congruence.
  - apply lagree_complete; auto. intros l v1 v2 K1 K2.
    destruct (lget_fold_some _ _ _ _ K2) as [E|[j [J E]]].
    + rewrite lget_empty in E. discriminate.
    + destruct (H j J) as [C _]. rewrite (C l v1 v2 K1 E). apply val_eqb_refl.
Qed.

Section ParLoop.
Variable run : env -> mem -> outcome.
Variables (E : env) (x : ident) (m : mem).

Lemma par_loop_sound : forall k (i : Z) pre rpre d r,
  length rpre = length pre -> pairwise pre rpre ->
  par_loop run E x m k i (lfold pre) (lfold rpre) = Done d r ->
  exists ds rs, length ds = k /\ length rs = k /\
    d = lfold (pre ++ ds) /\ r = lfold (rpre ++ rs) /\ pairwise (pre ++ ds) (rpre ++ rs) /\
    forall j, (j < k)%nat -> run (bindz x (i + Z.of_nat j) E) m = Done (nth j ds lempty) (nth j rs lempty).
Proof.
  induction k; simpl; intros i pre rpre d r L P H.
  - inversion H; subst. exists [], []. rewrite !app_nil_r.
    do 5 (split; [solve [auto]|]). intros; lia.
  - destruct (run (bindz x i E) m) as [d0 r0|f] eqn:R; try discriminate.
    destruct (ldisjoint d0 (lfold rpre) && ldisjoint (lfold pre) r0) eqn:C1; try discriminate.
    destruct (lagree val_eqb d0 (lfold pre)) eqn:C2; try discriminate.
    assert (C : par_check pre rpre d0 r0 = true) by (unfold par_check; rewrite C1, C2; auto).
    assert (P' : pairwise (pre ++ [d0]) (rpre ++ [r0])).
    { apply pairwise_snoc; auto. split; auto. apply par_check_sound; auto. }
    assert (E1 : lmerge (lfold pre) d0 = lfold (pre ++ [d0])) by (unfold lfold; rewrite fold_left_app; auto).
    assert (E2 : lmerge (lfold rpre) r0 = lfold (rpre ++ [r0])) by (unfold lfold; rewrite fold_left_app; auto).
    rewrite E1, E2 in H.
    assert (L' : length (rpre ++ [r0]) = length (pre ++ [d0])) by (rewrite !app_length; simpl; lia).
    destruct (IHk (Z.succ i) _ _ _ _ L' P' H)
      as [ds [rs [L1 [L2 [D [Rr [P2 F]]]]]]].
    exists (d0 :: ds), (r0 :: rs).
    rewrite <- !app_assoc in D. rewrite <- !app_assoc in Rr. rewrite <- !app_assoc in P2.
    simpl in D, Rr, P2.
    split; [simpl; lia|]. split; [simpl; lia|]. split; [auto|]. split; [auto|]. split; [auto|].
    intros [|j] J; cbn [nth firstn fold_left].
    + rewrite Z.add_0_r. auto.
    + replace (i + Z.of_nat (S j))%Z with (Z.succ i + Z.of_nat j)%Z by lia. apply F. lia.
Qed.

Lemma par_loop_complete : forall ds rs (i : Z) pre rpre,
  length rs = length ds -> length rpre = length pre ->
  pairwise (pre ++ ds) (rpre ++ rs) -> Forall wf (pre ++ ds) ->
  (forall j, (j < length ds)%nat -> run (bindz x (i + Z.of_nat j) E) m = Done (nth j ds lempty) (nth j rs lempty)) ->
  par_loop run E x m (length ds) i (lfold pre) (lfold rpre) = Done (lfold (pre ++ ds)) (lfold (rpre ++ rs)).
Proof.
  induction ds as [|d0 ds IH]; intros [|r0 rs] i pre rpre L Lp P W F; simpl in *; try discriminate.
  - rewrite !app_nil_r. auto.
  - pose proof (F 0%nat ltac:(lia)) as F0. rewrite Z.add_0_r in F0. simpl in F0. rewrite F0.
    assert (P1 : pairwise (pre ++ [d0]) (rpre ++ [r0])).
    { apply (pairwise_app_l _ _ ds rs); [rewrite !app_length; simpl; lia|].
      rewrite <- !app_assoc. exact P. }
    apply pairwise_snoc in P1 as [P0 S0]; auto.
    rewrite Forall_app in W. destruct W as [Wp W]. inversion W; subst.
    assert (C : par_check pre rpre d0 r0 = true) by (apply par_check_complete; auto).
    unfold par_check in C. apply andb_true_iff in C as [C1 C2]. rewrite C1, C2.
    assert (E1 : lmerge (lfold pre) d0 = lfold (pre ++ [d0])) by (unfold lfold; rewrite fold_left_app; auto).
    assert (E2 : lmerge (lfold rpre) r0 = lfold (rpre ++ [r0])) by (unfold lfold; rewrite fold_left_app; auto).
    rewrite E1, E2. replace (pre ++ d0 :: ds) with ((pre ++ [d0]) ++ ds) by (rewrite <- app_assoc; auto).
    replace (rpre ++ r0 :: rs) with ((rpre ++ [r0]) ++ rs) by (rewrite <- app_assoc; auto).
    apply IH; auto.
    + rewrite !app_length. simpl. lia.
    + rewrite <- !app_assoc. auto.
    + rewrite <- app_assoc. apply Forall_app. split; auto.
    + intros j J. replace (Z.succ i + Z.of_nat j)%Z with (i + Z.of_nat (S j))%Z by lia. apply (F (S j)). lia.
Qed.

End ParLoop.

(* ------------------------------------------------------------------------------------------ *)
(** The interpreter decides the relation. *)

Lemma nth_lt_length : forall {A} (l : list A) n, length l = n -> forall i, (i < n)%nat -> (i < length l)%nat.
Proof. intros; lia. Qed.

Theorem exec_sound : forall c E m d r, exec E m c = Done d r -> bigstep call E m c d r.
Proof.
  induction c; simpl; intros E m d r H.
  - inversion H; subst. constructor.
  - destruct (exec E m c1) as [d1 r1|] eqn:H1; try discriminate.
    destruct (exec E (mupd m d1) c2) as [d2 r2|] eqn:H2; try discriminate.
    inversion H; subst. econstructor; eauto.
  - destruct (eval_ints call E m idx) as [ns|] eqn:Hi; try discriminate.
    destruct (in_domb m (a, ns)) eqn:Hd; try discriminate.
    destruct (eval call E m e) as [v|] eqn:Hv; try discriminate.
    destruct (rd call E m e) as [re|] eqn:Hr; try discriminate.
    destruct (rds (rd call E m) idx) as [ri|] eqn:Hri; try discriminate.
    inversion H; subst. econstructor; eauto. apply in_domb_spec; auto.
  - destruct (eval call E m e) as [[| [] | | |]|] eqn:He; try discriminate;
    destruct (rd call E m e) as [re|] eqn:Hr; try discriminate.
    + destruct (exec E m c1) as [d1 r1|] eqn:H1; try discriminate. inversion H; subst.
      eapply U_IF_TRUE; eauto.
    + destruct (exec E m c2) as [d1 r1|] eqn:H1; try discriminate. inversion H; subst.
      eapply U_IF_FALSE; eauto.
  - destruct (eval call E m e) as [v|] eqn:He; try discriminate;
    destruct (rd call E m e) as [re|] eqn:Hr; try discriminate.
    destruct (exec (set x v E) m c) as [d1 r1|] eqn:H1; try discriminate. inversion H; subst.
    econstructor; eauto.
  - destruct (eval_ints call E m dims) as [ns|] eqn:Hi; try discriminate.
    destruct (rds (rd call E m) dims) as [rdims|] eqn:Hr; try discriminate.
    destruct (exec E (alloc m a ns) c) as [d1 r1|] eqn:H1; try discriminate. inversion H; subst.
    econstructor; eauto.
  - destruct (eval call E m e) as [[n| | | |]|] eqn:He; try discriminate;
    destruct (rd call E m e) as [re|] eqn:Hr; try discriminate.
    destruct (for_loop _ _ _ _ _ _ _ _) as [d1 r1|] eqn:HL; try discriminate. inversion H; subst.
    destruct (for_loop_sound _ _ _ _ _ _ _ _ _ _ HL) as [ds [rs [L1 [L2 [D [R F]]]]]]. subst.
    eapply U_FOR; eauto.
  - destruct (eval call E m e) as [[n| | | |]|] eqn:He; try discriminate;
    destruct (rd call E m e) as [re|] eqn:Hr; try discriminate.
    destruct (par_loop _ _ _ _ _ _ _ _) as [d1 r1|] eqn:HL; try discriminate. inversion H; subst.
    destruct (par_loop_sound _ _ _ _ _ _ [] [] _ _ eq_refl pairwise_nil HL)
      as [ds [rs [L1 [L2 [D [R [P F]]]]]]]. simpl in *. subst.
    eapply U_PARLOOP; eauto.
    + intros i j I J N. apply (P i j); auto; lia.
    + intros i j I J N. apply (P i j); auto; lia.
  - destruct (exec E m c1) as [d1 r1|] eqn:H1; destruct (exec E m c2) as [d2 r2|] eqn:H2; try discriminate.
    destruct (ldisjoint d1 r2 && ldisjoint d2 r1 && lagree val_eqb d1 d2) eqn:C; try discriminate.
    inversion H; subst. apply andb_true_iff in C as [C C3]. apply andb_true_iff in C as [C1 C2].
    apply U_PAR; auto.
    + intros l v1 v2 K1 K2. apply val_eqb_eq. eapply lagree_spec; eauto.
    + intros l K1 K2. destruct (ldisjoint_spec _ _ C1 l); auto.
    + intros l K1 K2. destruct (ldisjoint_spec _ _ C2 l); auto.
  - destruct (exec E (inject m a dims s) c) as [d1 r1|] eqn:H1; try discriminate. inversion H; subst.
    constructor; auto.
Qed.

Theorem exec_complete : forall E m c d r, bigstep call E m c d r -> exec E m c = Done d r.
Proof.
  induction 1; simpl.
  - auto.
  - rewrite IHbigstep1, IHbigstep2. auto.
  - rewrite H, H0, IHbigstep. auto.
  - rewrite H, H0, IHbigstep. auto.
  - rewrite H, H0, IHbigstep. auto.
  - rewrite H, H0. rewrite <- H1.
    rewrite (for_loop_complete (fun E' m' => exec E' m' c) E x ds rs 0%Z m lempty lempty); auto.
    + congruence.
    + intros j J. simpl. apply H4. lia.
  - rewrite H, H0. rewrite <- H1.
    assert (Wds : Forall wf ds).
    { apply (wf_fold_nth ds (Z.to_nat n) H1). intros i I. apply (bigstep_wf call _ _ _ _ _ (H3 i I)). }
    pose proof (par_loop_complete (fun E' m' => exec E' m' c) E x m ds rs 0%Z [] [] (eq_trans H2 (eq_sym H1)) eq_refl)
      as PL. unfold lfold in PL. simpl in PL. rewrite PL; auto.
    + intros i j I J N. rewrite H1 in I, J. split; auto.
    + intros j J. apply H4. lia.
  - rewrite H. apply in_domb_spec in H0. rewrite H0, H1, H2, H3. auto.
  - rewrite H, H0, IHbigstep. auto.
  - rewrite IHbigstep1, IHbigstep2.
    destruct (bigstep_wf call _ _ _ _ _ H) as [W1 _]. destruct (bigstep_wf call _ _ _ _ _ H0) as [W2 _].
    rewrite (ldisjoint_complete d1 r2 W1), (ldisjoint_complete d2 r1 W2), (lagree_complete val_eqb d1 d2 W1); auto.
    + intros l v1 v2 K1 K2. rewrite (H1 l v1 v2 K1 K2). apply val_eqb_refl.
    + intros l. destruct (lget l d2) eqn:K; auto. right. destruct (lget l r1) eqn:K'; auto. exfalso. apply (H3 l); congruence.
    + intros l. destruct (lget l d1) eqn:K; auto. right. destruct (lget l r2) eqn:K'; auto. exfalso. apply (H2 l); congruence.
  - rewrite IHbigstep. auto.
Qed.

(** Determinism of the big-step relation: a derivation's ⟨δμ; ρ⟩, hence its final memory μ ▷ δμ,
    is unique. *)
Theorem bigstep_deterministic : forall E m c d r d' r',
  bigstep call E m c d r -> bigstep call E m c d' r' -> d = d' /\ r = r'.
Proof.
  intros E m c d r d' r' H H'. apply exec_complete in H. apply exec_complete in H'.
  rewrite H in H'. inversion H'. auto.
Qed.

(** A run whose interpreter fails has no derivation. *)
Theorem exec_fails : forall E m c f, exec E m c = Failed f -> forall d r, ~ bigstep call E m c d r.
Proof.
  intros E m c f H d r B. apply exec_complete in B. congruence.
Qed.

Theorem bigstep_decidable : forall E m c, (exists d r, bigstep call E m c d r) \/ (forall d r, ~ bigstep call E m c d r).
Proof.
  intros E m c. destruct (exec E m c) as [d r|f] eqn:H.
  - left. exists d, r. apply exec_sound; auto.
  - right. eapply exec_fails; eauto.
Qed.

End Exec.
