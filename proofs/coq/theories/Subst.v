(* Substitution of values for variables, e[E] and c[E], and Lemma 4.3.2: evaluating under E and
   E' is evaluating the substituted term under E'. The values substituted are closed (constants),
   so substitution cannot capture; under a binder x it stops substituting x. *)

From Coq Require Import ZArith List Bool Lia.
From Sched Require Import Maps Values Syntax Memory Eval BigStep Exec.
Import ListNotations.

Fixpoint subst (E : env) (e : expr) : expr :=
  match e with
  | EVar x => match get x E with Some v => EConst v | None => EVar x end
  | EConst v => EConst v
  | EArr a idx => EArr a (map (subst E) idx)
  | ELet x e1 e2 => ELet x (subst E e1) (subst (remove x E) e2)
  | EIdx op e1 e2 => EIdx op (subst E e1) (subst E e2)
  | ECmp c e1 e2 => ECmp c (subst E e1) (subst E e2)
  | EAnd e1 e2 => EAnd (subst E e1) (subst E e2)
  | EOr e1 e2 => EOr (subst E e1) (subst E e2)
  | ENot e1 => ENot (subst E e1)
  | ESelect c e1 e2 => ESelect (subst E c) (subst E e1) (subst E e2)
  | ECall f args => ECall f (map (subst E) args)
  end.

Fixpoint csubst (E : env) (c : cmd) : cmd :=
  match c with
  | CSkip => CSkip
  | CSeq c1 c2 => CSeq (csubst E c1) (csubst E c2)
  | CAssign a idx e => CAssign a (map (subst E) idx) (subst E e)
  | CIf e c1 c2 => CIf (subst E e) (csubst E c1) (csubst E c2)
  | CLet x e c1 => CLet x (subst E e) (csubst (remove x E) c1)
  | CAlloc a dims c1 => CAlloc a (map (subst E) dims) (csubst E c1)
  | CFor x e c1 => CFor x (subst E e) (csubst (remove x E) c1)
  | CPar x e c1 => CPar x (subst E e) (csubst (remove x E) c1)
  | CParComp c1 c2 => CParComp (csubst E c1) (csubst E c2)
  | CInAlloc a dims s c1 => CInAlloc a dims s (csubst E c1)
  end.

(** Environments with the same bindings. *)
Definition eequiv (E E' : env) : Prop := forall x, get x E = get x E'.

Lemma eequiv_refl : forall E, eequiv E E.
Proof. intros E x. reflexivity. Qed.

Lemma eequiv_remove : forall x E E', eequiv E E' -> eequiv (remove x E) (remove x E').
Proof. intros x E E' H y. rewrite !grspec. destruct (Pos.eqb y x); auto. Qed.

Lemma eequiv_set : forall x v E E', eequiv E E' -> eequiv (set x v E) (set x v E').
Proof. intros x v E E' H y. rewrite !gsspec. destruct (Pos.eqb y x); auto. Qed.

Lemma subst_ext : forall e E E', eequiv E E' -> subst E e = subst E' e.
Proof.
  induction e using expr_ind'; intros E E' H0; simpl; try (f_equal; auto using eequiv_remove; fail).
  - rewrite H0. auto.
  - f_equal. apply map_ext_in. intros y I. rewrite Forall_forall in H. apply H; auto.
  - f_equal. apply map_ext_in. intros y I. rewrite Forall_forall in H. apply H; auto.
Qed.

Lemma csubst_ext : forall c E E', eequiv E E' -> csubst E c = csubst E' c.
Proof.
  induction c; intros E E' H; simpl; f_equal; auto using subst_ext, eequiv_remove;
    apply map_ext; intros; apply subst_ext; auto.
Qed.

Section Eval.
Variable call : fn -> list val -> option val.

Lemma eval_env_ext : forall e E E' m, eequiv E E' -> eval call E m e = eval call E' m e /\ rd call E m e = rd call E' m e.
Proof.
  induction e using expr_ind'; intros E E' m H0; simpl.
  - rewrite H0. auto.
  - auto.
  - assert (F : Forall (fun e => eval call E m e = eval call E' m e /\ rd call E m e = rd call E' m e) idx).
    { eapply Forall_impl; [|exact H]. intros; auto. }
    rewrite (evals_ext (eval call E m) (eval call E' m)), (rds_ext (rd call E m) (rd call E' m));
      auto; eapply Forall_impl; try exact F; intros ? []; auto.
  - destruct (IHe1 E E' m H0) as [V1 R1]. rewrite V1, R1.
    destruct (eval call E' m e1); auto. destruct (IHe2 (set x v E) (set x v E') m (eequiv_set _ _ _ _ H0)) as [V2 R2].
    rewrite V2, R2. auto.
  - destruct (IHe1 E E' m H0), (IHe2 E E' m H0). rewrite H, H1, H2, H3. auto.
  - destruct (IHe1 E E' m H0), (IHe2 E E' m H0). rewrite H, H1, H2, H3. auto.
  - destruct (IHe1 E E' m H0), (IHe2 E E' m H0). rewrite H, H1, H2, H3. auto.
  - destruct (IHe1 E E' m H0), (IHe2 E E' m H0). rewrite H, H1, H2, H3. auto.
  - destruct (IHe E E' m H0). rewrite H, H1. auto.
  - destruct (IHe1 E E' m H0), (IHe2 E E' m H0), (IHe3 E E' m H0). rewrite H, H1, H2, H3, H4, H5. auto.
  - assert (F : Forall (fun e => eval call E m e = eval call E' m e /\ rd call E m e = rd call E' m e) args).
    { eapply Forall_impl; [|exact H]. intros; auto. }
    rewrite (evals_ext (eval call E m) (eval call E' m)), (rds_ext (rd call E m) (rd call E' m));
      auto; eapply Forall_impl; try exact F; intros ? []; auto.
Qed.

Lemma merge_set_remove : forall F E x v, eequiv (merge (set x v F) (remove x E)) (set x v (merge F E)).
Proof.
  intros F E x v y. rewrite gmerge, grspec, !gsspec, gmerge. destruct (Pos.eqb y x); auto.
Qed.

(** Lemma 4.3.2 for expressions: ⟦e⟧_{E, F; μ} = ⟦e[E]⟧_{F; μ} (E's bindings over F's). *)
Lemma eval_subst : forall e F E m,
  eval call (merge F E) m e = eval call F m (subst E e) /\ rd call (merge F E) m e = rd call F m (subst E e).
Proof.
  induction e using expr_ind'; intros F E m; simpl.
  - rewrite gmerge. destruct (get x E); auto.
  - auto.
  - rewrite !evals_map, !rds_map.
    rewrite (evals_ext (eval call (merge F E) m) (fun e => eval call F m (subst E e))),
            (rds_ext (rd call (merge F E) m) (fun e => rd call F m (subst E e))); auto;
      eapply Forall_impl; try exact H; intros ? K; apply K.
  - destruct (IHe1 F E m) as [V1 R1]. rewrite V1, R1. destruct (eval call F m (subst E e1)); auto.
    destruct (IHe2 (set x v F) (remove x E) m) as [V2 R2]. rewrite <- V2, <- R2.
    destruct (eval_env_ext e2 (merge (set x v F) (remove x E)) (set x v (merge F E)) m (merge_set_remove F E x v)) as [V3 R3].
    rewrite V3, R3. auto.
  - destruct (IHe1 F E m), (IHe2 F E m). rewrite H, H0, H1, H2. auto.
  - destruct (IHe1 F E m), (IHe2 F E m). rewrite H, H0, H1, H2. auto.
  - destruct (IHe1 F E m), (IHe2 F E m). rewrite H, H0, H1, H2. auto.
  - destruct (IHe1 F E m), (IHe2 F E m). rewrite H, H0, H1, H2. auto.
  - destruct (IHe F E m). rewrite H, H0. auto.
  - destruct (IHe1 F E m), (IHe2 F E m), (IHe3 F E m). rewrite H, H0, H1, H2, H3, H4. auto.
  - rewrite !evals_map, !rds_map.
    rewrite (evals_ext (eval call (merge F E) m) (fun e => eval call F m (subst E e))),
            (rds_ext (rd call (merge F E) m) (fun e => rd call F m (subst E e))); auto;
      eapply Forall_impl; try exact H; intros ? K; apply K.
Qed.

Lemma evals_env_ext : forall l E E' m, eequiv E E' ->
  evals (eval call E m) l = evals (eval call E' m) l /\ rds (rd call E m) l = rds (rd call E' m) l.
Proof.
  intros l E E' m H. split; [apply evals_ext | apply rds_ext]; apply Forall_forall; intros e _;
    apply (eval_env_ext e E E' m H).
Qed.

Lemma evals_subst : forall l F E m,
  evals (eval call (merge F E) m) l = evals (eval call F m) (map (subst E) l) /\
  rds (rd call (merge F E) m) l = rds (rd call F m) (map (subst E) l).
Proof.
  intros l F E m. rewrite evals_map, rds_map.
  split; [apply evals_ext | apply rds_ext]; apply Forall_forall; intros e _; apply (eval_subst e F E m).
Qed.

End Eval.

Section Loops.
Variables (run1 run2 : env -> mem -> outcome) (E1 E2 : env) (x : ident).
Hypothesis same : forall i m, run1 (bindz x i E1) m = run2 (bindz x i E2) m.

Lemma for_loop_ext : forall k i m d r, for_loop run1 E1 x k i m d r = for_loop run2 E2 x k i m d r.
Proof. induction k; intros; simpl; auto. rewrite same. destruct (run2 _ _); auto. Qed.

Lemma par_loop_ext : forall k i m d r, par_loop run1 E1 x m k i d r = par_loop run2 E2 x m k i d r.
Proof. induction k; intros; simpl; auto. rewrite same. destruct (run2 _ _); auto. rewrite IHk. auto. Qed.
End Loops.

Section Exec.
Variable call : fn -> list val -> option val.

Lemma eequiv_bindz : forall x i E E', eequiv E E' -> eequiv (bindz x i E) (bindz x i E').
Proof. intros. apply eequiv_set; auto. Qed.

Lemma exec_env_ext : forall c E E' m, eequiv E E' -> exec call E m c = exec call E' m c.
Proof.
  induction c; intros E E' m H; simpl.
  - auto.
  - rewrite (IHc1 E E' m H). destruct (exec call E' m c1); auto. rewrite (IHc2 E E' _ H). auto.
  - unfold eval_ints. destruct (evals_env_ext call idx E E' m H) as [V R].
    destruct (eval_env_ext call e E E' m H) as [V' R']. rewrite V, R, V', R'. auto.
  - destruct (eval_env_ext call e E E' m H) as [V R]. rewrite V, R, (IHc1 E E' m H), (IHc2 E E' m H). auto.
  - destruct (eval_env_ext call e E E' m H) as [V R]. rewrite V, R.
    destruct (eval call E' m e); auto. rewrite (IHc (set x v E) (set x v E') m (eequiv_set _ _ _ _ H)). auto.
  - unfold eval_ints. destruct (evals_env_ext call dims E E' m H) as [V R]. rewrite V, R.
    destruct (evals (eval call E' m) dims) as [vs|]; auto. destruct (ints vs) as [ns|]; auto.
    destruct (rds (rd call E' m) dims); auto. rewrite (IHc E E' _ H). auto.
  - destruct (eval_env_ext call e E E' m H) as [V R]. rewrite V, R.
    destruct (eval call E' m e) as [[]|]; auto. destruct (rd call E' m e); auto.
    rewrite (for_loop_ext (fun E0 m' => exec call E0 m' c) (fun E0 m' => exec call E0 m' c) E E'); auto.
    intros i m'. apply IHc. apply eequiv_bindz; auto.
  - destruct (eval_env_ext call e E E' m H) as [V R]. rewrite V, R.
    destruct (eval call E' m e) as [[]|]; auto. destruct (rd call E' m e); auto.
    rewrite (par_loop_ext (fun E0 m' => exec call E0 m' c) (fun E0 m' => exec call E0 m' c) E E'); auto.
    intros i m'. apply IHc. apply eequiv_bindz; auto.
  - rewrite (IHc1 E E' m H), (IHc2 E E' m H). auto.
  - rewrite (IHc E E' _ H). auto.
Qed.

Lemma merge_bindz_remove : forall F E x i, eequiv (merge (bindz x i F) (remove x E)) (bindz x i (merge F E)).
Proof. intros. apply merge_set_remove. Qed.

(** Lemma 4.3.2 for commands (decided by the interpreter, Exec.v). *)
Lemma exec_subst : forall c F E m, exec call (merge F E) m c = exec call F m (csubst E c).
Proof.
  induction c; intros F E m; simpl.
  - auto.
  - rewrite IHc1. destruct (exec call F m (csubst E c1)); auto. rewrite IHc2. auto.
  - unfold eval_ints. destruct (evals_subst call idx F E m) as [V R].
    destruct (eval_subst call e F E m) as [V' R']. rewrite V, R, V', R'. auto.
  - destruct (eval_subst call e F E m) as [V R]. rewrite V, R, IHc1, IHc2. auto.
  - destruct (eval_subst call e F E m) as [V R]. rewrite V, R.
    destruct (eval call F m (subst E e)); auto. destruct (rd call F m (subst E e)); auto.
    rewrite <- IHc. rewrite (exec_env_ext c _ _ m (merge_set_remove F E x v)). auto.
  - unfold eval_ints. destruct (evals_subst call dims F E m) as [V R]. rewrite V, R.
    destruct (evals (eval call F m) (map (subst E) dims)) as [vs|]; auto. destruct (ints vs) as [ns|]; auto.
    destruct (rds (rd call F m) (map (subst E) dims)); auto. rewrite IHc. auto.
  - destruct (eval_subst call e F E m) as [V R]. rewrite V, R.
    destruct (eval call F m (subst E e)) as [[]|]; auto. destruct (rd call F m (subst E e)); auto.
    rewrite (for_loop_ext (fun E0 m' => exec call E0 m' c) (fun E0 m' => exec call E0 m' (csubst (remove x E) c)) (merge F E) F); auto.
    intros i m'. rewrite <- IHc. apply exec_env_ext. intro y. symmetry. apply merge_bindz_remove.
  - destruct (eval_subst call e F E m) as [V R]. rewrite V, R.
    destruct (eval call F m (subst E e)) as [[]|]; auto. destruct (rd call F m (subst E e)); auto.
    rewrite (par_loop_ext (fun E0 m' => exec call E0 m' c) (fun E0 m' => exec call E0 m' (csubst (remove x E) c)) (merge F E) F); auto.
    intros i m'. rewrite <- IHc. apply exec_env_ext. intro y. symmetry. apply merge_bindz_remove.
  - rewrite IHc1, IHc2. auto.
  - rewrite IHc. auto.
Qed.

(** Lemma 4.3.2: E, F; μ ⊢ c ⇓ ⟨δμ; ρ⟩ ⟺ F; μ ⊢ c[E] ⇓ ⟨δμ; ρ⟩. *)
Theorem lemma_4_3_2 : forall F E m c d r,
  bigstep call (merge F E) m c d r <-> bigstep call F m (csubst E c) d r.
Proof.
  intros F E m c d r. split; intro H.
  - apply exec_sound. rewrite <- exec_subst. apply exec_complete. auto.
  - apply exec_sound. rewrite exec_subst. apply exec_complete. auto.
Qed.

(** In particular, with F = ∅: E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ ⟺ ∅; μ ⊢ c[E] ⇓ ⟨δμ; ρ⟩. *)
Corollary bigstep_subst : forall E m c d r, bigstep call E m c d r <-> bigstep call Leaf m (csubst E c) d r.
Proof.
  intros E m c d r. rewrite <- lemma_4_3_2.
  assert (X : exec call (merge Leaf E) m c = exec call E m c).
  { apply exec_env_ext. intro y. rewrite gmerge, get_leaf. destruct (get y E); auto. }
  split; intro H; apply exec_sound; apply exec_complete in H; [rewrite X | rewrite <- X]; auto.
Qed.

Lemma eval_subst_empty : forall E m e, eval call E m e = eval call Leaf m (subst E e) /\ rd call E m e = rd call Leaf m (subst E e).
Proof.
  intros E m e. destruct (eval_subst call e Leaf E m) as [V R]. rewrite <- V, <- R.
  apply eval_env_ext. intro y. rewrite gmerge, get_leaf. destruct (get y E); auto.
Qed.

End Exec.

(** c[E][F] = c[E over F]: substitutions of closed values compose. *)
Lemma subst_comp : forall e F G, subst F (subst G e) = subst (merge F G) e.
Proof.
  induction e using expr_ind'; intros F G; simpl; try (f_equal; auto; fail).
  - rewrite gmerge. destruct (get x G); simpl; auto.
  - f_equal. rewrite map_map. apply map_ext_in. intros y I. rewrite Forall_forall in H. apply H; auto.
  - f_equal; auto. rewrite IHe2. apply subst_ext. intro y. rewrite gmerge, !grspec, gmerge.
    destruct (Pos.eqb y x); auto.
  - f_equal. rewrite map_map. apply map_ext_in. intros y I. rewrite Forall_forall in H. apply H; auto.
Qed.

Lemma csubst_comp : forall c F G, csubst F (csubst G c) = csubst (merge F G) c.
Proof.
  assert (R : forall x F G, eequiv (merge (remove x F) (remove x G)) (remove x (merge F G))).
  { intros x F G y. rewrite gmerge, !grspec, gmerge. destruct (Pos.eqb y x); auto. }
  induction c; intros F G; simpl; f_equal; auto using subst_comp;
    try (rewrite map_map; apply map_ext; intros; apply subst_comp);
    rewrite IHc; apply csubst_ext; apply R.
Qed.

Lemma subst_none : forall e (E : env), (forall x, get x E = None) -> subst E e = e.
Proof.
  induction e using expr_ind'; intros E N; simpl; f_equal; auto.
  - rewrite N. auto.
  - rewrite <- (map_id idx) at 2. apply map_ext_in. intros y I. rewrite Forall_forall in H. apply H; auto.
  - apply IHe2. intro y. rewrite grspec. destruct (Pos.eqb y x); auto.
  - rewrite <- (map_id args) at 2. apply map_ext_in. intros y I. rewrite Forall_forall in H. apply H; auto.
Qed.

Lemma csubst_none : forall c (E : env), (forall x, get x E = None) -> csubst E c = c.
Proof.
  assert (R : forall x (E : env), (forall y, get y E = None) -> forall y, get y (remove x E) = None).
  { intros x E N y. rewrite grspec. destruct (Pos.eqb y x); auto. }
  induction c; intros E N; simpl; f_equal; auto using subst_none;
    rewrite <- map_id; apply map_ext; intros; apply subst_none; auto.
Qed.

Lemma csubst_empty : forall c, csubst Leaf c = c.
Proof. intros. apply csubst_none. apply get_leaf. Qed.
