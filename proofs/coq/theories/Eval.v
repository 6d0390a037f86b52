(* Evaluation of expressions ⟦e⟧_{E;μ} (thesis Fig. 4.3) and their read sets rd_{E;μ}(e)
   (Fig. 4.4), for an interpretation [call] of the function symbols (the thesis's ⟦f⟧, "a function
   of the values that returns ⊥ if the arity is incorrect"; Ops.v gives SCHED's). ⊥ is None: a
   rule applies only when its premises have values, so ⊥ propagates, and select, && and || are
   eager (every argument must have a value).

   Proved here: Lemma 4.2.1 (an expression with a value has a read set, inside dom(μ)),
   Theorem 4.2.2 (the value and read set of e only depend on μ over rd(e)). *)

From Coq Require Import ZArith List Bool Lia.
From Sched Require Import Maps Values Syntax Memory.
Import ListNotations.

(* The list helpers take their function as a section variable, so that eval and rd can recurse
   through them (nested recursion over the argument lists). *)
Section Evals.
Context {A B : Type} (f : A -> option B).

(** A list of evaluations, all with values. *)
Fixpoint evals (l : list A) : option (list B) :=
  match l with
  | [] => Some []
  | x :: l' => match f x, evals l' with Some v, Some vs => Some (v :: vs) | _, _ => None end
  end.
End Evals.

Section Rds.
Context {A : Type} (f : A -> option locset).

(** The union of the read sets of a list, all defined. *)
Fixpoint rds (l : list A) : option locset :=
  match l with
  | [] => Some lempty
  | x :: l' => match f x, rds l' with Some r, Some rs => Some (lmerge r rs) | _, _ => None end
  end.
End Rds.

(** Integer values (index tuples: n_i ∈ ℤ). *)
Fixpoint ints (vs : list val) : option (list Z) :=
  match vs with
  | [] => Some []
  | VZ n :: vs' => match ints vs' with Some ns => Some (n :: ns) | None => None end
  | _ :: _ => None
  end.

(** Natural values (Fig. 4.3/4.4's array rules: n_i ∈ ℕ). *)
Fixpoint nats (vs : list val) : option (list Z) :=
  match vs with
  | [] => Some []
  | VZ n :: vs' => if (0 <=? n)%Z then match nats vs' with Some ns => Some (n :: ns) | None => None end else None
  | _ :: _ => None
  end.

(** The quasi-affine operations on ℤ; / and mod need a positive divisor (Fig. 4.3). *)
Definition ibin (op : ibinop) (n k : Z) : option Z :=
  match op with
  | IAdd => Some (n + k)%Z
  | ISub => Some (n - k)%Z
  | IMul => Some (n * k)%Z
  | IDiv => if (0 <? k)%Z then Some (n / k)%Z else None
  | IMod => if (0 <? k)%Z then Some (n mod k)%Z else None
  | IMin => Some (Z.min n k)
  | IMax => Some (Z.max n k)
  end.

Definition cmpZ (c : cmpop) (n k : Z) : bool :=
  match c with
  | Ceq => (n =? k)%Z
  | Cne => negb (n =? k)%Z
  | Clt => (n <? k)%Z
  | Cle => (n <=? k)%Z
  | Cgt => (k <? n)%Z
  | Cge => (k <=? n)%Z
  end.

(** Comparisons of indices (and = / ≠ of conditions). *)
Definition cmp_aff (c : cmpop) (v1 v2 : val) : option bool :=
  match v1, v2 with
  | VZ n, VZ k => Some (cmpZ c n k)
  | VBool a, VBool b =>
      match c with
      | Ceq => Some (Bool.eqb a b)
      | Cne => Some (negb (Bool.eqb a b))
      | _ => None
      end
  | _, _ => None
  end.

Section Eval.
Variable call : fn -> list val -> option val.

Fixpoint eval (E : env) (m : mem) (e : expr) : option val :=
  match e with
  | EVar x => get x E
  | EConst v => Some v
  | EArr a idx =>
      match evals (eval E m) idx with
      | Some vs =>
          match ints vs with
          | Some ns => match mget m (a, ns) with Some (Some v) => Some v | _ => None end
          | None => None
          end
      | None => None
      end
  | ELet x e1 e2 =>
      match eval E m e1 with Some v0 => eval (set x v0 E) m e2 | None => None end
  | EIdx op e1 e2 =>
      match eval E m e1, eval E m e2 with
      | Some (VZ n), Some (VZ k) => match ibin op n k with Some z => Some (VZ z) | None => None end
      | _, _ => None
      end
  | ECmp c e1 e2 =>
      match eval E m e1, eval E m e2 with
      | Some v1, Some v2 => match cmp_aff c v1 v2 with Some b => Some (VBool b) | None => None end
      | _, _ => None
      end
  | EAnd e1 e2 =>
      match eval E m e1, eval E m e2 with
      | Some (VBool a), Some (VBool b) => Some (VBool (a && b))
      | _, _ => None
      end
  | EOr e1 e2 =>
      match eval E m e1, eval E m e2 with
      | Some (VBool a), Some (VBool b) => Some (VBool (a || b))
      | _, _ => None
      end
  | ENot e1 =>
      match eval E m e1 with Some (VBool a) => Some (VBool (negb a)) | _ => None end
  | ESelect c e1 e2 =>
      match eval E m c, eval E m e1, eval E m e2 with
      | Some (VBool b), Some v1, Some v2 => Some (if b then v1 else v2)
      | _, _, _ => None
      end
  | ECall f args =>
      match evals (eval E m) args with Some vs => call f vs | None => None end
  end.

Fixpoint rd (E : env) (m : mem) (e : expr) : option locset :=
  match e with
  | EVar _ | EConst _ => Some lempty
  | EArr a idx =>
      match evals (eval E m) idx, rds (rd E m) idx with
      | Some vs, Some r =>
          match nats vs with Some ns => Some (lmerge (lsingle (a, ns) tt) r) | None => None end
      | _, _ => None
      end
  | ELet x e1 e2 =>
      match eval E m e1, rd E m e1 with
      | Some v0, Some r1 => match rd (set x v0 E) m e2 with Some r2 => Some (lmerge r1 r2) | None => None end
      | _, _ => None
      end
  | EIdx _ e1 e2 | ECmp _ e1 e2 | EAnd e1 e2 | EOr e1 e2 =>
      match rd E m e1, rd E m e2 with Some r1, Some r2 => Some (lmerge r1 r2) | _, _ => None end
  | ENot e1 => rd E m e1
  | ESelect c e1 e2 =>
      match rd E m c, rd E m e1, rd E m e2 with
      | Some r, Some r1, Some r2 => Some (lmerge r (lmerge r1 r2))
      | _, _, _ => None
      end
  | ECall _ args => rds (rd E m) args
  end.

(* ------------------------------------------------------------------------------------------ *)
(** Facts about the list helpers. *)

Lemma evals_ext : forall {A B} (f g : A -> option B) l,
  Forall (fun x => f x = g x) l -> evals f l = evals g l.
Proof.
  induction l; simpl; intros F; auto. inversion F; subst. rewrite H1, IHl; auto.
Qed.

Lemma rds_ext : forall {A} (f g : A -> option locset) l,
  Forall (fun x => f x = g x) l -> rds f l = rds g l.
Proof.
  induction l; simpl; intros F; auto. inversion F; subst. rewrite H1, IHl; auto.
Qed.

Lemma evals_map : forall {A B C} (f : B -> option C) (g : A -> B) l,
  evals f (map g l) = evals (fun x => f (g x)) l.
Proof. induction l; simpl; auto. rewrite IHl. auto. Qed.

Lemma rds_map : forall {A B} (f : B -> option locset) (g : A -> B) l,
  rds f (map g l) = rds (fun x => f (g x)) l.
Proof. induction l; simpl; auto. rewrite IHl. auto. Qed.

Lemma nats_ints : forall vs ns, nats vs = Some ns -> ints vs = Some ns.
Proof.
  induction vs as [|v vs IH]; simpl; intros ns H; auto.
  destruct v; try discriminate. destruct (0 <=? n)%Z; try discriminate.
  destruct (nats vs) eqn:E; try discriminate. inversion H; subst. rewrite (IH _ eq_refl). auto.
Qed.

Lemma in_box_nonneg : forall idx dims, in_box idx dims = true -> Forall (fun n => (0 <= n)%Z) idx.
Proof.
  induction idx; destruct dims; simpl; intros H; try discriminate; auto.
  apply andb_true_iff in H as [H H3]. apply andb_true_iff in H as [H1 H2].
  constructor; eauto. apply Z.leb_le; auto.
Qed.

Lemma ints_nats : forall vs ns, ints vs = Some ns -> Forall (fun n => (0 <= n)%Z) ns -> nats vs = Some ns.
Proof.
  induction vs as [|v vs IH]; simpl; intros ns H F; auto.
  destruct v; try discriminate. destruct (ints vs) eqn:E; try discriminate. inversion H; subst.
  inversion F; subst. apply Z.leb_le in H2. rewrite H2. rewrite (IH l eq_refl H3). auto.
Qed.

Lemma mget_in_box : forall m a ns o, mget m (a, ns) = Some o ->
  exists dims, get a (shapes m) = Some dims /\ in_box ns dims = true.
Proof.
  unfold mget; simpl. intros m a ns o H. destruct (get a (shapes m)); try discriminate.
  destruct (in_box ns l) eqn:E; try discriminate. eauto.
Qed.

Lemma rds_some : forall {A} (f : A -> option locset) l,
  Forall (fun x => f x <> None) l -> rds f l <> None.
Proof.
  induction l; simpl; intros F; try discriminate. inversion F; subst.
  destruct (f a); try congruence. destruct (rds f l); try congruence. exfalso; apply IHl; auto.
Qed.

(** The locations of a union of read sets. *)
Lemma rds_in : forall {A} (f : A -> option locset) l r loc,
  rds f l = Some r -> lget loc r <> None -> exists x r1, In x l /\ f x = Some r1 /\ lget loc r1 <> None.
Proof.
  induction l; simpl; intros r lo H K.
  - inversion H; subst. rewrite lget_empty in K. congruence.
  - destruct (f a) eqn:Ea; try discriminate. destruct (rds f l) eqn:El; try discriminate.
    inversion H; subst. rewrite lget_merge in K. destruct (lget lo l1) eqn:E1.
    + destruct (IHl l1 lo eq_refl) as [x [r1 [H1 [H2 H3]]]]; try congruence. exists x, r1; auto.
    + exists a, l0. auto.
Qed.

Lemma rds_sub : forall {A} (f : A -> option locset) l r x r1 loc,
  rds f l = Some r -> In x l -> f x = Some r1 -> lget loc r1 <> None -> lget loc r <> None.
Proof.
  induction l; simpl; intros r x r1 lo H I Hx K; try contradiction.
  destruct (f a) eqn:Ea; try discriminate. destruct (rds f l) eqn:El; try discriminate.
  inversion H; subst. rewrite lget_merge. destruct I as [<-|I].
  - rewrite Ea in Hx. inversion Hx; subst. destruct (lget lo l1); congruence.
  - assert (lget lo l1 <> None) by (eapply IHl; eauto). destruct (lget lo l1); congruence.
Qed.

Lemma evals_in : forall {A B} (f : A -> option B) l vs x,
  evals f l = Some vs -> In x l -> exists v, f x = Some v.
Proof.
  induction l; simpl; intros vs x H I; try contradiction.
  destruct (f a) eqn:Ea; try discriminate. destruct (evals f l) eqn:El; try discriminate.
  destruct I as [<-|I]; eauto.
Qed.

(* ------------------------------------------------------------------------------------------ *)
(** Lemma 4.2.1: an expression with a value has a read set; every location it reads is in dom(μ). *)

(** Every location of the map (a read set, or the domain of a differential memory) is in dom(μ). *)
Definition in_dom_set {B} (m : mem) (r : lmap B) : Prop := forall l, lget l r <> None -> in_dom m l.

Lemma in_dom_set_empty : forall {B} m, @in_dom_set B m lempty.
Proof. intros B m l H. rewrite lget_empty in H. congruence. Qed.

Lemma in_dom_set_merge : forall {B} m (a b : lmap B), in_dom_set m a -> in_dom_set m b -> in_dom_set m (lmerge a b).
Proof.
  intros B m a b Ha Hb l H. rewrite lget_merge in H. destruct (lget l b) eqn:E.
  apply Hb; congruence. apply Ha; auto.
Qed.

Lemma evals_forall : forall {A B} (f : A -> option B) l vs,
  evals f l = Some vs -> Forall (fun x => exists v, f x = Some v) l.
Proof.
  induction l; simpl; intros vs H; auto.
  destruct (f a) eqn:Ea; try discriminate. destruct (evals f l) eqn:El; try discriminate. eauto.
Qed.

Lemma rds_forall : forall {A} (f : A -> option locset) (P : locset -> Prop) l r,
  P lempty -> (forall a b, P a -> P b -> P (lmerge a b)) ->
  Forall (fun x => forall r1, f x = Some r1 -> P r1) l -> rds f l = Some r -> P r.
Proof.
  induction l; simpl; intros r P0 PM F H.
  - inversion H; subst; auto.
  - inversion F; subst. destruct (f a) eqn:Ea; try discriminate.
    destruct (rds f l) eqn:El; try discriminate. inversion H; subst. eauto.
Qed.

Lemma rds_defined : forall {A} (f : A -> option locset) l,
  Forall (fun x => f x <> None) l -> exists r, rds f l = Some r.
Proof.
  induction l; simpl; intros F; eauto. inversion F; subst.
  destruct (f a); try congruence. destruct IHl as [r ->]; eauto.
Qed.

(** The read sets of an argument list whose values are defined (from the induction hypothesis). *)
Lemma rds_of_evals : forall (E : env) (m : mem) l vs,
  Forall (fun e => forall v, eval E m e = Some v -> exists r, rd E m e = Some r /\ in_dom_set m r) l ->
  evals (eval E m) l = Some vs ->
  exists r, rds (rd E m) l = Some r /\ in_dom_set m r.
Proof.
  intros E m l vs F H. pose proof (evals_forall _ _ _ H) as G.
  assert (F' : Forall (fun e => exists r, rd E m e = Some r /\ in_dom_set m r) l).
  { rewrite Forall_forall in *. intros x I. destruct (G x I) as [v Hv]. eauto. }
  destruct (rds_defined (rd E m) l) as [r R].
  { eapply Forall_impl; [|exact F']. intros x [r [-> _]]. congruence. }
  exists r; split; auto. eapply rds_forall; [ | | | exact R].
  - apply in_dom_set_empty.
  - apply in_dom_set_merge.
  - eapply Forall_impl; [|exact F']. intros x [r1 [R1 D1]] r2 R2. rewrite R1 in R2. inversion R2; subst; auto.
Qed.

Lemma lemma_4_2_1 : forall e E m v,
  eval E m e = Some v -> exists r, rd E m e = Some r /\ in_dom_set m r.
Proof.
  induction e using expr_ind'; intros E m v0 Hv; simpl in *.
  - exists lempty. auto using in_dom_set_empty.
  - exists lempty. auto using in_dom_set_empty.
  - (* array read *)
    destruct (evals (eval E m) idx) as [vs|] eqn:Ev; try discriminate.
    destruct (ints vs) as [ns|] eqn:Ei; try discriminate.
    destruct (mget m (a, ns)) as [[w|]|] eqn:Em; try discriminate.
    destruct (rds_of_evals E m idx vs) as [r [R D]]; auto.
    { eapply Forall_impl; [|exact H]. intros x Hx w' Hw. apply (Hx E m w' Hw). }
    rewrite R. destruct (mget_in_box _ _ _ _ Em) as [dims [_ B]].
    rewrite (ints_nats _ _ Ei (in_box_nonneg _ _ B)).
    eexists; split; eauto. apply in_dom_set_merge; auto.
    intros l Hl. rewrite lget_single in Hl. unfold in_dom.
    destruct loc_eq_dec; subst; congruence.
  - destruct (eval E m e1) eqn:E1; try discriminate.
    destruct (IHe1 E m v E1) as [r1 [R1 D1]]. destruct (IHe2 _ m v0 Hv) as [r2 [R2 D2]].
    rewrite R1, R2. eexists; split; eauto. apply in_dom_set_merge; auto.
  - destruct (eval E m e1) as [[]|] eqn:E1; try discriminate;
    destruct (eval E m e2) as [[]|] eqn:E2; try discriminate.
    destruct (IHe1 E m _ E1) as [r1 [R1 D1]]. destruct (IHe2 E m _ E2) as [r2 [R2 D2]].
    rewrite R1, R2. eexists; split; eauto. apply in_dom_set_merge; auto.
  - destruct (eval E m e1) eqn:E1; try discriminate; destruct (eval E m e2) eqn:E2; try discriminate.
    destruct (IHe1 E m _ E1) as [r1 [R1 D1]]. destruct (IHe2 E m _ E2) as [r2 [R2 D2]].
    rewrite R1, R2. eexists; split; eauto. apply in_dom_set_merge; auto.
  - destruct (eval E m e1) as [[]|] eqn:E1; try discriminate;
    destruct (eval E m e2) as [[]|] eqn:E2; try discriminate.
    destruct (IHe1 E m _ E1) as [r1 [R1 D1]]. destruct (IHe2 E m _ E2) as [r2 [R2 D2]].
    rewrite R1, R2. eexists; split; eauto. apply in_dom_set_merge; auto.
  - destruct (eval E m e1) as [[]|] eqn:E1; try discriminate;
    destruct (eval E m e2) as [[]|] eqn:E2; try discriminate.
    destruct (IHe1 E m _ E1) as [r1 [R1 D1]]. destruct (IHe2 E m _ E2) as [r2 [R2 D2]].
    rewrite R1, R2. eexists; split; eauto. apply in_dom_set_merge; auto.
  - destruct (eval E m e) as [[]|] eqn:E1; try discriminate. eauto.
  - destruct (eval E m e1) as [[]|] eqn:E1; try discriminate;
    destruct (eval E m e2) eqn:E2; try discriminate;
    destruct (eval E m e3) eqn:E3; try discriminate.
    destruct (IHe1 E m _ E1) as [r1 [R1 D1]]. destruct (IHe2 E m _ E2) as [r2 [R2 D2]].
    destruct (IHe3 E m _ E3) as [r3 [R3 D3]].
    rewrite R1, R2, R3. eexists; split; eauto. repeat apply in_dom_set_merge; auto.
  - destruct (evals (eval E m) args) as [vs|] eqn:Ev; try discriminate.
    apply (rds_of_evals E m args vs); auto.
    eapply Forall_impl; [|exact H]. intros x Hx w' Hw. apply (Hx E m w' Hw).
Qed.
End Eval.
