(* The small-step interleaving semantics ⟨c | μ⟩ ⇝ ⟨c' | μ'⟩ of thesis Fig. 4.6, and its relation
   to the big-step semantics: Lemma 4.3.1 (a step keeps the memory's domain), and closure under
   memories with the same contents.

   Differences with the figure:
   - Terms are closed by substitution (Subst.v) and evaluated in the empty environment, as in the
     figure; the parallel composition and the inalloc block are commands (Syntax.v).
   - ALLOCATE needs no fresh name: INALLOC-CTX runs its premise in (μ ∖ a) ▷ μ_a and puts μ's own
     a back afterwards ([restore]), so a local array may shadow one of the same name, in another
     thread too (the figure requires a ∉ arrays(μ) and relies on renaming).
   - The local cells μ'_a kept by INALLOC-CTX are any representation of the a-cells the premise
     leaves (the memory's cells are a trie, compared by contents, [cells_equiv]).
   - A loop with n ≤ 0 iterations steps to skip; a loop of one iteration to its body. *)

From Coq Require Import ZArith List Bool Lia.
From Sched Require Import Maps Values Syntax Memory Eval BigStep Framing Exec Subst.
Import ListNotations.

(** c1; (c2; (…; cn)) and c1 ∥ (c2 ∥ (… ∥ cn)), skip when empty. *)
Fixpoint seq_of (cs : list cmd) : cmd :=
  match cs with [] => CSkip | [c] => c | c :: cs' => CSeq c (seq_of cs') end.

Fixpoint par_of (cs : list cmd) : cmd :=
  match cs with [] => CSkip | [c] => c | c :: cs' => CParComp c (par_of cs') end.

(** c[x ← i] for i = k, …, k + n − 1. *)
Definition unroll_from (x : ident) (c : cmd) (k n : nat) : list cmd :=
  map (fun i => csubst (bind x i Leaf) c) (seq k n).

Definition unroll (x : ident) (c : cmd) (n : Z) : list cmd := unroll_from x c 0 (Z.to_nat n).

(** The memory M with the slot of array a (its shape and cells) taken from m. *)
Definition restore (M : mem) (a : ident) (m : mem) : mem :=
  Mem (match get a (shapes m) with Some dm => set a dm (shapes M) | None => remove a (shapes M) end)
      (set a (sub a (cells m)) (cells M)).

(** Two tries of cells of a box with the same contents. *)
Definition cells_equiv (dims : list Z) (s s' : trie val) : Prop :=
  forall i, in_box i dims = true -> get (enc i) s = get (enc i) s'.

Section SmallStep.
Variable call : fn -> list val -> option val.

Inductive step : cmd -> mem -> cmd -> mem -> Prop :=
| SEQ_CTX : forall c1 c2 m c1' m', step c1 m c1' m' -> step (CSeq c1 c2) m (CSeq c1' c2) m'
| SEQ_SKIP : forall c m, step (CSeq CSkip c) m c m
| PAR_L : forall c1 c2 m c1' m', step c1 m c1' m' -> step (CParComp c1 c2) m (CParComp c1' c2) m'
| PAR_R : forall c1 c2 m c2' m', step c2 m c2' m' -> step (CParComp c1 c2) m (CParComp c1 c2') m'
| PAR_SKIP_L : forall c m, step (CParComp CSkip c) m c m
| PAR_SKIP_R : forall c m, step (CParComp c CSkip) m c m
| IF_TRUE : forall e c1 c2 m, eval call Leaf m e = Some (VBool true) -> step (CIf e c1 c2) m c1 m
| IF_FALSE : forall e c1 c2 m, eval call Leaf m e = Some (VBool false) -> step (CIf e c1 c2) m c2 m
| LET : forall x e c v m, eval call Leaf m e = Some v -> step (CLet x e c) m (csubst (set x v Leaf) c) m
| SEQLOOP : forall x e c n m, eval call Leaf m e = Some (VZ n) -> step (CFor x e c) m (seq_of (unroll x c n)) m
| PARLOOP : forall x e c n m, eval call Leaf m e = Some (VZ n) -> step (CPar x e c) m (par_of (unroll x c n)) m
| ASSIGN : forall a idx e ns v m,
    eval_ints call Leaf m idx = Some ns -> eval call Leaf m e = Some v -> in_dom m (a, ns) ->
    step (CAssign a idx e) m CSkip (mupd m (lsingle (a, ns) v))
| ALLOCATE : forall a dims c ns m,
    eval_ints call Leaf m dims = Some ns -> step (CAlloc a dims c) m (CInAlloc a ns Leaf c) m
| INALLOC_CTX : forall a dims s c m c' M s',
    step c (inject m a dims s) c' M -> cells_equiv dims s' (sub a (cells M)) ->
    step (CInAlloc a dims s c) m (CInAlloc a dims s' c') (restore M a m)
| INALLOC_SKIP : forall a dims s m, step (CInAlloc a dims s CSkip) m CSkip m.

(** ⇝* *)
Inductive steps : cmd -> mem -> cmd -> mem -> Prop :=
| steps_refl : forall c m, steps c m c m
| steps_step : forall c m c1 m1 c2 m2, step c m c1 m1 -> steps c1 m1 c2 m2 -> steps c m c2 m2.

Lemma steps_trans : forall c m c1 m1 c2 m2, steps c m c1 m1 -> steps c1 m1 c2 m2 -> steps c m c2 m2.
Proof. induction 1; intros; auto. econstructor; eauto. Qed.

Lemma steps_one : forall c m c' m', step c m c' m' -> steps c m c' m'.
Proof. intros. econstructor; eauto. constructor. Qed.

(* ------------------------------------------------------------------------------------------ *)
(** Lemma 4.3.1: a step keeps the shapes of the arrays, hence the memory's domain. *)

Definition same_shapes (m m' : mem) : Prop := forall a, get a (shapes m') = get a (shapes m).

Lemma mget_restore : forall M a m l,
  mget (restore M a m) l = if Pos.eqb (fst l) a then mget m l else mget M l.
Proof.
  intros M a m l. unfold mget, restore, lget; simpl.
  destruct (get a (shapes m)) as [dm|] eqn:Ea.
  - rewrite gsspec. unfold sub at 1. rewrite gsspec. destruct (Pos.eqb_spec (fst l) a); subst.
    + rewrite Ea. auto.
    + auto.
  - rewrite grspec. unfold sub at 1. rewrite gsspec. destruct (Pos.eqb_spec (fst l) a); subst.
    + rewrite Ea. auto.
    + auto.
Qed.

Lemma shapes_restore : forall M a m b,
  get b (shapes (restore M a m)) = if Pos.eqb b a then get a (shapes m) else get b (shapes M).
Proof.
  intros M a m b. unfold restore; simpl. destruct (get a (shapes m)) eqn:Ea.
  - rewrite gsspec. destruct (Pos.eqb b a); auto.
  - rewrite grspec. destruct (Pos.eqb b a); auto.
Qed.

Lemma lemma_4_3_1 : forall c m c' m', step c m c' m' -> same_shapes m m'.
Proof.
  induction 1; intros b; auto.
  rewrite shapes_restore. destruct (Pos.eqb_spec b a); subst; auto.
  rewrite (IHstep b). unfold inject; simpl. rewrite gsspec. apply Pos.eqb_neq in n. rewrite n. auto.
Qed.

Lemma in_dom_shapes : forall m m', same_shapes m m' -> forall l', mget m' l' = None <-> mget m l' = None.
Proof.
  intros m m' S l'. unfold mget. rewrite (S (fst l')).
  destruct (get (fst l') (shapes m)) as [dims|]; [destruct (in_box (snd l') dims)|]; split; congruence.
Qed.

Lemma same_shapes_steps : forall c m c' m', steps c m c' m' -> same_shapes m m'.
Proof.
  induction 1; intros b; auto. rewrite IHsteps. apply (lemma_4_3_1 _ _ _ _ H).
Qed.

Lemma in_dom_steps : forall c m c' m', steps c m c' m' -> forall l, in_dom m' l <-> in_dom m l.
Proof.
  intros c m c' m' H l. pose proof (same_shapes_steps _ _ _ _ H) as S. unfold in_dom.
  rewrite (in_dom_shapes m m' S l). tauto.
Qed.

Lemma in_dom_step : forall c m c' m', step c m c' m' -> forall l, in_dom m' l <-> in_dom m l.
Proof. intros c m c' m' H. apply (in_dom_steps c m c' m'). econstructor; [exact H | constructor]. Qed.

(* ------------------------------------------------------------------------------------------ *)
(** Memories with the same contents are interchangeable. *)

Lemma mequiv_refl : forall m, mequiv m m.
Proof. intros m l. auto. Qed.
Lemma mequiv_sym : forall m n, mequiv m n -> mequiv n m.
Proof. intros m n H l. auto. Qed.
Lemma mequiv_trans : forall m n p, mequiv m n -> mequiv n p -> mequiv m p.
Proof. intros m n p H K l. rewrite H. auto. Qed.

Lemma mequiv_upd : forall m n d, mequiv m n -> mequiv (mupd m d) (mupd n d).
Proof. intros m n d H l. rewrite !mget_upd, H. auto. Qed.

Lemma mequiv_inject : forall m n a dims s, mequiv m n -> mequiv (inject m a dims s) (inject n a dims s).
Proof. intros m n a dims s H l. rewrite !mget_inject, H. auto. Qed.

Lemma mequiv_restore : forall M N a m n, mequiv M N -> mequiv m n -> mequiv (restore M a m) (restore N a n).
Proof. intros M N a m n H K l. rewrite !mget_restore, H, K. auto. Qed.

Lemma inject_cells_equiv : forall m a dims s s', cells_equiv dims s s' -> mequiv (inject m a dims s) (inject m a dims s').
Proof.
  intros m a dims s s' H l. rewrite !mget_inject. destruct (Pos.eqb (fst l) a); auto.
  destruct (in_box (snd l) dims) eqn:B; auto. rewrite H; auto.
Qed.

Lemma eval_mequiv : forall e E m n, mequiv m n -> eval call E m e = eval call E n e /\ rd call E m e = rd call E n e.
Proof.
  intros e E m n H. destruct (rd call E m e) as [r|] eqn:R.
  - destruct (thm_4_2_2 call e E m r R n) as [R' V']; [intros l _; apply H|]. rewrite R', V'. auto.
  - (* No read set: compare through the other memory. *)
    destruct (rd call E n e) as [r|] eqn:R'.
    + destruct (thm_4_2_2 call e E n r R' m) as [R'' V']; [intros l _; symmetry; apply H|]. congruence.
    + split; auto. destruct (eval call E m e) eqn:V.
      * destruct (lemma_4_2_1 call e E m v V) as [r [Rr _]]. congruence.
      * destruct (eval call E n e) eqn:V'; auto.
        destruct (lemma_4_2_1 call e E n v V') as [r [Rr _]]. congruence.
Qed.

Lemma eval_ints_mequiv : forall l E m n, mequiv m n -> eval_ints call E m l = eval_ints call E n l.
Proof.
  intros l E m n H. unfold eval_ints. rewrite (evals_ext (eval call E m) (eval call E n)); auto.
  apply Forall_forall. intros e _. apply eval_mequiv; auto.
Qed.

Lemma bigstep_mequiv : forall E m c d r n, bigstep call E m c d r -> mequiv m n -> bigstep call E n c d r.
Proof.
  intros E m c d r n B H. eapply lemma_4_2_4; eauto.
  - intros l K. destruct (remark_4_2_2 call _ _ _ _ _ B) as [D _]. specialize (D l K). unfold in_dom in *. rewrite <- H. auto.
  - intros l _. apply H.
Qed.

Lemma cells_of_mequiv : forall M N a dims, mequiv M N -> get a (shapes M) = Some dims ->
  get a (shapes N) = get a (shapes M) -> cells_equiv dims (sub a (cells M)) (sub a (cells N)).
Proof.
  intros M N a dims H SM SN i B. specialize (H (a, i)). unfold mget, lget in H; simpl in H.
  rewrite SN, SM, B in H. congruence.
Qed.

(** A step from a memory with the same contents (and the same shapes): the same term, and again
    the same contents. *)
Lemma step_mequiv : forall c m c' m', step c m c' m' -> forall n, mequiv m n -> same_shapes m n ->
  exists n', step c n c' n' /\ mequiv m' n' /\ same_shapes m' n'.
Proof.
  induction 1; intros p Hn Sn.
  all: try (eexists; split; [econstructor; eauto; fail|split; auto]; fail).
  - destruct (IHstep p Hn Sn) as [n' [S1 [E1 S1']]]. exists n'. split; auto. constructor; auto.
  - destruct (IHstep p Hn Sn) as [n' [S1 [E1 S1']]]. exists n'. split; auto. constructor; auto.
  - destruct (IHstep p Hn Sn) as [n' [S1 [E1 S1']]]. exists n'. split; auto. constructor; auto.
  - exists p. split; auto. constructor. rewrite <- (proj1 (eval_mequiv e Leaf m p Hn)). auto.
  - exists p. split; auto. constructor. rewrite <- (proj1 (eval_mequiv e Leaf m p Hn)). auto.
  - exists p. split; auto. constructor. rewrite <- (proj1 (eval_mequiv e Leaf m p Hn)). auto.
  - exists p. split; auto. constructor. rewrite <- (proj1 (eval_mequiv e Leaf m p Hn)). auto.
  - exists p. split; auto. constructor. rewrite <- (proj1 (eval_mequiv e Leaf m p Hn)). auto.
  - exists (mupd p (lsingle (a, ns) v)). split; [|split].
    + constructor.
      * rewrite <- (eval_ints_mequiv idx Leaf m p Hn). auto.
      * rewrite <- (proj1 (eval_mequiv e Leaf m p Hn)). auto.
      * unfold in_dom in *. rewrite <- Hn. auto.
    + apply mequiv_upd. auto.
    + intros b. simpl. apply Sn.
  - exists p. split; auto. constructor. rewrite <- (eval_ints_mequiv dims Leaf m p Hn). auto.
  - destruct (IHstep (inject p a dims s)) as [N [S1 [E1 S1']]].
    + apply mequiv_inject; auto.
    + intros b. unfold inject; simpl. rewrite !gsspec. destruct (Pos.eqb b a); auto.
    + exists (restore N a p). split; [|split].
      * apply INALLOC_CTX; auto. intros i B. rewrite H0; auto.
        apply (cells_of_mequiv M N a dims E1); auto.
        rewrite (lemma_4_3_1 _ _ _ _ H a). unfold inject; simpl. rewrite gsspec, Pos.eqb_refl. auto.
      * apply mequiv_restore; auto.
      * intros b. rewrite !shapes_restore. destruct (Pos.eqb b a); auto.
Qed.

Lemma steps_mequiv : forall c m c' m', steps c m c' m' -> forall n, mequiv m n -> same_shapes m n ->
  exists n', steps c n c' n' /\ mequiv m' n' /\ same_shapes m' n'.
Proof.
  induction 1; intros n Hn Sn.
  - exists n. split; auto. constructor.
  - destruct (step_mequiv _ _ _ _ H n Hn Sn) as [n1 [S1 [E1 S1']]].
    destruct (IHsteps n1 E1 S1') as [n2 [S2 [E2 S2']]]. exists n2. split; auto. econstructor; eauto.
Qed.

End SmallStep.
