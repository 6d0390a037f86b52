(* Memories μ, environments E, and the operations of the rules (thesis §4.2).

   A memory maps the locations of its domain to a value or ⊥. Every array of a SCHED program is a
   box (its cells a[i1, …, ik] with 0 ≤ ij < nj), so a memory is represented by the shape of each
   array name in scope and the values of its written cells: a cell of the box without a value holds
   ⊥, and a location outside every box is not in dom(μ). [mget μ ℓ] is None when ℓ ∉ dom(μ),
   Some None when μ(ℓ) = ⊥ and Some (Some v) when μ(ℓ) = v.

   μ ▷ δμ ([mupd]) updates the cells of δμ. The thesis's update would also add the locations of
   dom(δμ) outside dom(μ); no derivation has any (Remark 4.2.2, BigStep.v: dom(δμ) ⊆ dom(μ)), so
   the two agree wherever the rules use ▷. (μ ∖ a) ▷ μ_a of U-ALLOCATE ([alloc]) gives the name a
   the shape of μ_a and no written cell. *)

From Coq Require Import ZArith List Bool Lia.
From Sched Require Import Maps Values.
Import ListNotations.

(** The box of dims: 0 ≤ i_j < n_j for every j (and as many indices as dimensions). *)
Fixpoint in_box (idx dims : list Z) : bool :=
  match idx, dims with
  | [], [] => true
  | i :: idx', n :: dims' => (0 <=? i)%Z && (i <? n)%Z && in_box idx' dims'
  | _, _ => false
  end.

Record mem := Mem { shapes : trie (list Z); cells : lmap val }.

Definition mget (m : mem) (l : loc) : option (option val) :=
  match get (fst l) (shapes m) with
  | Some dims => if in_box (snd l) dims then Some (lget l (cells m)) else None
  | None => None
  end.

(** ℓ ∈ dom(μ) *)
Definition in_dom (m : mem) (l : loc) : Prop := mget m l <> None.

Definition in_domb (m : mem) (l : loc) : bool :=
  match mget m l with Some _ => true | None => false end.

Lemma in_domb_spec : forall m l, in_domb m l = true <-> in_dom m l.
Proof. intros. unfold in_domb, in_dom. destruct (mget m l); split; congruence. Qed.

(** μ ▷ δμ *)
Definition mupd (m : mem) (d : lmap val) : mem := Mem (shapes m) (lmerge (cells m) d).

(** (μ ∖ a) ▷ μ_a for a local array a of shape dims whose written cells are s (keyed by the codes
    of their index tuples, as in a memory). *)
Definition inject (m : mem) (a : ident) (dims : list Z) (s : trie val) : mem :=
  Mem (set a dims (shapes m)) (set a s (cells m)).

(** (μ ∖ a) ▷ μ_a with μ_a = {a[i1, …, ik] ↦ ⊥ | 0 ≤ ij < nj} *)
Definition alloc (m : mem) (a : ident) (dims : list Z) : mem := inject m a dims Leaf.

Lemma mget_upd : forall m d l,
  mget (mupd m d) l =
  match mget m l with
  | Some old => Some (match lget l d with Some v => Some v | None => old end)
  | None => None
  end.
Proof.
  intros m d l. unfold mget, mupd; simpl. destruct (get (fst l) (shapes m)); auto.
  destruct (in_box (snd l) l0); auto. rewrite lget_merge. reflexivity.
Qed.

Lemma mget_inject : forall m a dims s l,
  mget (inject m a dims s) l =
  if Pos.eqb (fst l) a then (if in_box (snd l) dims then Some (get (enc (snd l)) s) else None)
  else mget m l.
Proof.
  intros m a dims s l. unfold mget, inject, lget, sub; simpl. rewrite !gsspec.
  destruct (Pos.eqb_spec (fst l) a); auto.
Qed.

Lemma mget_alloc : forall m a dims l,
  mget (alloc m a dims) l =
  if Pos.eqb (fst l) a then (if in_box (snd l) dims then Some None else None) else mget m l.
Proof.
  intros m a dims l. unfold alloc. rewrite mget_inject. rewrite get_leaf. auto.
Qed.

Lemma in_dom_upd : forall m d l, in_dom (mupd m d) l <-> in_dom m l.
Proof.
  intros. unfold in_dom. rewrite mget_upd. destruct (mget m l); split; congruence.
Qed.

Lemma mupd_empty : forall m l, mget (mupd m lempty) l = mget m l.
Proof. intros. rewrite mget_upd, lget_empty. destruct (mget m l); auto. Qed.

(** μ and μ' agree on ρ (Definition 4.2.1): the same content (or absence) at every ℓ ∈ ρ. *)
Definition agree_on {B} (m m' : mem) (r : lmap B) : Prop :=
  forall l, lget l r <> None -> mget m l = mget m' l.

(** Environments E: the values of the variables in scope (integers and Booleans). *)
Definition env := trie val.

(** The same memory: the same content at every location (and the same domain). *)
Definition mequiv (m m' : mem) : Prop := forall l, mget m l = mget m' l.
