(* The syntax of SCHED implementations: expressions (thesis Fig. 4.1) and commands (Fig. 4.2).

   Differences with the figures, all of them choices of presentation:
   - Names (variables x and arrays a) are positives; the exporter numbers them and writes the
     source names in comments.
   - Literals l are values (Values.v): a literal is what the parser makes of it, typed as the
     type checker decided (an index literal is a [VZ], an f32 literal a [VF32], …).
   - Fig. 4.1's quasi-affine operators ι1 + ι2, n·ι, ⌊ι/n⌋, ι mod n are [EIdx IAdd/IMul/IDiv/IMod];
     the language also has ι1 − ι2, min and max on indices ([ISub], [IMin], [IMax]), and n is any
     expression whose value is an integer (the type checker makes it a positive constant for / and
     mod, and one factor of a product constant).
   - Comparisons of indices [ECmp] have all six operators (Fig. 4.1: =, ≠, <, ≤).
   - Operations on values (+ on i32, < on f64, casts, sqrt, …) are calls f(e1, …, en) of Fig. 4.1,
     [ECall]: "any primitive operation on values … is implemented using such function calls".
   - Commands carry no prophetic annotation {t}: it is ghost code that the dynamic semantics
     ignores (§4.1), and nothing here depends on it. Allocation carries no element type τ for the
     same reason (every cell starts ⊥).
   - `if ι then c` without else is [CIf ι c CSkip]; a sequence c1; c2; …; cn is c1; (c2; (…; cn)).
   - The small-step semantics' parallel composition c1 ∥ c2 and block inalloc μ_a do c are two
     more commands, as in §4.3: μ_a, the local array a's cells, is its shape and a trie of the
     cells written (keyed like a memory's). *)

From Coq Require Import ZArith List.
From Sched Require Import Maps Values.
Import ListNotations.

Inductive ibinop := IAdd | ISub | IMul | IDiv | IMod | IMin | IMax.

Inductive expr :=
| EVar (x : ident)
| EConst (v : val)
| EArr (a : ident) (idx : list expr)
| ELet (x : ident) (e1 e2 : expr)
| EIdx (op : ibinop) (e1 e2 : expr)
| ECmp (c : cmpop) (e1 e2 : expr)
| EAnd (e1 e2 : expr)
| EOr (e1 e2 : expr)
| ENot (e : expr)
| ESelect (c e1 e2 : expr)
| ECall (f : fn) (args : list expr).

Inductive cmd :=
| CSkip
| CSeq (c1 c2 : cmd)
| CAssign (a : ident) (idx : list expr) (e : expr)
| CIf (e : expr) (c1 c2 : cmd)
| CLet (x : ident) (e : expr) (c : cmd)
| CAlloc (a : ident) (dims : list expr) (c : cmd)
| CFor (x : ident) (e : expr) (c : cmd)
| CPar (x : ident) (e : expr) (c : cmd)
(* The intermediate terms of the small-step semantics (§4.3, Fig. 4.6), which the big-step
   semantics also gives a meaning (U-PAR, U-INALLOC): never in a program. *)
| CParComp (c1 c2 : cmd)                                  (* c1 ∥ c2 *)
| CInAlloc (a : ident) (dims : list Z) (s : trie val) (c : cmd).   (* inalloc μ_a do c *)

(** Induction over expressions with the hypothesis for every element of an argument list. *)
Section ExprInd.
Variable P : expr -> Prop.
Hypothesis HVar : forall x, P (EVar x).
Hypothesis HConst : forall v, P (EConst v).
Hypothesis HArr : forall a idx, Forall P idx -> P (EArr a idx).
Hypothesis HLet : forall x e1 e2, P e1 -> P e2 -> P (ELet x e1 e2).
Hypothesis HIdx : forall op e1 e2, P e1 -> P e2 -> P (EIdx op e1 e2).
Hypothesis HCmp : forall c e1 e2, P e1 -> P e2 -> P (ECmp c e1 e2).
Hypothesis HAnd : forall e1 e2, P e1 -> P e2 -> P (EAnd e1 e2).
Hypothesis HOr : forall e1 e2, P e1 -> P e2 -> P (EOr e1 e2).
Hypothesis HNot : forall e, P e -> P (ENot e).
Hypothesis HSelect : forall c e1 e2, P c -> P e1 -> P e2 -> P (ESelect c e1 e2).
Hypothesis HCall : forall f args, Forall P args -> P (ECall f args).

Fixpoint expr_ind' (e : expr) : P e :=
  match e with
  | EVar x => HVar x
  | EConst v => HConst v
  | EArr a idx => HArr a idx ((fix go l := match l return Forall P l with
                                           | [] => Forall_nil _
                                           | e :: l' => Forall_cons _ (expr_ind' e) (go l')
                                           end) idx)
  | ELet x e1 e2 => HLet x e1 e2 (expr_ind' e1) (expr_ind' e2)
  | EIdx op e1 e2 => HIdx op e1 e2 (expr_ind' e1) (expr_ind' e2)
  | ECmp c e1 e2 => HCmp c e1 e2 (expr_ind' e1) (expr_ind' e2)
  | EAnd e1 e2 => HAnd e1 e2 (expr_ind' e1) (expr_ind' e2)
  | EOr e1 e2 => HOr e1 e2 (expr_ind' e1) (expr_ind' e2)
  | ENot e => HNot e (expr_ind' e)
  | ESelect c e1 e2 => HSelect c e1 e2 (expr_ind' c) (expr_ind' e1) (expr_ind' e2)
  | ECall f args => HCall f args ((fix go l := match l return Forall P l with
                                              | [] => Forall_nil _
                                              | e :: l' => Forall_cons _ (expr_ind' e) (go l')
                                              end) args)
  end.
End ExprInd.
