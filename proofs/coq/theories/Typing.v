(* The affine typing judgement Γ ⊢ ι : 𝔸 / 𝔹 of thesis Fig. 4.7 and its soundness:
   Theorem 4.4.1 (first part: an affine expression evaluates to an integer, an affine constraint to
   a Boolean, in any environment compatible with Γ) and Lemma 4.4.3 (neither reads memory, so its
   value is the same in every memory).

   Differences with the figure:
   - Γ holds the variables' affine types only; the path conditions of T-SELECT (Γ, e1 and Γ, ¬e1)
     are left out: they restrict the environments, and soundness holds without them.
   - The rules the language adds to Fig. 4.7 (docs/language.md §4): ι1 − ι2, ι·n as well as n·ι,
     min and max, all six comparisons (the figure has = and ≤), ||, and `let` binding a condition.
   - n·ι, ⌊ι/n⌋ and ι mod n take a literal n (a positive one for / and mod), as in the figure.
   The second part of Theorem 4.4.1 (semantic expressions, whose values depend on ⟦f⟧ and on the
   memory) is tested as a property (thm-4.4.1 in proofs/metatheory/properties). *)

From Coq Require Import ZArith List Bool Lia.
From Sched Require Import Maps Values Syntax Memory Eval Framing.
Import ListNotations.

Inductive aty := TA | TB.

(** Γ: the affine variables in scope and their types. *)
Definition tctx := trie aty.

Inductive affine (G : tctx) : expr -> aty -> Prop :=
| T_VAR : forall x t, get x G = Some t -> affine G (EVar x) t
| T_INT : forall n, affine G (EConst (VZ n)) TA
| T_BOOL : forall b, affine G (EConst (VBool b)) TB
| T_ADD : forall e1 e2, affine G e1 TA -> affine G e2 TA -> affine G (EIdx IAdd e1 e2) TA
| T_SUB : forall e1 e2, affine G e1 TA -> affine G e2 TA -> affine G (EIdx ISub e1 e2) TA
| T_MUL : forall n e, affine G e TA -> affine G (EIdx IMul (EConst (VZ n)) e) TA
| T_MUL_R : forall n e, affine G e TA -> affine G (EIdx IMul e (EConst (VZ n))) TA
| T_DIV : forall n e, (0 < n)%Z -> affine G e TA -> affine G (EIdx IDiv e (EConst (VZ n))) TA
| T_MOD : forall n e, (0 < n)%Z -> affine G e TA -> affine G (EIdx IMod e (EConst (VZ n))) TA
| T_MIN : forall e1 e2, affine G e1 TA -> affine G e2 TA -> affine G (EIdx IMin e1 e2) TA
| T_MAX : forall e1 e2, affine G e1 TA -> affine G e2 TA -> affine G (EIdx IMax e1 e2) TA
| T_CMP : forall c e1 e2, affine G e1 TA -> affine G e2 TA -> affine G (ECmp c e1 e2) TB
| T_AND : forall e1 e2, affine G e1 TB -> affine G e2 TB -> affine G (EAnd e1 e2) TB
| T_OR : forall e1 e2, affine G e1 TB -> affine G e2 TB -> affine G (EOr e1 e2) TB
| T_NOT : forall e, affine G e TB -> affine G (ENot e) TB
| T_SELECT : forall c e1 e2 t, affine G c TB -> affine G e1 t -> affine G e2 t -> affine G (ESelect c e1 e2) t
| T_LET : forall x e1 e2 t1 t, affine G e1 t1 -> affine (set x t1 G) e2 t -> affine G (ELet x e1 e2) t.

Definition has_aty (v : val) (t : aty) : Prop :=
  match v, t with VZ _, TA | VBool _, TB => True | _, _ => False end.

(** E ⊨ Γ (Definition 4.4.1, for the variable bindings). *)
Definition compatible (E : env) (G : tctx) : Prop :=
  forall x t, get x G = Some t -> exists v, get x E = Some v /\ has_aty v t.

Lemma compatible_set : forall E G x v t, compatible E G -> has_aty v t -> compatible (set x v E) (set x t G).
Proof.
  intros E G x v t C H. unfold compatible. intros y u K.
  rewrite (gsspec y x t G) in K. rewrite (gsspec y x v E).
  destruct (Pos.eqb y x).
  - inversion K; subst. eauto.
  - eauto.
Qed.

Section Typing.
Variable call : fn -> list val -> option val.

(** Theorem 4.4.1 (affine expressions and constraints) together with Lemma 4.4.3: the value has
    the type, and the read set is empty, in every memory. *)
Theorem thm_4_4_1 : forall G e t, affine G e t -> forall E, compatible E G -> forall m,
  exists v, eval call E m e = Some v /\ has_aty v t /\
    exists r, rd call E m e = Some r /\ forall l, lget l r = None.
Proof.
  induction 1; intros E C m; simpl.
  (* The rules with two affine premises. *)
  all: try solve [
    destruct (IHaffine1 E C m) as [v1 [V1 [T1 [r1 [R1 E1]]]]];
    destruct (IHaffine2 E C m) as [v2 [V2 [T2 [r2 [R2 E2]]]]];
    rewrite V1, V2, R1, R2;
    destruct v1; simpl in T1; try contradiction; destruct v2; simpl in T2; try contradiction; simpl;
    eexists; split; [reflexivity|]; split; [simpl; auto|];
    eexists; split; [reflexivity|]; intro l; rewrite lget_merge, E1, E2; auto ].
  - destruct (C x t H) as [v [Hv Ht]]. rewrite Hv. eexists; split; eauto. split; auto.
    eexists; split; eauto. apply lget_empty.
  - eexists; split; [reflexivity|]. split; [simpl; auto|]. eexists; split; eauto. apply lget_empty.
  - eexists; split; [reflexivity|]. split; [simpl; auto|]. eexists; split; eauto. apply lget_empty.
  - destruct (IHaffine E C m) as [v [V [T [r [R Em]]]]]. rewrite V, R.
    destruct v; simpl in T; try contradiction. simpl.
    eexists; split; [reflexivity|]. split; [simpl; auto|].
    eexists; split; [reflexivity|]. intro l.
    first [apply Em | destruct r; [apply lget_empty | apply Em] | rewrite lget_merge, Em, lget_empty; auto].
  - destruct (IHaffine E C m) as [v [V [T [r [R Em]]]]]. rewrite V, R.
    destruct v; simpl in T; try contradiction. simpl.
    eexists; split; [reflexivity|]. split; [simpl; auto|].
    eexists; split; [reflexivity|]. intro l.
    first [apply Em | destruct r; [apply lget_empty | apply Em] | rewrite lget_merge, Em, lget_empty; auto].
  - destruct (IHaffine E C m) as [v [V [T [r [R Em]]]]]. rewrite V, R.
    destruct v; simpl in T; try contradiction. simpl. apply Z.ltb_lt in H. rewrite H.
    eexists; split; [reflexivity|]. split; [simpl; auto|].
    eexists; split; [reflexivity|]. intro l.
    first [apply Em | destruct r; [apply lget_empty | apply Em] | rewrite lget_merge, Em, lget_empty; auto].
  - destruct (IHaffine E C m) as [v [V [T [r [R Em]]]]]. rewrite V, R.
    destruct v; simpl in T; try contradiction. simpl. apply Z.ltb_lt in H. rewrite H.
    eexists; split; [reflexivity|]. split; [simpl; auto|].
    eexists; split; [reflexivity|]. intro l.
    first [apply Em | destruct r; [apply lget_empty | apply Em] | rewrite lget_merge, Em, lget_empty; auto].
  - destruct (IHaffine E C m) as [v [V [T [r [R Em]]]]]. rewrite V, R.
    destruct v; simpl in T; try contradiction. eexists; split; [reflexivity|]. split; [simpl; auto|]. eauto.
  - destruct (IHaffine1 E C m) as [v1 [V1 [T1 [r1 [R1 E1]]]]].
    destruct (IHaffine2 E C m) as [v2 [V2 [T2 [r2 [R2 E2]]]]].
    destruct (IHaffine3 E C m) as [v3 [V3 [T3 [r3 [R3 E3]]]]].
    rewrite V1, V2, V3, R1, R2, R3. destruct v1; simpl in T1; try contradiction.
    eexists; split; [reflexivity|]. split; [destruct b; auto|].
    eexists; split; [reflexivity|]. intro l. rewrite !lget_merge, E1, E2, E3. auto.
  - destruct (IHaffine1 E C m) as [v1 [V1 [T1 [r1 [R1 E1]]]]].
    destruct (IHaffine2 (set x v1 E) (compatible_set E G x v1 t1 C T1) m) as [v2 [V2 [T2 [r2 [R2 E2]]]]].
    rewrite V1, R1, V2, R2. eexists; split; [reflexivity|]. split; auto.
    eexists; split; [reflexivity|]. intro l. rewrite lget_merge, E1, E2. auto.
Qed.

(** In particular an affine expression's value does not depend on the memory. *)
Corollary affine_memory_independent : forall G e t E m m', affine G e t -> compatible E G ->
  eval call E m' e = eval call E m e.
Proof.
  intros G e t E m m' A C. destruct (thm_4_4_1 G e t A E C m) as [v [V [_ [r [R Em]]]]].
  refine (proj2 (thm_4_2_2 call e E m r R m' _)). intros l K. congruence.
Qed.

End Typing.
