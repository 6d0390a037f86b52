// Derivation trees of the big-step judgement E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ (Fig. 4.5), recorded on demand.
// Every node carries its rule name, its inputs (the environment E: affine variables and the array
// instances names denote), rule-specific facts (the value of a loop bound or condition, the
// location and value of an assignment with the memory it read), and its outputs δμ and ρ. An
// independent checker (proofs/) re-validates such a tree rule by rule.
//
// Recording works on the in-place execution of bigstep.ts: reads and writes are appended to logs,
// and a node's outputs are computed from the log entries made while it was open — the last write
// of each location (δμ, in order: that is δμ1 ▷ δμ2 for U-SEQ and the union for a race-free
// U-PARLOOP) and the set of locations read (ρ). U-ALLOCATE erases its local array's entries from
// the logs when it closes (δμ ∖ dom(μ_a), ρ ∖ dom(μ_a)), so enclosing nodes never see them.
//
// A third mode only watches assignments (`watched`, called by the watching translation of
// bigstep.ts, which makes no other recording call): each U-ASSIGN node is built, handed to a
// callback and dropped, with no logs and no tree. Checking annotations needs nothing more, and a
// whole tree costs memory in the product of the run's length and its nesting depth (every node
// holds its δμ and ρ): the 32-stage stencil chain's replay outgrew a 12 GB heap that way.

import type { Sites } from './scope.ts';
import type { Int } from './int.ts';
import { ArrayRef } from './memory.ts';
import { type JsonValue, type Value, valueToJson } from './values.ts';

export interface DerivationNode {
  readonly rule: string;
  readonly line: number;
  readonly col: number;
  /** E: affine variables in scope (parameters included). */
  readonly env: Record<string, JsonValue>;
  /** Array names in scope and the instances they denote (`b#7` for local arrays). */
  readonly arrays: Record<string, string>;
  /** Rule-specific facts: bound `n`, condition value, let value, assigned location and value… */
  readonly facts: Record<string, unknown>;
  /** δμ, sorted by location. */
  dmu: [string, JsonValue][];
  /** ρ, sorted by location. */
  rho: string[];
  readonly premises: DerivationNode[];
}

export interface Derivation {
  readonly root: DerivationNode;
  /** μ restricted to the root's ρ (the initial values the derivation depends on; null is ⊥). */
  readonly initial: [string, JsonValue][];
  /** Shapes of every array instance that appears (globals and local instances). */
  readonly arrays: Record<string, { name: string; elem: string; dims: number[]; local: boolean; line: number }>;
}

interface LogEntry {
  ref: ArrayRef | null; // null: erased (a local array after its `allocate`)
  k: number;
  v: Value;
}

interface Open {
  node: DerivationNode | null;
  w: number;
  r: number;
}

function jsonSlot(v: Int | boolean): JsonValue {
  return typeof v === 'bigint' ? v.toString() : v;
}

/** Called with each U-ASSIGN node (env and facts `location`, `value`) of a watching run. */
export type AssignWatcher = (node: DerivationNode) => void;

/**
 * Records reads and writes and, if `nodes`, the tree. With `nodes` false it only maintains the
 * logs, which give the δμ and ρ of the whole run (`effects`). With `watch`, it is driven by
 * `watched` alone.
 */
export class Recorder {
  readonly wlog: LogEntry[] = [];
  readonly rlog: LogEntry[] = [];
  private readonly stack: Open[] = [];
  private readonly seen = new Map<ArrayRef, true>();
  root: DerivationNode | null = null;
  /** For each site, the names of the variables `watched` receives the values of. */
  private readonly watchedVars = new Map<number, string[]>();

  constructor(
    readonly nodes: boolean,
    private readonly sites: Sites,
    readonly watch: AssignWatcher | null = null,
  ) {}

  /** A U-ASSIGN at `site` of a watching run: `values` are those of the scope's variables, in order. */
  watched(site: number, values: readonly unknown[], ref: ArrayRef, k: number, v: Value): void {
    const info = this.sites.info[site]!;
    let names = this.watchedVars.get(site);
    if (names === undefined) {
      names = info.scope.bindings().vars.map(([name]) => name);
      this.watchedVars.set(site, names);
    }
    const env: Record<string, JsonValue> = {};
    for (let i = 0; i < names.length; i++) env[names[i]!] = jsonSlot(values[i] as Int | boolean);
    const facts = { location: ref.showLoc(k), value: valueToJson(v) };
    this.watch!({ rule: 'U-ASSIGN', line: info.pos.line, col: info.pos.col, env, arrays: {}, facts, dmu: [], rho: [], premises: [] });
  }

  read(ref: ArrayRef, k: number, v: Value): void {
    this.rlog.push({ ref, k, v });
  }
  write(ref: ArrayRef, k: number, v: Value): void {
    this.wlog.push({ ref, k, v });
  }

  /** Open a node for `rule` at `site`; `slots` holds the value of every slot of the program. */
  open(rule: string, site: number, slots: readonly unknown[], facts: Record<string, unknown> = {}): void {
    let node: DerivationNode | null = null;
    if (this.nodes) {
      const info = this.sites.info[site]!;
      const b = info.scope.bindings();
      const env: Record<string, JsonValue> = {};
      for (const [name, s] of b.vars) env[name] = jsonSlot(slots[s] as Int | boolean);
      const arrays: Record<string, string> = {};
      for (const [name, s] of b.arrays) {
        const ref = slots[s] as ArrayRef;
        arrays[name] = ref.label();
        this.seen.set(ref, true);
      }
      node = { rule, line: info.pos.line, col: info.pos.col, env, arrays, facts, dmu: [], rho: [], premises: [] };
      const parent = this.stack.length > 0 ? this.stack[this.stack.length - 1]!.node : null;
      if (parent) parent.premises.push(node);
      else this.root = node;
    }
    this.stack.push({ node, w: this.wlog.length, r: this.rlog.length });
  }

  /** U-ASSIGN's facts: the location, the value, the memory read (μ restricted to rd(e)). */
  assigned(ref: ArrayRef, k: number, v: Value, rhs: string): void {
    if (!this.nodes) return;
    this.fact('location', ref.showLoc(k));
    this.fact('value', valueToJson(v));
    this.fact('reads', this.readsOfTop());
    this.fact('rhs', rhs);
  }

  /** Add facts to the innermost open node (e.g. the value an assignment computed). */
  fact(key: string, value: unknown): void {
    const top = this.stack[this.stack.length - 1];
    if (top?.node) top.node.facts[key] = value;
  }

  close(): void {
    const o = this.stack.pop()!;
    if (o.node) {
      const dmu = new Map<number, [ArrayRef, number, Value]>();
      for (let i = o.w; i < this.wlog.length; i++) {
        const e = this.wlog[i]!;
        if (e.ref) dmu.set(e.ref.base + e.k, [e.ref, e.k, e.v]);
      }
      const rho = new Map<number, [ArrayRef, number]>();
      for (let i = o.r; i < this.rlog.length; i++) {
        const e = this.rlog[i]!;
        if (e.ref) rho.set(e.ref.base + e.k, [e.ref, e.k]);
      }
      o.node.dmu = [...dmu.entries()].sort((a, b) => a[0] - b[0]).map(([, [ref, k, v]]) => [ref.showLoc(k), valueToJson(v)]);
      o.node.rho = [...rho.entries()].sort((a, b) => a[0] - b[0]).map(([, [ref, k]]) => ref.showLoc(k));
    }
  }

  /** Reads of the innermost open node so far, with the values read (μ restricted to its ρ). */
  readsOfTop(): [string, JsonValue][] {
    const o = this.stack[this.stack.length - 1]!;
    const m = new Map<number, [string, JsonValue]>();
    for (let i = o.r; i < this.rlog.length; i++) {
      const e = this.rlog[i]!;
      if (e.ref && !m.has(e.ref.base + e.k)) m.set(e.ref.base + e.k, [e.ref.showLoc(e.k), valueToJson(e.v)]);
    }
    return [...m.entries()].sort((a, b) => a[0] - b[0]).map(([, x]) => x);
  }

  /** U-ALLOCATE: erase the local array from the entries of the node being closed (and below). */
  erase(ref: ArrayRef): void {
    const o = this.stack[this.stack.length - 1]!;
    for (let i = o.w; i < this.wlog.length; i++) if (this.wlog[i]!.ref === ref) this.wlog[i]!.ref = null;
    for (let i = o.r; i < this.rlog.length; i++) if (this.rlog[i]!.ref === ref) this.rlog[i]!.ref = null;
    this.seen.set(ref, true);
  }

  /** The δμ (last write per location) and ρ of everything recorded. */
  effects(): { dmu: Map<number, { ref: ArrayRef; k: number; v: Value }>; rho: Map<number, { ref: ArrayRef; k: number }> } {
    const dmu = new Map<number, { ref: ArrayRef; k: number; v: Value }>();
    for (const e of this.wlog) if (e.ref) dmu.set(e.ref.base + e.k, { ref: e.ref, k: e.k, v: e.v });
    const rho = new Map<number, { ref: ArrayRef; k: number }>();
    for (const e of this.rlog) if (e.ref) rho.set(e.ref.base + e.k, { ref: e.ref, k: e.k });
    return { dmu, rho };
  }

  arrayShapes(): Derivation['arrays'] {
    const out: Derivation['arrays'] = {};
    const refs = [...this.seen.keys()].sort((a, b) => a.id - b.id);
    for (const r of refs) out[r.label()] = { name: r.name, elem: r.elem, dims: [...r.dims], local: !r.global, line: r.pos.line };
    return out;
  }

  noteArray(ref: ArrayRef): void {
    this.seen.set(ref, true);
  }
}
