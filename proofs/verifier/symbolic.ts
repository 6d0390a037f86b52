// The symbolic evaluator Γ; h ⊢ C ⟹ c : ⟨Δh; R⟩ of thesis Figure 5.4, one method per rule
// (S-SKIP, S-SEQ, S-IF, S-LET, S-SEQLOOP, S-PARLOOP, S-ALLOCATE, S-ASSIGN), with the prophetic
// evaluation Γ ⊢ c : Δh of Figure 5.3 (T-…) computing the loop summaries that tie the knot in
// S-SEQLOOP. The constraints C are emitted as proof obligations (proofs/verifier/obligation.ts): SMT-LIB
// scripts that must be unsat. Bounds and definedness side conditions of S-ASSIGN, rw-safe and
// ww-covered of S-PARLOOP, and the output check of §5.4 are obligations too.

import type { ArrayRead, Assign, Cmd, Expr, Loop, ValueType } from '../../core/language/ast.ts';
import { hasChecked, T_INDEX, tValue } from '../../core/language/ast.ts';
import { substExpr, typedNeutral } from '../../core/language/reductions.ts';
import { ghostLiteral, ghostName, holds, inReductionDomain, markerPrefix, type MarkerKind, type ReductionInfo, reductionInfos } from './reduction-heap.ts';
import type { Formula, PRel, PSet, RelPiece, Term } from '../../core/presburger/types.ts';
import { and, andAll, eqT, exists, FALSE, geT, iff, implies, ltT, neT, not, orAll, TRUE } from '../../core/presburger/formula.ts';
import { entails } from '../../core/presburger/entail.ts';
import { constant, variable } from '../../core/presburger/term.ts';
import { fresh } from '../../core/presburger/names.ts';
import { tupleVars } from '../../core/presburger/tuple.ts';
import { renameFormula, substFormula } from '../../core/presburger/subst.ts';
import { formulaVars, termVars } from '../../core/presburger/vars.ts';
import { formulaToSmt, smtSymbol, termToSmt } from '../../core/presburger/smtlib.ts';
import { printRel, printSet, printFormula, printTerm } from '../../core/presburger/print.ts';
import { printExpr } from '../../core/language/printer.ts';
import type { CheckedImpl } from '../../core/language/typecheck.ts';
import { type AffineEnv, formulaOf, termOf } from '../../core/language/affine.ts';
import {
  domainSet, EMPTY_HEAP, inDomain, iterUpdate, declaredHeap, norm, renameHeapVar,
  patternWrite, restrict, setWrite, singleWrite, substHeap, unionHeaps,
  update, withoutArray,
} from './heap.ts';
import { ReadSet } from './read-set.ts';
import { HOLE_PREFIX, TemplateTable } from './template.ts';
import type { Obligation, ObligationKind } from './obligation.ts';
import { renameBinders } from './rename.ts';
import { type FloatMode, ValueEncoder } from './smt-values.ts';
import { axiomsSuffice, relevantRecursive, specEncoding, tensorsMentioned } from './smt-spec.ts';
import { inlineLets } from './inline.ts';
import { visit } from '../../core/language/walk.ts';
import { type LoadGuard, loadGuards } from './load-guard.ts';
import { type Alternative, readAlternatives } from './lookup.ts';
import { Congruence, type Side } from './congruence.ts';
import { interfaceConditions } from './interface.ts';

/** Γ: the affine facts in scope (assumptions, loop bounds, branch conditions, let equalities)
 *  and the arrays with their shapes. */
interface Gamma {
  readonly facts: readonly Formula[];
  readonly arrays: ReadonlyMap<string, ArrayShape>;
  /** Loop and let variables in scope, outermost first (unique names). */
  readonly vars: readonly string[];
}

interface ArrayShape {
  readonly elem: ValueType;
  readonly dims: readonly Term[];
  readonly sourceName: string;
}

/** ⟨Δh; R⟩. */
interface SymResult {
  readonly dh: PRel;
  readonly reads: ReadSet;
}

/** An obligation before its script is rendered for a float mode. */
export interface PendingObligation {
  readonly id: string;
  readonly kind: ObligationKind;
  readonly rule: string;
  readonly line: number;
  readonly col: number;
  readonly description: string;
  /** Whether the script depends on the float encoding (value obligations). */
  readonly usesValues: boolean;
  /** Free integer variables whose values a counterexample reports (parameters, loop variables). */
  readonly report: readonly string[];
  /** The script in a float encoding; `relevant`: only the spec axioms the claim needs first. */
  render(mode: FloatMode, axioms?: 'relevant' | 'all'): Obligation;
  /** A weaker obligation that suffices when this one fails (ww-covered: sv, else conflicts-ok). */
  readonly fallback?: () => PendingObligation;
  /** Γ at the obligation: where to look for a concrete counterexample when it is not proved. */
  readonly context: readonly Formula[];
  /** For Presburger obligations: Γ ∧ ¬goal, whose unsatisfiability is the obligation. */
  readonly refutation?: Formula;
  /** For value obligations: drop the heap alternatives that contradict Γ (before rendering). */
  readonly prepare?: (feasible: Feasibility) => Promise<void>;
  /**
   * For value obligations: a Presburger obligation that implies this one by congruence (the
   * written expression and the annotation have the same shape), or null (proofs/verifier/congruence.ts).
   * Built after `prepare`, for the encoding it is first tried in (closed float terms are compared
   * by their IEEE values except under `real`).
   */
  readonly congruence?: (mode: FloatMode) => Obligation[] | null;
  /** For rw-race obligations: the ids of the obligations of the loop's body. */
  readonly body?: ReadonlySet<string>;
}

/** Which of these conditions are satisfiable together with `facts` (false: certainly not). */
export type Feasibility = (facts: readonly Formula[], conds: readonly Formula[]) => Promise<boolean[]>;

interface PreparedRead {
  alternatives: Alternative[];
}

async function pruneReads(reads: readonly PreparedRead[], facts: readonly Formula[], feasible: Feasibility): Promise<void> {
  for (const r of reads) {
    if (r.alternatives.length <= 1) continue;
    const keep = await feasible(facts, r.alternatives.map((a) => a.cond));
    r.alternatives = r.alternatives.filter((_, k) => keep[k]);
  }
}

export interface EvaluationLog {
  (depth: number, text: string): void;
}

/** A construct the verifier does not handle (the verdict is `unknown (unsupported)`), at its position. */
export class UnsupportedConstruct extends Error {
  constructor(
    message: string,
    readonly pos: { readonly line: number; readonly col: number },
  ) {
    super(message);
  }
}

function sortedVars(fs: readonly Formula[], extra: Iterable<string> = []): string[] {
  const vs = new Set<string>(extra);
  for (const f of fs) for (const v of formulaVars(f)) vs.add(v);
  return [...vs].sort();
}

function declInts(vs: readonly string[]): string[] {
  return vs.map((v) => `(declare-const ${smtSymbol(v)} Int)`);
}

export class SymbolicEvaluator {
  readonly obligations: PendingObligation[] = [];
  /** The expression contexts of this verification's heaps (never shared with another spec). */
  readonly templates = new TemplateTable();
  private readonly prophetic = new Map<Cmd, PRel>();
  private counter = 0;
  private readonly params: readonly string[];
  private readonly sourceName: Map<string, string>;
  readonly body: Cmd;
  /** The spec's reduction tensors (core/language/reductions.ts). */
  readonly reductions: ReadonlyMap<string, ReductionInfo>;
  /** Array → the reduction tensors accumulated into it somewhere in the body. */
  readonly accumulated = new Map<string, Set<string>>();
  /**
   * Per reduction tensor: obligations that each accumulation comes after every live position
   * of its cell in lexicographic order (so the cell folds in the spec's order, exactly even on
   * IEEE floats); a tensor with a transfer is never in order. Not verdict obligations: when they
   * fail, the reduction is only proved up to reassociation (proofs/verifier/reduction-verdict.ts).
   */
  readonly inOrder = new Map<string, PendingObligation[] | 'transferred'>();
  /** Per transfer: the positions it moves, as the prophetic evaluation saw them (re-checked). */
  private readonly transfers = new Map<Cmd, { ks: string[]; moved: Formula }>();

  constructor(
    readonly ci: CheckedImpl,
    private readonly log: EvaluationLog | null = null,
  ) {
    this.params = ci.spec.params;
    const r = renameBinders(ci.impl.body, [...this.params, ...ci.arrays.keys()]);
    this.body = r.body;
    this.sourceName = new Map(r.sourceName);
    this.reductions = reductionInfos(ci.spec.spec);
    const scan = (c: Cmd): void => {
      switch (c.kind) {
        case 'assign':
          if (c.accum && c.annot?.kind === 'tensor') {
            const add = (a: string): void => void (this.accumulated.get(a) ?? this.accumulated.set(a, new Set()).get(a)!).add((c.annot as { name: string }).name);
            add(c.array);
            if (c.accum.at === null && c.accum.elem.kind === 'array') add(c.accum.elem.name);
          }
          return;
        case 'seq':
          return c.cmds.forEach(scan);
        case 'if':
          scan(c.then);
          if (c.else) scan(c.else);
          return;
        case 'let':
        case 'allocate':
        case 'for':
        case 'par':
          return scan(c.body);
        case 'skip':
          return;
      }
    };
    scan(this.body);
  }

  /** Whether the body accumulates into arrays (the reduction rules are in use). */
  get usesReductions(): boolean {
    return this.accumulated.size > 0;
  }

  /** The source name of a (renamed) variable or array. */
  source(n: string): string {
    return this.sourceName.get(n) ?? n;
  }

  private nextId(): string {
    return `vc${String(++this.counter).padStart(3, '0')}`;
  }

  /** A trace line; `text` is only built when there is a trace (printing heaps is not free). */
  private say(depth: number, text: () => string): void {
    if (this.log) this.log(depth, text());
  }

  // -- obligations ------------------------------------------------------------------------------

  /** Γ ⊢ goal, as an obligation: Γ ∧ ¬goal must be unsat. */
  private validity(kind: ObligationKind, rule: string, at: { pos: { line: number; col: number } }, description: string, g: Gamma, goal: Formula, body?: ReadonlySet<string>, inexact: string | null = null): void {
    const { script, refutation } = this.validityScript(g.facts, goal);
    const id = this.nextId();
    this.obligations.push({
      id, kind, rule, line: at.pos.line, col: at.pos.col, description, usesValues: false, report: this.reportVars(g), context: g.facts,
      refutation, body,
      render: () => ({ id, kind, rule, line: at.pos.line, col: at.pos.col, description, script, float: null, inexact }),
    });
  }

  /** Γ ⇒ goal as a script that must be unsat, and its refutation formula. */
  private validityScript(facts: readonly Formula[], goal: Formula): { script: string; refutation: Formula } {
    // Existentials in positive position of a satisfiability query are free variables (each
    // renamed apart); what stays quantified is only what occurs under a negation.
    const negGoal = skolemize(not(goal));
    const vars = sortedVars([...facts, negGoal], this.params);
    const script = canonicalNames([
      '(set-logic ALL)',
      '(set-info :status unsat)',
      ...declInts(vars),
      ...facts.map((f, k) => `(assert (! ${formulaToSmt(f)} :named ctx.${k}))`),
      `(assert (! ${formulaToSmt(negGoal)} :named goal))`,
    ].join('\n'));
    return { script, refutation: andAll([...facts, negGoal]) };
  }

  /**
   * The obligation `id` by congruence: one Presburger obligation `id.k` per claim (Γ ⇒ claim), whose
   * conjunction implies the value equality (proofs/verifier/congruence.ts); null when the shapes differ.
   */
  private congruenceObligations(id: string, kind: ObligationKind, rule: string, at: { line: number; col: number }, description: string, facts: readonly Formula[], claims: readonly Formula[] | null): Obligation[] | null {
    if (claims === null) return null;
    return claims.map((claim, k) => ({
      id: `${id}.${k + 1}`,
      kind,
      rule: `${rule} by congruence`,
      line: at.line,
      col: at.col,
      description: `${description}: part ${k + 1} of ${claims.length} of a proof by congruence (same shape; ${k === 0 ? 'index equalities and equation guards' : 'an array read holds the spec term it faces'})`,
      script: this.validityScript(facts, claim).script,
      float: null,
    }));
  }

  /** What a read (its heap alternatives) must satisfy to hold the spec term `spec` (null: cannot tell). */
  private leafClaim(cg: Congruence, read: PreparedRead, spec: Side): Formula[] | null {
    if (read.alternatives.length === 0) return null;
    const parts: Formula[] = [];
    for (const a of read.alternatives) {
      const t = this.templates.get(a.template);
      if (!t) return null;
      const f = cg.same({ expr: t.expr, env: holeEnv(a.holes) }, spec);
      if (f === null) return null;
      parts.push(implies(a.cond, f));
    }
    return parts;
  }

  /** Emptiness of a set given by a formula (its tuple variables free): an obligation. */
  private emptiness(kind: ObligationKind, rule: string, at: { pos: { line: number; col: number } }, description: string, g: Gamma, witness: Formula, body?: ReadonlySet<string>): void {
    this.validity(kind, rule, at, description, g, not(witness), body);
  }

  private reportVars(g: Gamma): string[] {
    return [...this.params, ...g.vars];
  }

  // -- entry point ----------------------------------------------------------------------------

  /** Symbolically evaluate the implementation, then check its outputs (§5.4). */
  run(): void {
    const ci = this.ci;
    const facts: Formula[] = [...ci.spec.spec.assumes, ...ci.impl.assumes].map((a) => norm(formulaOf(a)));
    const arrays = new Map<string, ArrayShape>();
    let h0: PRel = EMPTY_HEAP;
    for (const [name, info] of ci.arrays) {
      const dims = info.decl.dims.map((d) => termOf(d));
      arrays.set(name, { elem: info.decl.elem, dims, sourceName: name });
      if (info.decl.role === 'input' && info.value !== null) {
        const box = andAll(info.vars.map((v, k) => and(geT(variable(v), constant(0n)), ltT(variable(v), dims[k]!))));
        const where = info.decl.where ? formulaOf(info.decl.where) : TRUE;
        const d = this.templates.decompose(info.value, (n) => variable(n));
        h0 = unionHeaps(h0, declaredHeap(name, info.vars, and(box, where), d.template, d.holes));
      }
    }
    const g0: Gamma = { facts, arrays, vars: [] };
    // The interface first: an output bound on part of its domain (or beyond it) is the verdict,
    // whatever the loops do.
    for (const cond of interfaceConditions(ci)) {
      for (const [v, shown] of cond.shown) this.sourceName.set(v, shown);
      this.validity('interface', cond.rule, { pos: { line: cond.line, col: cond.col } }, cond.description, { ...g0, vars: [...cond.shown.keys()] }, cond.goal);
    }
    this.say(0, () => `input heap: ${printRel(h0, { thesis: true })}`);
    const res = this.evalCmd(this.body, h0, g0, 0);
    const hFinal = update(h0, res.dh);
    this.say(0, () => `final heap: ${printRel(hFinal, { thesis: true })}`);
    this.checkOutputs(hFinal, g0);
  }

  // -- prophetic evaluation (Fig. 5.3) ------------------------------------------------------------

  /**
   * Γ ⊢ c : Δh — the writes of c as its annotations claim them; memoised per command. `hb` is
   * the heap known before c (textually earlier writes): a transfer of a partial accumulator
   * looks up there which positions it moves (§7.3.3), and the symbolic evaluation re-checks it.
   */
  propheticOf(c: Cmd, g: Gamma, hb: PRel = EMPTY_HEAP): PRel {
    const hit = this.prophetic.get(c);
    if (hit) return hit;
    let r: PRel;
    switch (c.kind) {
      case 'skip':
        r = EMPTY_HEAP; // T-SKIP
        break;
      case 'seq':
        r = c.cmds.reduce((acc, x) => update(acc, this.propheticOf(x, g, update(hb, acc))), EMPTY_HEAP); // T-SEQ
        break;
      case 'assign':
        r = c.accum ? this.accumulationWrite(c, hb) : this.assignWrite(c); // T-ASSIGN, P-OPASSIGN
        break;
      case 'if': {
        // T-IF
        const b = formulaOf(c.cond, this.env);
        const t = restrict(this.propheticOf(c.then, g, hb), b);
        const e = c.else ? restrict(this.propheticOf(c.else, g, hb), not(b)) : EMPTY_HEAP;
        r = unionHeaps(t, e);
        break;
      }
      case 'let': {
        const v = termOf(c.value, this.env);
        r = substHeap(this.propheticOf(c.body, g, hb), c.name, v);
        break;
      }
      case 'allocate':
        r = withoutArray(this.propheticOf(c.body, this.withAllocation(g, c), withoutArray(hb, c.name)), c.name); // T-ALLOCATE
        for (const t of this.accumulated.get(c.name) ?? []) r = withoutArray(r, ghostName(c.name, t));
        break;
      case 'for':
      case 'par':
        // T-SEQLOOP: iterated update; T-PARLOOP: v(⋃) — one writer chosen per location, here the
        // last one, which is exactly the iterated update.
        r = iterUpdate(this.propheticOf(c.body, g, hb), c.var, constant(0n), termOf(c.bound, this.env));
        break;
    }
    this.prophetic.set(c, r);
    return r;
  }

  private readonly env: AffineEnv = (n) => variable(n);

  private assignWrite(c: Extract<Cmd, { kind: 'assign' }>): PRel {
    if (c.annot === null) {
      throw new UnsupportedConstruct(`line ${c.pos.line}: the assignment to '${this.source(c.array)}' has no prophetic annotation {…}; the verifier needs one on every assignment`, c.pos);
    }
    const loc = c.indices.map((i) => termOf(i, this.env));
    const d = this.templates.decompose(inlineLets(c.annot), this.env);
    let w = singleWrite(c.array, loc, d.template, d.holes);
    // An overwrite ends every accumulation into the cell: its contributions are no longer live.
    for (const t of this.accumulated.get(c.array) ?? []) w = unionHeaps(w, this.clearGhost(c.array, t, loc));
    // Partial accumulators combined in the expression are used up, as by a transfer.
    for (const leaf of this.combineLeaves(c) ?? []) {
      const tensor = (c.annot as { name: string }).name;
      const at = leaf.indices.map((i) => termOf(i, this.env));
      const cT = (c.annot as { indices: readonly Expr[] }).indices.map((x) => termOf(inlineLets(x), this.env));
      w = unionHeaps(w, singleWrite(leaf.name, at, this.templates.get(this.markerTemplate('moved', tensor))!, cT));
      w = unionHeaps(w, this.clearGhost(leaf.name, tensor, at));
    }
    return w;
  }

  /**
   * Gap 18 of the chapter: `a[ι] {T(c)} := p1 op p2 op …`, partial accumulators of T(c) combined
   * inside an expression (`(t[0] + t[1]) + (t[2] + t[3])`, §7.1), for a T without an initial
   * value: the leaves, or null when the assignment is not of that form.
   */
  private combineLeaves(c: Assign): ArrayRead[] | null {
    if (c.accum || c.annot === null || c.annot.kind !== 'tensor') return null;
    const info = this.reductions.get(c.annot.name);
    if (!info || info.def.init !== null) return null;
    const op = info.def.op;
    const leaves: ArrayRead[] = [];
    const walk = (e: Expr): boolean => {
      if (e.kind === 'array') return leaves.push(e) > 0;
      if (e.kind === 'binary' && e.op === op) return walk(e.left) && walk(e.right);
      if (e.kind === 'call' && e.fn === op && e.args.length === 2) return walk(e.args[0]!) && walk(e.args[1]!);
      return false;
    };
    const tensor = c.annot.name;
    return walk(inlineLets(c.rhs)) && leaves.length >= 2 && leaves.every((l) => this.accumulated.get(l.name)?.has(tensor)) ? leaves : null;
  }

  /** RED-COMBINE: the leaves are partial accumulators of T(c) whose positions partition T's domain. */
  private sCombine(c: Assign, leaves: readonly ArrayRead[], h: PRel, g: Gamma, depth: number): SymResult {
    const shape = g.arrays.get(c.array);
    if (!shape) throw new Error(`internal: array ${c.array} not in Γ`);
    const loc = c.indices.map((i) => termOf(i, this.env));
    const name = this.source(c.array);
    this.validity('write-bounds', 'S-ASSIGN', c, `the write to ${name}[…] at line ${c.pos.line} is inside the array`, g, inBox(loc, shape.dims));
    const annot = c.annot as Extract<Expr, { kind: 'tensor' }>;
    const tensor = annot.name;
    const info = this.reductions.get(tensor)!;
    const cT = annot.indices.map((x) => termOf(inlineLets(x), this.env));
    const ks = info.def.dims.map((d) => fresh(d.var));
    ks.forEach((k, i) => this.sourceName.set(k, info.def.dims[i]!.var));
    const kT = ks.map((k) => variable(k));
    const gk: Gamma = { ...g, vars: [...g.vars, ...ks] };
    const liveKey = this.templates.decompose(ghostLiteral(true), this.env).template.key;
    const where = `the combination of partial accumulators written to ${name}[…] at line ${c.pos.line}`;
    let readSet = ReadSet.EMPTY;
    const lives: Formula[] = [];
    for (const rd of leaves) {
      const rs = g.arrays.get(rd.name)!;
      const at = rd.indices.map((i) => termOf(i, this.env));
      this.validity('read-bounds', 'S-ASSIGN', rd, `the read of ${this.source(rd.name)}[…] at line ${rd.pos.line} is inside the array`, g, inBox(at, rs.dims));
      this.validity('read-defined', 'S-ASSIGN', rd, `the read of ${this.source(rd.name)}[…] at line ${rd.pos.line} finds a value (written earlier or an input)`, g, norm(inDomain(h, rd.name, at)));
      const live = holds(h, ghostName(rd.name, tensor), [...at, ...cT, ...kT], liveKey, []);
      const isPart = norm(holds(h, rd.name, at, this.markerTemplate('part', tensor), cT));
      const notPart: Gamma = { ...g, facts: [...g.facts, norm(not(isPart))] };
      this.validity('reduction', 'RED-COMBINE', rd, `${where} reads a cell with no live position of ${tensor}(…) unless it is a partial accumulator of it`, { ...notPart, vars: [...g.vars, ...ks] }, not(live));
      this.completionCheck(rd.name, at, h, notPart, rd, `${where}, when a term is not a partial accumulator,`);
      this.valueObligation({ ...c, annot: this.neutralOf(info), rhs: rd }, h, notPart, rd, [rd], { rule: 'RED-COMBINE', description: `${where} reads the neutral element of ${info.def.op} when a term is not a partial accumulator of ${tensor}(…)` });
      lives.push(live);
      readSet = readSet.union(ReadSet.read(rd.name, at));
    }
    const overlaps = lives.flatMap((a, i) => lives.slice(i + 1).map((b) => and(a, b)));
    this.validity('reduction', 'RED-COMBINE', c, `${where}: no position is in two of the partial accumulators`, gk, not(orAll(overlaps)));
    this.validity('reduction', 'RED-COMBINE', c, `${where}: the partial accumulators hold exactly the domain of ${tensor}(…)`, gk, iff(orAll(lives), inReductionDomain(info, cT, kT)));
    this.inOrder.set(tensor, 'transferred');
    const dh = this.propheticOf(c, g, h);
    this.say(depth, () => `<= S-Assign(${name}) combining partial accumulators: Δh ← ${printRel(dh, { thesis: true })}`);
    return { dh, reads: readSet };
  }

  // -- reductions (thesis §7.5, in the form of proofs/verifier/reduction-heap.ts) ---------------------------

  private clearGhost(array: string, tensor: string, loc: readonly Term[]): PRel {
    const info = this.reductions.get(tensor);
    const rest = info ? info.def.vars.length + info.def.dims.length : 0;
    const dead = this.templates.decompose(ghostLiteral(false), this.env);
    return patternWrite(ghostName(array, tensor), [...loc, ...Array.from({ length: rest }, () => null)], dead.template, []);
  }

  /** What an accumulation or transfer contributes to: T, its reduction, c, κ, and the marker kind. */
  private accumulationOf(c: Assign): { tensor: string; info: ReductionInfo; cs: Expr[]; cT: Term[]; kT: Term[] | null; kind: MarkerKind } {
    const a = c.accum!;
    const where = `line ${c.pos.line}: the accumulation into '${this.source(c.array)}'`;
    if (c.annot === null || c.annot.kind !== 'tensor') throw new UnsupportedConstruct(`${where} has no annotation {T(…)@(…)} naming the reduction it contributes to`, c.pos);
    const info = this.reductions.get(c.annot.name);
    if (!info) throw new UnsupportedConstruct(`${where} is annotated with '${c.annot.name}', which is not defined by a reduction in the spec (write 'T(x) = sum{…}(…)')`, c.pos);
    if (a.at !== null && a.at.length !== info.def.dims.length) throw new UnsupportedConstruct(`${where} gives ${a.at.length} position indices; the reduction of '${c.annot.name}' has ${info.def.dims.length}`, c.pos);
    if (a.at === null && a.elem.kind !== 'array') throw new UnsupportedConstruct(`${where} transfers something other than an array cell`, c.pos);
    const cs = c.annot.indices.map((x) => inlineLets(x));
    const cT = cs.map((x) => termOf(x, this.env));
    const kT = a.at === null ? null : a.at.map((x) => termOf(inlineLets(x), this.env));
    const kind: MarkerKind = a.partial || info.def.init === null ? 'part' : 'acc';
    return { tensor: c.annot.name, info, cs, cT, kT, kind };
  }

  /** The context T(□0, …, □n-1) of a reduction tensor, under a marker's name. */
  private markerTemplate(kind: MarkerKind, tensor: string): string {
    const info = this.reductions.get(tensor)!;
    const holes: Expr[] = info.def.vars.map((_, k) => ({ kind: 'var', name: `${HOLE_PREFIX}${k}`, pos: info.def.pos, ty: T_INDEX }));
    const canonical: Expr = { kind: 'tensor', name: tensor, indices: holes, pos: info.def.pos, ty: tValue(info.type) };
    return this.templates.marked(markerPrefix(kind), this.templates.decompose(canonical, (n) => variable(n))).template.key;
  }

  /** P-OPASSIGN (and the transfer of §7.3.3): the cell gets its marker, the ghost the positions. */
  private accumulationWrite(c: Assign, hb: PRel): PRel {
    const r = this.accumulationOf(c);
    const loc = c.indices.map((i) => termOf(i, this.env));
    const tmpl = (key: string) => this.templates.get(key)!;
    const live = this.templates.decompose(ghostLiteral(true), this.env).template;
    let w = singleWrite(c.array, loc, tmpl(this.markerTemplate(r.kind, r.tensor)), r.cT);
    const ghost = ghostName(c.array, r.tensor);
    if (r.kT !== null) return unionHeaps(w, singleWrite(ghost, [...loc, ...r.cT, ...r.kT], live, []));
    const src = c.accum!.elem as ArrayRead;
    const srcLoc = src.indices.map((i) => termOf(inlineLets(i), this.env));
    const ks = r.info.def.dims.map((d) => fresh(d.var));
    const srcGhost = ghostName(src.name, r.tensor);
    const moved = norm(holds(hb, srcGhost, [...srcLoc, ...r.cT, ...ks.map((k) => variable(k))], live.key, []));
    this.transfers.set(c, { ks, moved });
    w = unionHeaps(w, singleWrite(src.name, srcLoc, tmpl(this.markerTemplate('moved', r.tensor)), r.cT));
    w = unionHeaps(w, this.clearGhost(src.name, r.tensor, srcLoc));
    return unionHeaps(w, setWrite(ghost, [...loc, ...r.cT], ks, moved, live));
  }

  /**
   * RED-COMPLETE: a read of a cell as a value sees no reduction in progress — a cell holding the
   * marker of T(c) holds T(c) only when its live positions are exactly T's domain at c (and it
   * started from T's initial value); a partial accumulator of a reduction with a non-neutral
   * initial value, or one whose contributions were moved, is never read as a value.
   */
  private completionCheck(array: string, at: readonly Term[], h: PRel, g: Gamma, where: { pos: { line: number; col: number } }, what: string): void {
    for (const tensor of this.accumulated.get(array) ?? []) {
      const info = this.reductions.get(tensor);
      if (!info) continue;
      const ys = info.def.vars.map((v) => fresh(v));
      const ks = info.def.dims.map((d) => fresh(d.var));
      const yT = ys.map((y) => variable(y));
      const kT = ks.map((k) => variable(k));
      ys.forEach((y, k) => this.sourceName.set(y, `${tensor} index ${k}`));
      ks.forEach((k, i) => this.sourceName.set(k, info.def.dims[i]!.var));
      const liveKey = this.templates.decompose(ghostLiteral(true), this.env).template.key;
      const live = holds(h, ghostName(array, tensor), [...at, ...yT, ...kT], liveKey, []);
      const complete = iff(live, inReductionDomain(info, yT, kT));
      const full: MarkerKind = info.def.init === null ? 'part' : 'acc';
      const parts: Formula[] = [implies(holds(h, array, at, this.markerTemplate(full, tensor), yT), complete), not(holds(h, array, at, this.markerTemplate('moved', tensor), null))];
      if (full === 'acc') parts.push(not(holds(h, array, at, this.markerTemplate('part', tensor), null)));
      this.validity('reduction', 'RED-COMPLETE', where, `${what} sees the reduction ${tensor}(…) complete: every position of its domain accumulated, once, and nothing else (or no reduction of ${tensor} in progress)`, { ...g, vars: [...g.vars, ...ys, ...ks] }, norm(andAll(parts)));
    }
  }

  /** S-OPASSIGN (RED-S-OPASSIGN of Fig. 7.2, with the transfer rule of §7.3.3 and errata E3, E12). */
  private sAccumulate(c: Assign, h: PRel, g: Gamma, depth: number): SymResult {
    const shape = g.arrays.get(c.array);
    if (!shape) throw new Error(`internal: array ${c.array} not in Γ`);
    const r = this.accumulationOf(c);
    const a = c.accum!;
    const loc = c.indices.map((i) => termOf(i, this.env));
    const name = this.source(c.array);
    this.validity('write-bounds', 'S-OPASSIGN', c, `the accumulation into ${name}[…] at line ${c.pos.line} is inside the array`, g, inBox(loc, shape.dims));
    const rhs = inlineLets(c.rhs);
    const reads = collectReads(rhs);
    const self = reads[0]!; // the desugared `a[ι] op e` reads the cell first (non-atomic: E3)
    const src = a.at === null ? (a.elem as ArrayRead) : null;
    const mine = this.markerTemplate(r.kind, r.tensor);
    const continuing = norm(holds(h, c.array, loc, mine, r.cT));
    let readSet = ReadSet.EMPTY;
    for (const [k, rd] of reads.entries()) {
      const rs = g.arrays.get(rd.name);
      if (!rs) throw new Error(`internal: array ${rd.name} not in Γ`);
      const at = rd.indices.map((i) => termOf(i, this.env));
      this.validity('read-bounds', 'S-OPASSIGN', rd, `the read of ${this.source(rd.name)}[…] at line ${rd.pos.line} is inside the array`, g, inBox(at, rs.dims));
      this.validity('read-defined', 'S-OPASSIGN', rd, `the read of ${this.source(rd.name)}[…] at line ${rd.pos.line} finds a value (written earlier or an input)`, g, norm(inDomain(h, rd.name, at)));
      // The cell's own read continues the accumulation (or, when it starts one, reads the value
      // it starts from); a transfer's source is read as a partial accumulator, not as a value.
      if (k === 0) this.completionCheck(rd.name, at, h, { ...g, facts: [...g.facts, norm(not(continuing))] }, rd, `the first accumulation into ${name}[…] at line ${c.pos.line}`);
      else if (!(src !== null && k === 1)) this.completionCheck(rd.name, at, h, g, rd, `the read of ${this.source(rd.name)}[…] at line ${rd.pos.line}`);
      readSet = readSet.union(ReadSet.read(rd.name, at));
    }
    const where = `the accumulation into ${name}[…] at line ${c.pos.line}`;
    if (a.op !== r.info.def.op) this.validity('reduction', 'RED-OPERATOR', c, `${where} uses the operator of ${r.tensor}'s reduction`, g, FALSE);
    const ghost = ghostName(c.array, r.tensor);
    const liveKey = this.templates.decompose(ghostLiteral(true), this.env).template.key;
    // Starting an accumulation: no stale positions of T(c) in the cell, and the cell holds T's
    // initial value at c (the neutral element for a partial accumulator).
    const ks0 = r.info.def.dims.map((d) => fresh(d.var));
    ks0.forEach((k, i) => this.sourceName.set(k, r.info.def.dims[i]!.var));
    const notCont: Gamma = { ...g, facts: [...g.facts, norm(not(continuing))] };
    this.validity('reduction', 'RED-INIT', c, `${where} starts from a cell with no live position of ${r.tensor}(…)`, { ...notCont, vars: [...g.vars, ...ks0] }, not(holds(h, ghost, [...loc, ...r.cT, ...ks0.map((k) => variable(k))], liveKey, [])));
    const xsTo = new Map(r.info.def.vars.map((x, k) => [x, r.cs[k]!] as const));
    const initExpr = r.kind === 'part' && r.info.def.init !== null ? this.neutralOf(r.info) : substExpr(r.info.init, xsTo);
    this.valueObligation({ ...c, annot: initExpr, rhs: self }, h, notCont, self, [self], { rule: 'RED-INIT', description: `${where} starts from ${r.kind === 'part' ? `the neutral element of ${r.info.def.op}` : `the initial value of ${r.tensor}(…)`} when it does not continue an accumulation of the same reduction` });
    if (r.kT !== null) {
      this.validity('reduction', 'RED-ONCE', c, `${where} contributes a position not already accumulated into the cell`, g, not(holds(h, ghost, [...loc, ...r.cT, ...r.kT], liveKey, [])));
      if (this.inOrder.get(r.tensor) !== 'transferred') {
        const ks = r.info.def.dims.map((d) => fresh(d.var));
        const kk = ks.map((k) => variable(k));
        const kT0 = r.kT;
        const before = orAll(kT0.map((kd, d) => andAll([...kT0.slice(0, d).map((ke, e) => eqT(kk[e]!, ke)), ltT(kk[d]!, kd)])));
        this.validity('reduction', 'RED-ORDER', c, `${where} comes after every position already in the cell, in lexicographic order (the spec's order)`, { ...g, vars: [...g.vars, ...ks] }, implies(holds(h, ghost, [...loc, ...r.cT, ...kk], liveKey, []), before));
        const list = this.inOrder.get(r.tensor);
        const ob = this.obligations.pop()!;
        if (list === undefined) this.inOrder.set(r.tensor, [ob]);
        else if (list !== 'transferred') list.push(ob);
      }
      const body = substExpr(r.info.def.body, new Map([...xsTo, ...r.info.def.dims.map((d, k) => [d.var, inlineLets(a.at![k]!)] as const)]));
      const elem = inlineLets(a.elem);
      this.valueObligation({ ...c, annot: body, rhs: elem }, h, g, elem, collectReads(elem), { rule: 'RED-ELEMENT', description: `the value ${where} contributes is the reduction's element at its position` });
      this.definedObligation(c, h, g, elem, collectReads(elem));
    } else {
      this.inOrder.set(r.tensor, 'transferred');
      this.propheticOf(c, g, h);
      const t = this.transfers.get(c)!;
      const srcLoc = src!.indices.map((i) => termOf(inlineLets(i), this.env));
      const kT = t.ks.map((k) => variable(k));
      t.ks.forEach((k, i) => this.sourceName.set(k, r.info.def.dims[i]!.var));
      const gk: Gamma = { ...g, vars: [...g.vars, ...t.ks] };
      // The source is a partial accumulator of T(c) (started from the neutral element, not moved
      // before), or a cell no accumulation touched that holds the neutral element.
      const isPart = norm(holds(h, src!.name, srcLoc, this.markerTemplate('part', r.tensor), r.cT));
      const notPart: Gamma = { ...g, facts: [...g.facts, norm(not(isPart))] };
      this.validity('reduction', 'RED-TRANSFER', src!, `${where} transfers a cell with no live position of ${r.tensor}(…) unless it is a partial accumulator of it`, { ...notPart, vars: [...g.vars, ...t.ks] }, not(holds(h, ghostName(src!.name, r.tensor), [...srcLoc, ...r.cT, ...kT], liveKey, [])));
      this.completionCheck(src!.name, srcLoc, h, notPart, src!, `the transfer at line ${c.pos.line}, when its source is not a partial accumulator,`);
      this.valueObligation({ ...c, annot: this.neutralOf(r.info), rhs: src! }, h, notPart, src!, [src!], { rule: 'RED-TRANSFER', description: `${where} transfers the neutral element of ${r.info.def.op} when its source is not a partial accumulator of ${r.tensor}(…)` });
      const actual = holds(h, ghostName(src!.name, r.tensor), [...srcLoc, ...r.cT, ...kT], liveKey, []);
      this.validity('reduction', 'RED-TRANSFER', src!, `${where} moves the positions its prophetic evaluation assumed`, gk, iff(actual, t.moved));
      this.validity('reduction', 'RED-ONCE', c, `${where} moves no position already accumulated into the cell`, gk, not(and(actual, holds(h, ghost, [...loc, ...r.cT, ...kT], liveKey, []))));
    }
    const dh = this.propheticOf(c, g, h);
    this.say(depth, () => `<= S-OpAssign(${name}): Δh ← ${printRel(dh, { thesis: true })}; R ← ${printSet(readSet.all(), { thesis: true })}`);
    return { dh, reads: readSet };
  }

  private neutralOf(info: ReductionInfo): Expr {
    // The desugared spec holds the neutral element where T has no initial value; build it typed.
    const e = neutralTyped(info);
    return e;
  }

  private withAllocation(g: Gamma, c: Extract<Cmd, { kind: 'allocate' }>): Gamma {
    const arrays = new Map(g.arrays);
    arrays.set(c.name, { elem: c.elem, dims: c.dims.map((d) => termOf(d, this.env)), sourceName: this.source(c.name) });
    return { ...g, arrays };
  }

  // -- symbolic evaluation (Fig. 5.4) -------------------------------------------------------------

  evalCmd(c: Cmd, h: PRel, g: Gamma, depth: number): SymResult {
    switch (c.kind) {
      case 'skip':
        return { dh: EMPTY_HEAP, reads: ReadSet.EMPTY }; // S-SKIP
      case 'seq':
        return this.sSeq(c.cmds, h, g, depth);
      case 'assign':
        return c.accum ? this.sAccumulate(c, h, g, depth) : this.sAssign(c, h, g, depth);
      case 'if':
        return this.sIf(c, h, g, depth);
      case 'let':
        return this.sLet(c, h, g, depth);
      case 'allocate':
        return this.sAllocate(c, h, g, depth);
      case 'for':
        return this.sSeqLoop(c, h, g, depth);
      case 'par':
        return this.sParLoop(c, h, g, depth);
    }
  }

  /** S-SEQ, folded over a sequence. */
  private sSeq(cmds: readonly Cmd[], h: PRel, g: Gamma, depth: number): SymResult {
    let dh: PRel = EMPTY_HEAP;
    let reads = ReadSet.EMPTY;
    for (const c of cmds) {
      const r = this.evalCmd(c, update(h, dh), g, depth);
      dh = update(dh, r.dh);
      reads = reads.union(r.reads);
    }
    return { dh, reads };
  }

  /** S-IF: both branches under their condition; results restricted and joined. */
  private sIf(c: Extract<Cmd, { kind: 'if' }>, h: PRel, g: Gamma, depth: number): SymResult {
    const b = norm(formulaOf(c.cond, this.env));
    this.say(depth, () => `=> S-If: Γ ← Γ, ${printFormula(b, { thesis: true })}`);
    const r1 = this.evalCmd(c.then, h, { ...g, facts: [...g.facts, b] }, depth + 1);
    const nb = norm(not(b));
    const r2 = c.else ? this.evalCmd(c.else, h, { ...g, facts: [...g.facts, nb] }, depth + 1) : { dh: EMPTY_HEAP, reads: ReadSet.EMPTY };
    return {
      dh: unionHeaps(restrict(r1.dh, b), restrict(r2.dh, nb)),
      reads: r1.reads.restrict(b).union(r2.reads.restrict(nb)),
    };
  }

  /** S-LET: Γ, x = ι ⊢ c, then x := ι in the results. */
  private sLet(c: Extract<Cmd, { kind: 'let' }>, h: PRel, g: Gamma, depth: number): SymResult {
    if (c.value.ty?.kind === 'cond') throw new UnsupportedConstruct(`line ${c.pos.line}: 'let ${this.source(c.name)}' binds a condition; the verifier supports index lets only`, c.pos);
    const v = termOf(c.value, this.env);
    this.say(depth, () => `=> S-Let(${this.source(c.name)}): Γ ← Γ, ${this.source(c.name)} = ${printFormula(eqT(variable(c.name), v))}`);
    const r = this.evalCmd(c.body, h, { ...g, facts: [...g.facts, eqT(variable(c.name), v)], vars: [...g.vars, c.name] }, depth + 1);
    return { dh: substHeap(r.dh, c.name, v), reads: r.reads.subst(c.name, v) };
  }

  /** S-ALLOCATE: a fresh array (unique name after renaming), erased from Δh and R on exit. */
  private sAllocate(c: Extract<Cmd, { kind: 'allocate' }>, h: PRel, g: Gamma, depth: number): SymResult {
    this.say(depth, () => `=> S-Allocate(${this.source(c.name)})`);
    const g2 = this.withAllocation(g, c);
    const r = this.evalCmd(c.body, withoutArray(h, c.name), g2, depth + 1);
    let dh = withoutArray(r.dh, c.name);
    for (const t of this.accumulated.get(c.name) ?? []) dh = withoutArray(dh, ghostName(c.name, t));
    return { dh, reads: r.reads.without(c.name) };
  }

  private loopFacts(g: Gamma, x: string, bound: Term): Gamma {
    return { ...g, facts: [...g.facts, geT(variable(x), constant(0n)), ltT(variable(x), bound)], vars: [...g.vars, x] };
  }

  /** S-SEQLOOP: the body runs in h ▷ ▶_{0≤z<x} Δh[x := z], Δh from prophetic evaluation. */
  private sSeqLoop(c: Loop, h: PRel, g: Gamma, depth: number): SymResult {
    const bound = termOf(c.bound, this.env);
    const dhBody = this.propheticOf(c.body, this.loopFacts(g, c.var, bound), h);
    const z = fresh(this.source(c.var));
    const before = iterUpdate(renameHeapVar(dhBody, c.var, z), z, constant(0n), variable(c.var));
    const hIn = update(h, before);
    this.say(depth, () => `=> S-SeqLoop(${this.source(c.var)}): Γ ← Γ, 0 ≤ ${this.source(c.var)} < ${printTermText(bound)}; h ← h ▷ ${printRel(before, { thesis: true })}`);
    const r = this.evalCmd(c.body, hIn, this.loopFacts(g, c.var, bound), depth + 1);
    const dh = iterUpdate(dhBody, c.var, constant(0n), bound);
    const reads = r.reads.iterUnion(c.var, constant(0n), bound);
    this.say(depth, () => `<= S-SeqLoop(${this.source(c.var)}): Δh ← ${printRel(dh, { thesis: true })}`);
    return { dh, reads };
  }

  /** S-PARLOOP: every iteration from h; rw-safe and ww-covered obligations; Δh' = v(⋃ Δh). */
  private sParLoop(c: Loop, h: PRel, g: Gamma, depth: number): SymResult {
    const bound = termOf(c.bound, this.env);
    const gi = this.loopFacts(g, c.var, bound);
    this.say(depth, () => `=> S-ParLoop(${this.source(c.var)}): Γ ← Γ, 0 ≤ ${this.source(c.var)} < ${printTermText(bound)}`);
    const first = this.obligations.length;
    const r = this.evalCmd(c.body, h, gi, depth + 1);
    const body = new Set(this.obligations.slice(first).map((o) => o.id));
    const x = c.var;
    const y = fresh(this.source(x));
    const two = and(
      andAll([geT(variable(x), constant(0n)), ltT(variable(x), bound), geT(variable(y), constant(0n)), ltT(variable(y), bound)]),
      neT(variable(x), variable(y)),
    );
    // rw-safe: no location written by iteration x is read by iteration y ≠ x.
    const writes = domainSet(r.dh);
    const conflicts: Formula[] = [];
    const readsOfWritten = r.reads.on(new Set(writes.pieces.map((w) => w.tuple.name)));
    for (const w of writes.pieces) {
      for (const rd of readsOfWritten.pieces) {
        if (w.tuple.name !== rd.tuple.name || tupleVars(w.tuple).length !== tupleVars(rd.tuple).length) continue;
        const loc = tupleVars(w.tuple).map((v) => fresh(v));
        const wf = substFormula(w.guard, new Map(tupleVars(w.tuple).map((v, k) => [v, variable(loc[k]!)] as const)));
        const rf = substFormula(rd.guard, new Map([...tupleVars(rd.tuple).map((v, k) => [v, variable(loc[k]!)] as const), [x, variable(y)]]));
        conflicts.push(exists(loc, and(wf, rf)));
      }
    }
    this.emptiness('rw-race', 'S-PARLOOP', c, `rw-safe: no iteration of 'par ${this.source(x)}' (line ${c.pos.line}) reads a location another iteration writes`, g, and(two, orAll(conflicts)), body);
    // ww-covered: locations written by two iterations get a single value (sv fast path), or the
    // two written values must be equal in every model of the spec (conflicts-ok).
    this.wwCovered(c, r.dh, g, x, y, two);
    const dh = iterUpdate(r.dh, x, constant(0n), bound);
    const reads = r.reads.iterUnion(x, constant(0n), bound);
    this.say(depth, () => `<= S-ParLoop(${this.source(x)}): Δh ← ${printRel(dh, { thesis: true })}`);
    return { dh, reads };
  }

  private wwCovered(c: Loop, dh: PRel, g: Gamma, x: string, y: string, two: Formula): void {
    // Pairs of pieces (p at iteration x, q at iteration y) that can write the same location.
    const pairs: { p: RelPiece; q: RelPiece; both: Formula; py: string[]; qy: string[] }[] = [];
    for (const p of dh.pieces) {
      for (const q of dh.pieces) {
        if (p.dom.name !== q.dom.name) continue;
        const loc = tupleVars(p.dom).map((v) => fresh(v));
        const py = tupleVars(p.ran).map((v) => fresh(v));
        const qy = tupleVars(q.ran).map((v) => fresh(v));
        const pf = substFormula(p.guard, new Map([...tupleVars(p.dom).map((v, k) => [v, variable(loc[k]!)] as const), ...tupleVars(p.ran).map((v, k) => [v, variable(py[k]!)] as const)]));
        const qf = substFormula(q.guard, new Map([...tupleVars(q.dom).map((v, k) => [v, variable(loc[k]!)] as const), ...tupleVars(q.ran).map((v, k) => [v, variable(qy[k]!)] as const), [x, variable(y)]]));
        pairs.push({ p, q, both: and(two, exists(loc, and(pf, qf))), py, qy });
      }
    }
    if (pairs.length === 0) return;
    // Single-valuedness: same context and same hole values whenever two iterations meet.
    const differ = pairs.map(({ p, q, both, py, qy }) => {
      const same = p.ran.name === q.ran.name ? andAll(py.map((v, k) => eqT(variable(v), variable(qy[k]!)))) : (TRUE as Formula);
      const distinct = p.ran.name === q.ran.name ? not(same) : TRUE;
      return exists([...py, ...qy], and(both, distinct));
    });
    const before = this.obligations.length;
    this.emptiness('ww-race', 'S-PARLOOP', c, `ww-covered (single-valued): iterations of 'par ${this.source(c.var)}' (line ${c.pos.line}) that write the same location write the same spec value`, g, orAll(differ));
    const sv = this.obligations[before]!;
    this.obligations[before] = { ...sv, fallback: () => this.wwValueObligation(c, g, pairs) };
  }

  /** The conflicts-ok form: conflicting writes are equal values in every model of the spec. */
  private wwValueObligation(c: Loop, g: Gamma, pairs: readonly { p: RelPiece; q: RelPiece; both: Formula; py: string[]; qy: string[] }[]): PendingObligation {
    const id = this.nextId();
    const description = `ww-covered (conflicts-ok): iterations of 'par ${this.source(c.var)}' (line ${c.pos.line}) that write the same location write equal values`;
    const report = this.reportVars(g);
    const seeds = pairs.flatMap(({ p, q }) => [this.templates.get(p.ran.name)!.expr, this.templates.get(q.ran.name)!.expr]);
    const render = (mode: FloatMode, axioms: 'relevant' | 'all' = 'all'): Obligation => {
      const enc = new ValueEncoder(mode);
      const alts = pairs.map(({ p, q, both, py, qy }) => {
        const ev = (piece: RelPiece, ys: string[]): string => this.encodeTemplate(enc, piece.ran.name, ys);
        return `(and ${formulaToSmt(both)} (not (= ${ev(p, py)} ${ev(q, qy)})))`;
      });
      const ints = sortedVars([...g.facts, ...pairs.map((pr) => pr.both)], [...this.params, ...pairs.flatMap((pr) => [...pr.py, ...pr.qy])]);
      const lines = [`(assert (! (or ${alts.join(' ')}) :named goal))`];
      const { script, satExtends } = this.valueScript(enc, ints, g.facts, lines, axioms === 'relevant' ? seeds : null);
      return { id, kind: 'ww-race', rule: 'S-PARLOOP', line: c.pos.line, col: c.pos.col, description, script, float: mode, inexact: enc.inexactReason(), ...(satExtends ? { satExtends } : {}) };
    };
    return { id, kind: 'ww-race', rule: 'S-PARLOOP', line: c.pos.line, col: c.pos.col, description, usesValues: true, report, render, context: [...g.facts, ...pairs.map((p) => p.both)] };
  }

  /** S-ASSIGN. */
  private sAssign(c: Extract<Cmd, { kind: 'assign' }>, h: PRel, g: Gamma, depth: number): SymResult {
    const leaves = this.combineLeaves(c);
    if (leaves !== null) return this.sCombine(c, leaves, h, g, depth);
    const shape = g.arrays.get(c.array);
    if (!shape) throw new Error(`internal: array ${c.array} not in Γ`);
    const loc = c.indices.map((i) => termOf(i, this.env));
    const name = this.source(c.array);
    // Γ ⊢ {ℓ̂} ⊆ box(a)
    this.validity('write-bounds', 'S-ASSIGN', c, `the write to ${name}[…] at line ${c.pos.line} is inside the array`, g, inBox(loc, shape.dims));
    const rhs = inlineLets(c.rhs);
    const reads = collectReads(rhs);
    const guards = loadGuards(rhs, this.env);
    let readSet = ReadSet.EMPTY;
    for (const r of reads) {
      const rs = g.arrays.get(r.name);
      if (!rs) throw new Error(`internal: array ${r.name} not in Γ`);
      const at = r.indices.map((i) => termOf(i, this.env));
      // Bounds stay strict: a discarded `load` still reads its cell.
      this.validity('read-bounds', 'S-ASSIGN', r, `the read of ${this.source(r.name)}[…] at line ${r.pos.line} is inside the array`, g, inBox(at, rs.dims));
      // Γ ⊢ reads(e) ⊆ dom(h); for a `load`, where its value is used (LOAD-DISCARD, load-guard.ts).
      const lg = guards.get(r);
      if (lg === undefined) this.validity('read-defined', 'S-ASSIGN', r, `the read of ${this.source(r.name)}[…] at line ${r.pos.line} finds a value (written earlier or an input)`, g, norm(inDomain(h, r.name, at)));
      else {
        const used: Gamma = { ...g, facts: [...g.facts, norm(lg.guard)] };
        const inexact = lg.exact ? null : 'a select condition on values left out of where the load is used (a superset of it)';
        this.validity('read-defined', 'LOAD-DISCARD', r, `the load of ${this.source(r.name)}[…] at line ${r.pos.line} finds a value wherever no select discards it`, used, norm(inDomain(h, r.name, at)), undefined, inexact);
      }
      this.completionCheck(r.name, at, h, g, r, `the read of ${this.source(r.name)}[…] at line ${r.pos.line}`);
      readSet = readSet.union(ReadSet.read(r.name, at));
    }
    const dh = this.propheticOf(c, g);
    const prepared = this.valueObligation(c, h, g, rhs, reads, undefined, guards);
    this.definedObligation(c, h, g, rhs, reads, guards);
    if (this.log) {
      // As Fig. 5.5: the value of each read in h, then the constraint C, Δh and R.
      reads.forEach((r, k) => {
        const alts = prepared[k]!.alternatives.map((a) => `${showTemplate(this.templates, a.template, a.holes)}${a.cond.kind === 'true' ? '' : ` if ${printFormula(a.cond, { thesis: true })}`}`);
        this.say(depth, () => `<= S-Assign: ⟦${printExpr(r)}⟧_h = ${alts.length ? alts.join(' | ') : '(undefined)'}`);
      });
      this.say(depth, () => `<= S-Assign(${name}): C ← { ${printExpr(rhs)} = ${printExpr(c.annot!)} }`);
    }
    this.say(depth, () => `<= S-Assign(${name}): Δh ← ${printRel(dh, { thesis: true })}; R ← ${printSet(readSet.all(), { thesis: true })}`);
    return { dh, reads: readSet };
  }

  /** ⟦e⟧_h = decompose(t) as an obligation (Fig. 5.4, Ĉ of S-ASSIGN). */
  private valueObligation(c: Extract<Cmd, { kind: 'assign' }>, h: PRel, g: Gamma, rhs: Expr, reads: readonly ArrayRead[], what?: { rule: string; description: string }, guards?: ReadonlyMap<ArrayRead, LoadGuard>): PreparedRead[] {
    const id = this.nextId();
    const annot = inlineLets(c.annot!);
    const description = what?.description ?? `the value written to ${this.source(c.array)}[…] at line ${c.pos.line} equals its annotation`;
    // The reduction rules' value conditions (RED-INIT, RED-ELEMENT, RED-TRANSFER, RED-COMBINE) keep
    // their rule's name: their refutations are not counterexamples by themselves (§7).
    const rule = what?.rule ?? 'S-ASSIGN';
    const report = this.reportVars(g);
    const prepared = reads.map((r) => this.prepared(h, r.name, r.indices.map((i) => termOf(i, this.env))));
    const render = (mode: FloatMode, axioms: 'relevant' | 'all' = 'all'): Obligation => {
      const enc = new ValueEncoder(mode);
      const { lines, extraInts, readVal } = this.readValues(enc, reads, prepared, g, guards);
      const index = (e: Expr): string => (e.ty?.kind === 'cond' ? formulaToSmt(formulaOf(e, this.env)) : termToSmt(termOf(e, this.env)));
      const impl = enc.value(rhs, { intVar: (n) => smtSymbol(n), index, arrayRead: (e) => readVal.get(e)! });
      const spec = enc.value(annot, { intVar: (n) => smtSymbol(n), index });
      lines.push(`(assert (! (not (= ${impl} ${spec})) :named goal))`);
      const ints = sortedVars(g.facts, [...this.params, ...g.vars, ...extraInts, ...freeIntVars(rhs), ...freeIntVars(annot)]);
      const { script, satExtends } = this.valueScript(enc, ints, g.facts, lines, axioms === 'relevant' ? [annot] : null);
      return { id, kind: 'value', rule, line: c.pos.line, col: c.pos.col, description, script, float: mode, inexact: enc.inexactReason(), ...(satExtends ? { satExtends } : {}) };
    };
    const prepare = (feasible: Feasibility): Promise<void> => pruneReads(prepared, g.facts, feasible);
    const congruence = (mode: FloatMode): Obligation[] | null => {
      const cg = new Congruence(this.ci.spec, mode !== 'real', (claims) => entails(g.facts, andAll(claims)));
      const claims = cg.claim({ expr: rhs, env: this.env }, { expr: annot, env: this.env }, (r, spec) => {
        const k = reads.indexOf(r);
        return k < 0 ? null : this.leafClaim(cg, prepared[k]!, spec);
      });
      return this.congruenceObligations(id, 'value', rule, c.pos, description, g.facts, claims);
    };
    this.obligations.push({ id, kind: 'value', rule, line: c.pos.line, col: c.pos.col, description, usesValues: true, report, render, context: g.facts, prepare, congruence });
    return prepared;
  }

  /**
   * The checked operations of a written value are in their range (docs/language.md §4): every one
   * whose result the value uses, with the reads' values as in the value obligation. Refuted in an
   * exact encoding, it is undefined behaviour of the program (class `undefined-behaviour`); a run
   * at the model's inputs shows it.
   */
  private definedObligation(c: Extract<Cmd, { kind: 'assign' }>, h: PRel, g: Gamma, rhs: Expr, reads: readonly ArrayRead[], guards?: ReadonlyMap<ArrayRead, LoadGuard>): void {
    if (!hasChecked(rhs)) return;
    const id = this.nextId();
    const description = `every checked operation of the value written to ${this.source(c.array)}[…] at line ${c.pos.line} is in its range`;
    const report = this.reportVars(g);
    const prepared = reads.map((r) => this.prepared(h, r.name, r.indices.map((i) => termOf(i, this.env))));
    // The reads' values come from the spec (their templates): all of its axioms are kept.
    const render = (mode: FloatMode): Obligation => {
      const enc = new ValueEncoder(mode);
      const { lines, extraInts, readVal } = this.readValues(enc, reads, prepared, g, guards);
      const index = (e: Expr): string => (e.ty?.kind === 'cond' ? formulaToSmt(formulaOf(e, this.env)) : termToSmt(termOf(e, this.env)));
      lines.push(`(assert (! (not ${enc.defined(rhs, { intVar: (n) => smtSymbol(n), index, arrayRead: (e) => readVal.get(e)! })}) :named goal))`);
      const ints = sortedVars(g.facts, [...this.params, ...g.vars, ...extraInts, ...freeIntVars(rhs)]);
      const { script } = this.valueScript(enc, ints, g.facts, lines, null);
      return { id, kind: 'defined', rule: 'S-ASSIGN', line: c.pos.line, col: c.pos.col, description, script, float: mode, inexact: enc.inexactReason() };
    };
    const prepare = (feasible: Feasibility): Promise<void> => pruneReads(prepared, g.facts, feasible);
    this.obligations.push({ id, kind: 'defined', rule: 'S-ASSIGN', line: c.pos.line, col: c.pos.col, description, usesValues: true, report, render, context: g.facts, prepare });
  }

  /**
   * Each read's value as a constant `val.k`, constrained by the heap alternatives that hold it; a
   * `load` only under its guard (where it is used, and proved defined), free elsewhere, where a
   * select discards it (LOAD-DISCARD): no value is assumed for a cell that may hold ⊥.
   */
  private readValues(enc: ValueEncoder, reads: readonly ArrayRead[], prepared: readonly PreparedRead[], g: Gamma, guards?: ReadonlyMap<ArrayRead, LoadGuard>): { lines: string[]; extraInts: string[]; readVal: Map<ArrayRead, string> } {
    const lines: string[] = [];
    const extraInts: string[] = [];
    const readVal = new Map<ArrayRead, string>();
    reads.forEach((r, k) => {
      const v = `val.${k}`;
      readVal.set(r, v);
      const shape = this.ci.arrays.get(r.name)?.decl.elem ?? this.allocElem(r.name, g);
      lines.push(`(declare-const ${v} ${enc.sort(shape)})`);
      const lg = guards?.get(r);
      const found = this.lookup(enc, prepared[k]!, v, extraInts);
      if (lg !== undefined) extraInts.push(...formulaVars(lg.guard));
      lines.push(`(assert (! ${lg === undefined || lg.guard.kind === 'true' ? found : `(or (not ${formulaToSmt(norm(lg.guard))}) ${found})`} :named read.${k}))`);
    });
    return { lines, extraInts, readVal };
  }

  private allocElem(name: string, g: Gamma): ValueType {
    const s = g.arrays.get(name);
    if (!s) throw new Error(`internal: array ${name} not in Γ`);
    return s.elem;
  }

  /** `v` is the value of array⟨at⟩ in h: one of the pieces holding that location gives it. */
  /** A read of a value obligation: its alternatives, pruned by `prepare` before rendering. */
  private prepared(h: PRel, array: string, at: readonly Term[]): PreparedRead {
    return { alternatives: readAlternatives(h, array, at) };
  }

  private lookup(enc: ValueEncoder, read: PreparedRead, v: string, extraInts: string[]): string {
    const alts: string[] = [];
    for (const a of read.alternatives) {
      extraInts.push(...a.skolems, ...formulaVars(a.cond));
      for (const t of a.holes) extraInts.push(...termVars(t));
      alts.push(`(and ${formulaToSmt(a.cond)} (= ${v} ${this.encodeTemplate(enc, a.template, a.holes)}))`);
    }
    return alts.length === 0 ? 'false' : alts.length === 1 ? alts[0]! : `(or ${alts.join(' ')})`;
  }

  /** E⟨ys⟩ as an SMT term: the context with its holes filled by the variables ys. */
  private encodeTemplate(enc: ValueEncoder, key: string, holeValues: readonly (string | Term)[]): string {
    const t = this.templates.get(key);
    if (!t) throw new Error(`internal: unknown template ${key}`);
    const env = holeEnv(holeValues.map((y) => (typeof y === 'string' ? variable(y) : y)));
    const index = (e: Expr): string => (e.ty?.kind === 'cond' ? formulaToSmt(formulaOf(e, env)) : termToSmt(termOf(e, env)));
    return enc.value(t.expr, { intVar: (n) => smtSymbol(n), index });
  }

  /**
   * A value obligation's script: declarations, the spec's encoding, context, then `lines`; with
   * `seeds`, only the recursive axioms they reach, and whether a model of that script extends to
   * one with all the spec's axioms (smt-spec.ts, axiomsSuffice): its `sat` is then the whole
   * script's, which need not be asked (Z3 can spend its budget on recursive axioms nothing in the
   * claim reads).
   */
  private valueScript(enc: ValueEncoder, ints: readonly string[], facts: readonly Formula[], lines: readonly string[], seeds: readonly Expr[] | null): { script: string; satExtends: boolean } {
    const mentioned = tensorsMentioned(this.ci.spec, lines);
    const only = seeds === null ? null : relevantRecursive(this.ci.spec, seeds, mentioned);
    // Only the macros the claim can reach (before the preamble: they may need sorts and literals).
    const spec = specEncoding(this.ci.spec, enc, only, mentioned);
    const script = canonicalNames([
      '(set-logic ALL)',
      '(set-info :status unsat)',
      ...enc.preamble(),
      ...declInts([...new Set([...ints, ...this.params])].sort()),
      ...spec,
      ...facts.map((f, k) => `(assert (! ${formulaToSmt(f)} :named ctx.${k}))`),
      ...lines,
    ].join('\n'));
    return { script, satExtends: only !== null && axiomsSuffice(this.ci.spec, only, mentioned) };
  }

  // -- outputs (§5.4) ---------------------------------------------------------------------------------

  /** `__discard {O(x)} := o[x]` over every output's checked region. */
  private checkOutputs(hFinal: PRel, g0: Gamma): void {
    for (const [name, info] of this.ci.arrays) {
      if (info.decl.role !== 'output' || info.value === null) continue;
      const shape = g0.arrays.get(name)!;
      const xs = info.vars.map((v) => `${v}#out`);
      // Counterexamples name the output cell's indices after the declaration (`c[i]`, `c index 0`).
      xs.forEach((x, k) => this.sourceName.set(x, info.decl.vars ? info.vars[k]! : `${name} index ${k}`));
      const ren: AffineEnv = (n) => variable(info.vars.includes(n) ? `${n}#out` : n);
      const box = andAll(xs.map((x, k) => and(geT(variable(x), constant(0n)), ltT(variable(x), shape.dims[k]!))));
      const where = info.decl.where ? formulaOf(info.decl.where, ren) : TRUE;
      const g: Gamma = { ...g0, facts: [...g0.facts, norm(and(box, where))], vars: xs };
      const at = xs.map((x) => variable(x));
      const pos = info.decl;
      this.validity('output-defined', 'OUTPUT', pos, `every cell of output '${name}' in its checked region holds a value at exit`, g, norm(inDomain(hFinal, name, at)));
      this.completionCheck(name, at, hFinal, g, pos, `the output check of '${name}'`);
      const id = this.nextId();
      const value = inlineLets(info.value);
      const description = `every cell of output '${name}' holds the value of its tensor at exit`;
      const report = this.reportVars(g);
      const read = this.prepared(hFinal, name, at);
      const render = (mode: FloatMode, axioms: 'relevant' | 'all' = 'all'): Obligation => {
        const enc = new ValueEncoder(mode);
        const extraInts: string[] = [];
        const lines = [`(declare-const val.out ${enc.sort(info.decl.elem)})`];
        lines.push(`(assert (! ${this.lookup(enc, read, 'val.out', extraInts)} :named read.out))`);
        const index = (e: Expr): string => (e.ty?.kind === 'cond' ? formulaToSmt(formulaOf(e, ren)) : termToSmt(termOf(e, ren)));
        const spec = enc.value(value, { intVar: (n) => smtSymbol(n), index });
        lines.push(`(assert (! (not (= val.out ${spec})) :named goal))`);
        const ints = sortedVars(g.facts, [...this.params, ...xs, ...extraInts]);
        const { script, satExtends } = this.valueScript(enc, ints, g.facts, lines, axioms === 'relevant' ? [value] : null);
        return { id, kind: 'output-value', rule: 'OUTPUT', line: pos.pos.line, col: pos.pos.col, description, script, float: mode, inexact: enc.inexactReason(), ...(satExtends ? { satExtends } : {}) };
      };
      const prepare = (feasible: Feasibility): Promise<void> => pruneReads([read], g.facts, feasible);
      const congruence = (mode: FloatMode): Obligation[] | null => {
        const claims = this.leafClaim(new Congruence(this.ci.spec, mode !== 'real', (cl) => entails(g.facts, andAll(cl))), read, { expr: value, env: ren });
        return this.congruenceObligations(id, 'output-value', 'OUTPUT', pos.pos, description, g.facts, claims);
      };
      this.obligations.push({ id, kind: 'output-value', rule: 'OUTPUT', line: pos.pos.line, col: pos.pos.col, description, usesValues: true, report, render, context: g.facts, prepare, congruence });
    }
  }
}

/** Remove the existential quantifiers that occur positively (under ∧ and ∨ only), renaming their
 *  variables apart: an equisatisfiable formula with fewer quantifiers. */
export function skolemize(f: Formula): Formula {
  switch (f.kind) {
    case 'and':
      return andAll(f.args.map(skolemize));
    case 'or':
      return orAll(f.args.map(skolemize));
    case 'exists': {
      const m = new Map(f.vars.map((v) => [v, fresh(v)] as const));
      return skolemize(renameFormula(f.body, m));
    }
    default:
      return f;
  }
}

/**
 * Rename the Presburger layer's fresh variables (`x$123`: a global counter, so their numbers
 * depend on everything computed before) to `x$1`, `x$2`, … in order of first occurrence. A
 * bijection on names no user can write, so the script means the same; it makes scripts (and
 * certificates) independent of what else the process verified, and the answer cache effective.
 */
export function canonicalNames(script: string): string {
  const m = new Map<string, string>();
  return script.replace(/([A-Za-z_][A-Za-z0-9_#]*)\$(\d+)/g, (whole, base: string) => {
    let r = m.get(whole);
    if (r === undefined) {
      r = `${base}$${m.size + 1}`;
      m.set(whole, r);
    }
    return r;
  });
}

/** The neutral element of a reduction's operator at its type, typed (core/language/reductions.ts). */
function neutralTyped(info: ReductionInfo): Expr {
  return typedNeutral(info.def.op, info.type, info.def.pos);
}

/** The environment of a template's expression: hole □k is `holes[k]`, other names themselves. */
function holeEnv(holes: readonly Term[]): AffineEnv {
  const m = new Map<string, Term>(holes.map((y, k) => [`${HOLE_PREFIX}${k}`, y]));
  return (n) => m.get(n) ?? variable(n);
}

/** A template with its holes filled, for logs: `R(i, j, k - 1)`. */
function showTemplate(table: TemplateTable, key: string, holes: readonly Term[]): string {
  const t = table.get(key);
  if (!t) return key;
  const text = new Map<string, string>(holes.map((h, k) => [`${HOLE_PREFIX}${k}`, printTerm(h)]));
  const show = (e: Expr): string => {
    if (e.kind === 'var' && text.has(e.name)) return text.get(e.name)!;
    if (e.kind === 'tensor') return `${e.name}(${e.indices.map(show).join(', ')})`;
    return printExpr(e).replace(/□\d+/g, (m) => text.get(m) ?? m);
  };
  return show(t.expr);
}

function printTermText(t: Term): string {
  return termToSmt(t);
}

function inBox(loc: readonly Term[], dims: readonly Term[]): Formula {
  return andAll(loc.map((t, k) => and(geT(t, constant(0n)), ltT(t, dims[k]!))));
}

/** The array reads of an expression, in source order. */
function collectReads(e: Expr): ArrayRead[] {
  const out: ArrayRead[] = [];
  visit(e, (x) => {
    if (x.kind === 'array') out.push(x);
  });
  return out;
}

/** The variables an expression mentions (loop variables used in index positions). */
function freeIntVars(e: Expr): string[] {
  const out: string[] = [];
  visit(e, (x) => {
    if (x.kind === 'var') out.push(x.name);
  });
  return out;
}

