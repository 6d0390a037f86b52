(* Finite maps for the semantics: binary tries keyed by positives, and the two-level maps that
   hold memories, differential memories δμ and read sets ρ, keyed by locations ℓ = a[n1, …, nk].

   A location is an array name (a positive) and an index tuple (a list of integers). The tuple is
   coded injectively as a positive (enc), so a two-level trie finds a location in time linear in
   the length of its code. Everything the semantics says about these maps goes through [get] and
   [lget]: a map is the partial function it denotes, and two tries denoting the same function are
   interchangeable (the tries are not canonical; nothing below relies on them being so). *)

From Coq Require Import ZArith List Bool Lia.
Import ListNotations.

(* ------------------------------------------------------------------------------------------ *)
(** * Binary tries *)

Inductive trie (A : Type) : Type :=
| Leaf : trie A
| Node : trie A -> option A -> trie A -> trie A.
Arguments Leaf {A}.
Arguments Node {A} _ _ _.

Section Trie.
Context {A : Type}.

Fixpoint get (k : positive) (t : trie A) : option A :=
  match t with
  | Leaf => None
  | Node l o r => match k with xH => o | xO k' => get k' l | xI k' => get k' r end
  end.

Fixpoint set (k : positive) (v : A) (t : trie A) : trie A :=
  match t with
  | Leaf =>
      match k with
      | xH => Node Leaf (Some v) Leaf
      | xO k' => Node (set k' v Leaf) None Leaf
      | xI k' => Node Leaf None (set k' v Leaf)
      end
  | Node l o r =>
      match k with
      | xH => Node l (Some v) r
      | xO k' => Node (set k' v l) o r
      | xI k' => Node l o (set k' v r)
      end
  end.

Fixpoint remove (k : positive) (t : trie A) : trie A :=
  match t with
  | Leaf => Leaf
  | Node l o r =>
      match k with
      | xH => Node l None r
      | xO k' => Node (remove k' l) o r
      | xI k' => Node l o (remove k' r)
      end
  end.

(** [merge a b]: the entries of [b], and those of [a] where [b] has none (b wins). Its cost is
    the size of [b]: the subtrees of [a] that [b] does not touch are shared. *)
Fixpoint merge (a b : trie A) : trie A :=
  match b with
  | Leaf => a
  | Node bl bo br =>
      match a with
      | Leaf => b
      | Node al ao ar =>
          Node (merge al bl) (match bo with Some v => Some v | None => ao end) (merge ar br)
      end
  end.

Lemma get_leaf : forall k, get k Leaf = None.
Proof. destruct k; reflexivity. Qed.

Lemma gss : forall k v t, get k (set k v t) = Some v.
Proof.
  induction k; destruct t; simpl; auto.
Qed.

Lemma gso : forall k k' v t, k <> k' -> get k (set k' v t) = get k t.
Proof.
  induction k; destruct k', t; simpl; intros; try congruence; try apply get_leaf;
    try (apply IHk; congruence); auto.
  - rewrite IHk by congruence. apply get_leaf.
  - rewrite IHk by congruence. apply get_leaf.
Qed.

Lemma gsspec : forall k k' v t, get k (set k' v t) = if Pos.eqb k k' then Some v else get k t.
Proof.
  intros. destruct (Pos.eqb_spec k k'); subst. apply gss. apply gso; auto.
Qed.

Lemma grs : forall k t, get k (remove k t) = None.
Proof. induction k; destruct t; simpl; auto. Qed.

Lemma gro : forall k k' t, k <> k' -> get k (remove k' t) = get k t.
Proof.
  induction k; destruct k', t; simpl; intros; auto; try congruence; apply IHk; congruence.
Qed.

Lemma grspec : forall k k' t, get k (remove k' t) = if Pos.eqb k k' then None else get k t.
Proof.
  intros. destruct (Pos.eqb_spec k k'); subst. apply grs. apply gro; auto.
Qed.

Lemma gmerge : forall k a b,
  get k (merge a b) = match get k b with Some v => Some v | None => get k a end.
Proof.
  induction k; destruct a as [|al ao ar], b as [|bl bo br]; simpl; auto;
    try (destruct (get k _); reflexivity); destruct bo; reflexivity.
Qed.

(** Structural tests over two tries; a missing subtree holds no entry. *)
Fixpoint all_none (t : trie A) : bool :=
  match t with
  | Leaf => true
  | Node l o r => match o with Some _ => false | None => all_none l && all_none r end
  end.

Lemma all_none_spec : forall t, all_none t = true -> forall k, get k t = None.
Proof.
  induction t; simpl; intros H k. apply get_leaf.
  destruct o; try discriminate. apply andb_true_iff in H as [H1 H2].
  destruct k; simpl; auto.
Qed.

Lemma all_none_complete : forall t, (forall k, get k t = None) -> all_none t = true.
Proof.
  induction t; simpl; intros H; auto.
  destruct o. specialize (H xH); simpl in H; discriminate.
  rewrite IHt1, IHt2; auto; intro k. apply (H (xI k)). apply (H (xO k)).
Qed.

End Trie.

Section Trie2.
Context {A B : Type}.

(** No key holds an entry in both tries. *)
Fixpoint disjoint (a : trie A) (b : trie B) : bool :=
  match a, b with
  | Leaf, _ => true
  | _, Leaf => true
  | Node al ao ar, Node bl bo br =>
      match ao, bo with Some _, Some _ => false | _, _ => true end
      && disjoint al bl && disjoint ar br
  end.

Lemma disjoint_spec : forall a b,
  disjoint a b = true -> forall k, get k a = None \/ get k b = None.
Proof.
  induction a; destruct b; simpl; intros H k; auto using get_leaf.
  apply andb_true_iff in H as [H H3]. apply andb_true_iff in H as [H1 H2].
  destruct k; simpl; auto.
  destruct o, o0; auto; discriminate.
Qed.

Lemma disjoint_complete : forall a b,
  (forall k, get k a = None \/ get k b = None) -> disjoint a b = true.
Proof.
  induction a; destruct b; simpl; intros H; auto.
  rewrite IHa1, IHa2. destruct o, o0; auto.
  destruct (H xH); simpl in *; discriminate.
  intro k. apply (H (xI k)). intro k. apply (H (xO k)).
Qed.

(** Wherever both tries hold an entry, [f] accepts the pair. *)
Fixpoint agree (f : A -> B -> bool) (a : trie A) (b : trie B) : bool :=
  match a, b with
  | Leaf, _ => true
  | _, Leaf => true
  | Node al ao ar, Node bl bo br =>
      match ao, bo with Some x, Some y => f x y | _, _ => true end
      && agree f al bl && agree f ar br
  end.

Lemma agree_spec : forall f a b,
  agree f a b = true ->
  forall k x y, get k a = Some x -> get k b = Some y -> f x y = true.
Proof.
  induction a; destruct b; simpl; intros H k x y Ha Hb;
    try (rewrite get_leaf in *; discriminate).
  apply andb_true_iff in H as [H H3]. apply andb_true_iff in H as [H1 H2].
  destruct k; simpl in *; eauto.
  subst. auto.
Qed.

Lemma agree_complete : forall f a b,
  (forall k x y, get k a = Some x -> get k b = Some y -> f x y = true) ->
  agree f a b = true.
Proof.
  induction a; destruct b; simpl; intros H; auto.
  rewrite IHa1, IHa2.
  - destruct o, o0; rewrite ?andb_true_r; auto. apply (H xH); reflexivity.
  - intros k x y. apply (H (xI k)).
  - intros k x y. apply (H (xO k)).
Qed.

End Trie2.

Section TrieEq.
Context {A : Type}.

(** The two tries denote the same partial function, comparing entries with [f]. *)
Fixpoint same (f : A -> A -> bool) (a b : trie A) : bool :=
  match a, b with
  | Leaf, _ => all_none b
  | _, Leaf => all_none a
  | Node al ao ar, Node bl bo br =>
      match ao, bo with
      | Some x, Some y => f x y
      | None, None => true
      | _, _ => false
      end && same f al bl && same f ar br
  end.

Lemma same_spec : forall f, (forall x y, f x y = true -> x = y) ->
  forall a b, same f a b = true -> forall k, get k a = get k b.
Proof.
  intros f Hf. induction a as [|al IHl ao ar IHr]; destruct b as [|bl bo br]; intros H k.
  - reflexivity.
  - assert (H' : all_none (Node bl bo br) = true) by exact H.
    rewrite get_leaf. symmetry. exact (all_none_spec _ H' k).
  - assert (H' : all_none (Node al ao ar) = true) by exact H.
    rewrite get_leaf. exact (all_none_spec _ H' k).
  - simpl in H. apply andb_true_iff in H as [H H3]. apply andb_true_iff in H as [H1 H2].
    destruct k; simpl; auto.
    destruct ao, bo; try discriminate; auto. f_equal; auto.
Qed.

End TrieEq.

(* ------------------------------------------------------------------------------------------ *)
(** * Codes of index tuples *)

Fixpoint enc_pos (p acc : positive) : positive :=
  match p with
  | xI q => xI (xI (enc_pos q acc))
  | xO q => xI (xO (enc_pos q acc))
  | xH => xO acc
  end.

Definition enc_Z (z : Z) (acc : positive) : positive :=
  match z with
  | Z0 => xO acc
  | Zpos p => xI (xO (enc_pos p acc))
  | Zneg p => xI (xI (enc_pos p acc))
  end.

Fixpoint enc (l : list Z) : positive :=
  match l with
  | [] => xH
  | z :: l' => enc_Z z (enc l')
  end.

Lemma enc_pos_inj : forall p p' a a', enc_pos p a = enc_pos p' a' -> p = p' /\ a = a'.
Proof.
  induction p; destruct p'; simpl; intros a a' H; try discriminate;
    try (injection H as H; destruct (IHp _ _ _ H); subst; auto).
  injection H as H; auto.
Qed.

Lemma enc_Z_inj : forall z z' a a', enc_Z z a = enc_Z z' a' -> z = z' /\ a = a'.
Proof.
  destruct z, z'; simpl; intros a a' H; try discriminate; injection H as H; auto;
    destruct (enc_pos_inj _ _ _ _ H); subst; auto.
Qed.

Lemma enc_inj : forall l l', enc l = enc l' -> l = l'.
Proof.
  induction l; destruct l'; simpl; intros H; auto.
  - destruct z; discriminate.
  - destruct a; discriminate.
  - destruct (enc_Z_inj _ _ _ _ H). subst. f_equal. auto.
Qed.

(* ------------------------------------------------------------------------------------------ *)
(** * Locations and maps over locations *)

Definition ident := positive.

(** ℓ = a[n1, …, nk] *)
Definition loc : Type := (ident * list Z)%type.

Definition loc_eq_dec (l l' : loc) : {l = l'} + {l <> l'}.
Proof. decide equality; [apply list_eq_dec, Z.eq_dec | apply Pos.eq_dec]. Defined.

(** A finite map from locations: per array name, a trie keyed by the code of the index tuple. *)
Definition lmap (A : Type) : Type := trie (trie A).

(** A set of locations (read sets ρ). *)
Definition locset : Type := lmap unit.

Section LMap.
Context {A : Type}.

Definition lempty : lmap A := Leaf.

Definition sub (a : ident) (m : lmap A) : trie A :=
  match get a m with Some s => s | None => Leaf end.

Definition lget (l : loc) (m : lmap A) : option A := get (enc (snd l)) (sub (fst l) m).

Definition lset (l : loc) (v : A) (m : lmap A) : lmap A :=
  set (fst l) (set (enc (snd l)) v (sub (fst l) m)) m.

Definition lsingle (l : loc) (v : A) : lmap A := lset l v lempty.

(** [lmerge a b]: a ▷ b (the entries of b, then those of a it does not overwrite). *)
Fixpoint lmerge (a b : lmap A) : lmap A :=
  match b with
  | Leaf => a
  | Node bl bo br =>
      match a with
      | Leaf => b
      | Node al ao ar =>
          Node (lmerge al bl)
               (match bo, ao with
                | Some sb, Some sa => Some (merge sa sb)
                | Some sb, None => Some sb
                | None, _ => ao
                end)
               (lmerge ar br)
      end
  end.

(** Every location of array [a] removed. *)
Definition lremove (a : ident) (m : lmap A) : lmap A := remove a m.

Lemma sub_empty : forall a, sub a lempty = Leaf.
Proof. intros. unfold sub, lempty. rewrite get_leaf. reflexivity. Qed.

Lemma lget_empty : forall l, lget l lempty = None.
Proof. intros. unfold lget. rewrite sub_empty. apply get_leaf. Qed.

Lemma lget_set : forall l l' v m,
  lget l (lset l' v m) = if loc_eq_dec l l' then Some v else lget l m.
Proof.
  intros [a i] [a' i'] v m. unfold lget, lset, sub; cbn [fst snd].
  rewrite gsspec. destruct (Pos.eqb_spec a a'); subst.
  - rewrite gsspec. destruct (Pos.eqb_spec (enc i) (enc i')) as [E|E].
    + apply enc_inj in E; subst. destruct loc_eq_dec; congruence.
    + destruct loc_eq_dec; congruence.
  - destruct loc_eq_dec; congruence.
Qed.

Lemma lget_single : forall l l' v,
  lget l (lsingle l' v) = if loc_eq_dec l l' then Some v else None.
Proof. intros. unfold lsingle. rewrite lget_set, lget_empty. reflexivity. Qed.

Lemma sub_merge : forall k a b,
  sub k (lmerge a b) =
  match get k b with
  | Some sb => match get k a with Some sa => merge sa sb | None => sb end
  | None => sub k a
  end.
Proof.
  unfold sub. induction k; destruct a, b; simpl; auto;
    try (rewrite get_leaf; destruct (get k _); auto);
    try (destruct o, o0; auto).
Qed.

Lemma lget_merge : forall l a b,
  lget l (lmerge a b) = match lget l b with Some v => Some v | None => lget l a end.
Proof.
  intros [k i] a b. unfold lget; simpl. rewrite sub_merge. unfold sub.
  destruct (get k b) as [sb|]; destruct (get k a) as [sa|]; simpl;
    try rewrite gmerge; try rewrite get_leaf; auto.
  destruct (get (enc i) sb); auto.
Qed.

Lemma lget_remove : forall l a m,
  lget l (lremove a m) = if Pos.eqb (fst l) a then None else lget l m.
Proof.
  intros [k i] a m. unfold lget, lremove, sub; simpl.
  rewrite grspec. destruct (Pos.eqb k a); auto. apply get_leaf.
Qed.

(** Every key of every inner trie is the code of a tuple: the maps the semantics builds. *)
Definition wf (m : lmap A) : Prop :=
  forall a k v, get k (sub a m) = Some v -> exists i, k = enc i.

Lemma wf_empty : wf lempty.
Proof. intros a k v H. rewrite sub_empty, get_leaf in H. discriminate. Qed.

Lemma wf_set : forall l v m, wf m -> wf (lset l v m).
Proof.
  intros [a i] v m W a' k v' H. unfold lset, sub in H; simpl in H.
  rewrite gsspec in H. destruct (Pos.eqb_spec a' a); subst.
  - rewrite gsspec in H. destruct (Pos.eqb_spec k (enc i)); subst; eauto.
  - eapply W. unfold sub. eauto.
Qed.

Lemma wf_single : forall l v, wf (lsingle l v).
Proof. intros. apply wf_set, wf_empty. Qed.

Lemma wf_merge : forall a b, wf a -> wf b -> wf (lmerge a b).
Proof.
  intros a b Wa Wb k' k v H. rewrite sub_merge in H.
  destruct (get k' b) as [sb|] eqn:Eb.
  - destruct (get k' a) as [sa|] eqn:Ea.
    + rewrite gmerge in H. destruct (get k sb) eqn:E.
      * apply (Wb k' k a0). unfold sub. rewrite Eb. auto.
      * apply (Wa k' k v). unfold sub. rewrite Ea. auto.
    + apply (Wb k' k v). unfold sub. rewrite Eb. auto.
  - eapply Wa; eauto.
Qed.

Lemma wf_remove : forall a m, wf m -> wf (lremove a m).
Proof.
  intros a m W k' k v H. unfold lremove, sub in H. rewrite grspec in H.
  destruct (Pos.eqb k' a). rewrite get_leaf in H; discriminate. eapply W; eauto.
Qed.

Lemma wf_fold_merge : forall ms acc, wf acc -> Forall wf ms -> wf (fold_left lmerge ms acc).
Proof.
  induction ms; simpl; intros acc W F; auto. inversion F; subst. apply IHms; auto.
  apply wf_merge; auto.
Qed.

End LMap.

(** Two-level structural tests, and what they mean for locations. *)
Section LMap2.
Context {A B : Type}.

Fixpoint ldisjoint (a : lmap A) (b : lmap B) : bool :=
  match a, b with
  | Leaf, _ => true
  | _, Leaf => true
  | Node al ao ar, Node bl bo br =>
      match ao, bo with Some sa, Some sb => disjoint sa sb | _, _ => true end
      && ldisjoint al bl && ldisjoint ar br
  end.

Lemma disjoint_leaf_r : forall (a : trie A), disjoint a (@Leaf B) = true.
Proof. destruct a; reflexivity. Qed.

Lemma agree_leaf_r : forall f (a : trie A), agree f a (@Leaf B) = true.
Proof. destruct a; reflexivity. Qed.

Lemma ldisjoint_raw : forall a b,
  ldisjoint a b = true -> forall k, disjoint (sub k a) (sub k b) = true.
Proof.
  induction a as [|al IHl ao ar IHr]; destruct b as [|bl bo br]; intros H k.
  - unfold sub at 1. rewrite get_leaf. reflexivity.
  - unfold sub at 1. rewrite get_leaf. reflexivity.
  - unfold sub at 2. rewrite get_leaf. apply disjoint_leaf_r.
  - simpl in H. apply andb_true_iff in H as [H H3]. apply andb_true_iff in H as [H1 H2].
    unfold sub. destruct k; simpl.
    + exact (IHr br H3 k).
    + exact (IHl bl H2 k).
    + destruct ao, bo; auto using disjoint_leaf_r.
Qed.

Lemma ldisjoint_spec : forall a b,
  ldisjoint a b = true -> forall l, lget l a = None \/ lget l b = None.
Proof.
  intros a b H [k i]. unfold lget; simpl. apply disjoint_spec. apply ldisjoint_raw; auto.
Qed.

Lemma ldisjoint_complete_raw : forall a b,
  (forall k, disjoint (sub k a) (sub k b) = true) -> ldisjoint a b = true.
Proof.
  induction a as [|al IHl ao ar IHr]; destruct b as [|bl bo br]; intros H; auto.
  simpl. rewrite IHl, IHr.
  - destruct ao, bo; rewrite ?andb_true_r; auto. apply (H xH).
  - intro k. apply (H (xI k)).
  - intro k. apply (H (xO k)).
Qed.

Lemma ldisjoint_complete : forall a b, wf a ->
  (forall l, lget l a = None \/ lget l b = None) -> ldisjoint a b = true.
Proof.
  intros a b W H. apply ldisjoint_complete_raw. intro k. apply disjoint_complete. intro c.
  destruct (get c (sub k a)) eqn:E; auto.
  destruct (W k c a0 E) as [i ->]. rewrite <- E. apply (H (k, i)).
Qed.

Fixpoint lagree (f : A -> B -> bool) (a : lmap A) (b : lmap B) : bool :=
  match a, b with
  | Leaf, _ => true
  | _, Leaf => true
  | Node al ao ar, Node bl bo br =>
      match ao, bo with Some sa, Some sb => agree f sa sb | _, _ => true end
      && lagree f al bl && lagree f ar br
  end.

Lemma lagree_raw : forall f a b,
  lagree f a b = true -> forall k, agree f (sub k a) (sub k b) = true.
Proof.
  induction a as [|al IHl ao ar IHr]; destruct b as [|bl bo br]; intros H k.
  - unfold sub at 1. rewrite get_leaf. reflexivity.
  - unfold sub at 1. rewrite get_leaf. reflexivity.
  - unfold sub at 2. rewrite get_leaf. apply agree_leaf_r.
  - simpl in H. apply andb_true_iff in H as [H H3]. apply andb_true_iff in H as [H1 H2].
    unfold sub. destruct k; simpl.
    + exact (IHr br H3 k).
    + exact (IHl bl H2 k).
    + destruct ao, bo; auto using agree_leaf_r.
Qed.

Lemma lagree_spec : forall f a b,
  lagree f a b = true -> forall l x y, lget l a = Some x -> lget l b = Some y -> f x y = true.
Proof.
  intros f a b H [k i] x y. unfold lget; simpl. apply agree_spec. apply lagree_raw; auto.
Qed.

Lemma lagree_complete_raw : forall f a b,
  (forall k, agree f (sub k a) (sub k b) = true) -> lagree f a b = true.
Proof.
  induction a as [|al IHl ao ar IHr]; destruct b as [|bl bo br]; intros H; auto.
  simpl. rewrite IHl, IHr.
  - destruct ao, bo; rewrite ?andb_true_r; auto. apply (H xH).
  - intro k. apply (H (xI k)).
  - intro k. apply (H (xO k)).
Qed.

Lemma lagree_complete : forall f a b, wf a ->
  (forall l x y, lget l a = Some x -> lget l b = Some y -> f x y = true) ->
  lagree f a b = true.
Proof.
  intros f a b W H. apply lagree_complete_raw. intro k. apply agree_complete. intros c x y Ha Hb.
  destruct (W k c x Ha) as [i ->]. apply (H (k, i)); auto.
Qed.

End LMap2.

Section LMapEq.
Context {A : Type}.

Fixpoint all_none_sub (t : lmap A) : bool :=
  match t with
  | Leaf => true
  | Node l o r =>
      match o with Some s => all_none s | None => true end && all_none_sub l && all_none_sub r
  end.

Lemma all_none_sub_spec : forall t, all_none_sub t = true -> forall k c, get c (sub k t) = None.
Proof.
  unfold sub. induction t; simpl; intros H k c.
  - rewrite get_leaf. apply get_leaf.
  - apply andb_true_iff in H as [H H3]. apply andb_true_iff in H as [H1 H2].
    destruct k; simpl; auto. destruct o; auto using all_none_spec.
Qed.

(** The two maps denote the same partial function on locations (entries compared by [f]). *)
Fixpoint lsame (f : A -> A -> bool) (a b : lmap A) : bool :=
  match a, b with
  | Leaf, _ => all_none_sub b
  | _, Leaf => all_none_sub a
  | Node al ao ar, Node bl bo br =>
      match ao, bo with
      | Some sa, Some sb => same f sa sb
      | Some sa, None => all_none sa
      | None, Some sb => all_none sb
      | None, None => true
      end && lsame f al bl && lsame f ar br
  end.

Lemma lsame_raw : forall f, (forall x y, f x y = true -> x = y) ->
  forall a b, lsame f a b = true -> forall k c, get c (sub k a) = get c (sub k b).
Proof.
  intros f Hf. induction a as [|al IHl ao ar IHr]; destruct b as [|bl bo br]; intros H k c.
  - reflexivity.
  - assert (H' : all_none_sub (Node bl bo br) = true) by exact H.
    rewrite (all_none_sub_spec _ H' k c). unfold sub. rewrite get_leaf. apply get_leaf.
  - assert (H' : all_none_sub (Node al ao ar) = true) by exact H.
    rewrite (all_none_sub_spec _ H' k c). unfold sub. rewrite get_leaf. symmetry. apply get_leaf.
  - simpl in H. apply andb_true_iff in H as [H H3]. apply andb_true_iff in H as [H1 H2].
    unfold sub. destruct k; simpl.
    + exact (IHr br H3 k c).
    + exact (IHl bl H2 k c).
    + destruct ao, bo; try rewrite get_leaf; eauto using same_spec, all_none_spec.
      symmetry. auto using all_none_spec.
Qed.

Lemma lsame_spec : forall f, (forall x y, f x y = true -> x = y) ->
  forall a b, lsame f a b = true -> forall l, lget l a = lget l b.
Proof.
  intros f Hf a b H [k i]. unfold lget; simpl. eapply lsame_raw; eauto.
Qed.

End LMapEq.

(** Folds of ▷ over a list of maps. *)
Lemma lget_fold_none : forall {A} (ds : list (lmap A)) acc l,
  lget l (fold_left lmerge ds acc) = None <->
  lget l acc = None /\ forall j, (j < length ds)%nat -> lget l (nth j ds lempty) = None.
Proof.
  induction ds as [|d ds IH]; simpl; intros acc l.
  - split; [intros H; split; auto; intros; lia | tauto].
  - rewrite IH, lget_merge. split.
    + intros [H1 H2]. destruct (lget l d) eqn:E; try discriminate. split; auto.
      intros [|j] J; auto. apply H2. lia.
    + intros [H1 H2]. pose proof (H2 0%nat ltac:(lia)) as H0. simpl in H0. rewrite H0.
      split; auto. intros j J. apply (H2 (S j)). lia.
Qed.

Lemma lget_fold_some : forall {A} (ds : list (lmap A)) acc l v,
  lget l (fold_left lmerge ds acc) = Some v ->
  lget l acc = Some v \/ exists j, (j < length ds)%nat /\ lget l (nth j ds lempty) = Some v.
Proof.
  induction ds as [|d ds IH]; simpl; intros acc l v H; auto.
  destruct (IH _ _ _ H) as [K|[j [J K]]].
  - rewrite lget_merge in K. destruct (lget l d) eqn:E.
    + inversion K; subst. right. exists 0%nat. split; auto. lia.
    + auto.
  - right. exists (S j). split; auto. lia.
Qed.

