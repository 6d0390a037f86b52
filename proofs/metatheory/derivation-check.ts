// An independent checker of big-step derivations E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ (thesis Fig. 4.5) as exported by
// semantics/derivation.ts. It walks the implementation's syntax tree beside the derivation tree and
// re-validates every node by its rule: the rule must be the one for the command, the premises must
// be the derivations the rule asks for (in order, with the environment and memory the rule gives
// them), every premise and side condition must hold, and the node's recorded δμ and ρ must be
// exactly those the rule computes from its premises. Expressions are evaluated by the checker's
// own evaluator (proofs/metatheory/ref-eval.ts), never by semantics/: a certificate is trusted only as far as
// this file and ref-eval.ts are.
//
// The memory μ of a node is rebuilt from the certificate: the initial memory restricted to the
// root's ρ (`initial`), updated as U-SEQ and U-FOR prescribe; local arrays start ⊥. A read of a
// global location whose initial value the certificate does not give is a rejection (it would be
// outside ρ, which the derivation claims is every location read).

import type { Cmd, Expr, ValueType } from '../../core/language/ast.ts';
import { isValueTypeName } from '../../core/language/ast.ts';
import type { CheckedImpl } from '../../core/language/typecheck.ts';
import type { Derivation, DerivationNode } from '../../semantics/derivation.ts';
import { type Affine, type Cell, type Env, evaluate, type RefMemory, type RValue, valueOfJson, valueText } from './ref-eval.ts';

/** The exported JSON (semantics/derivation.ts); the checker reads it defensively (mutated or hand-made certificates may be malformed). */
export type DerivationNodeJson = DerivationNode;
export type DerivationJson = Derivation;

export type CheckResult = { readonly ok: true; readonly nodes: number } | { readonly ok: false; readonly path: string; readonly reason: string };

class Reject extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(reason);
  }
}

interface Instance {
  readonly label: string;
  readonly name: string;
  readonly elem: ValueType;
  readonly dims: readonly bigint[];
  readonly local: boolean;
}

interface Ctx {
  readonly env: Env;
  /** Array names in scope and the instances they denote. */
  readonly arrays: ReadonlyMap<string, Instance>;
}

/** Known cells of μ by location text (local cells absent from the map are ⊥). */
type Mem = ReadonlyMap<string, Cell>;

interface Out {
  readonly dmu: ReadonlyMap<string, RValue>;
  readonly rho: ReadonlySet<string>;
}

const EMPTY: Out = { dmu: new Map(), rho: new Set() };

function locText(label: string, idx: readonly bigint[]): string {
  return `${label}[${idx.join(', ')}]`;
}

/** μ ▷ δμ. */
function updated(mem: Mem, dmu: ReadonlyMap<string, RValue>): Mem {
  if (dmu.size === 0) return mem;
  const m = new Map(mem);
  for (const [l, v] of dmu) m.set(l, { kind: 'value', v });
  return m;
}

/** δμ1 ▷ δμ2. */
function seqOut(a: Out, b: Out): Out {
  const dmu = new Map(a.dmu);
  for (const [l, v] of b.dmu) dmu.set(l, v);
  return { dmu, rho: new Set([...a.rho, ...b.rho]) };
}

class Checker {
  private nodes = 0;
  /** Every array instance the derivation uses, by label (globals and local instances). */
  private readonly instances = new Map<string, Instance>();

  constructor(
    readonly ci: CheckedImpl,
    readonly d: DerivationJson,
  ) {}

  run(): number {
    const root = this.d.root;
    if (!root || typeof root !== 'object') throw new Reject('root', 'no root node');
    // E: exactly the parameters of the spec, with integer values.
    const env = new Map<string, Affine>();
    const params = this.ci.spec.params;
    const rootEnv = Object.entries(root.env ?? {});
    if (rootEnv.length !== params.length) throw new Reject('root', `the root environment must bind exactly the parameters ${params.join(', ')}`);
    for (const p of params) {
      const v = intOfJson(root.env[p]);
      if (v === null) throw new Reject('root', `parameter ${p} has no integer value`);
      env.set(p, v);
    }
    // The global arrays: their shapes are the declared dimensions evaluated in E.
    const arrays = new Map<string, Instance>();
    for (const [name, info] of this.ci.arrays) {
      const dims = info.decl.dims.map((e) => this.count(e, env, 'root', `dimension of ${name}`));
      const inst: Instance = { label: name, name, elem: info.decl.elem, dims, local: false };
      const rec = this.d.arrays?.[name];
      if (!rec || rec.name !== name || rec.elem !== inst.elem || rec.local !== false || !sameDims(rec.dims, dims)) throw new Reject('arrays', `the shape recorded for global array ${name} is not ${inst.elem}[${dims.join(', ')}]`);
      arrays.set(name, inst);
      this.instances.set(name, inst);
    }
    // μ restricted to the root's ρ.
    const mem = new Map<string, Cell>();
    for (const entry of this.d.initial ?? []) {
      if (!Array.isArray(entry) || entry.length !== 2) throw new Reject('initial', 'malformed entry');
      const [loc, j] = entry as [string, unknown];
      const inst = this.globalOf(loc);
      if (mem.has(loc)) throw new Reject('initial', `${loc} listed twice`);
      if (j === null) mem.set(loc, { kind: 'bot' });
      else {
        const v = valueOfJson(j, inst.elem);
        if (v === null) throw new Reject('initial', `${loc}: ${JSON.stringify(j)} is not a value of ${inst.elem}`);
        mem.set(loc, { kind: 'value', v });
      }
    }
    const rootRho = new Set(root.rho ?? []);
    if (rootRho.size !== mem.size || [...mem.keys()].some((l) => !rootRho.has(l))) throw new Reject('initial', "the initial memory must be μ restricted to the root's ρ");
    this.node(root, this.ci.impl.body, { env, arrays }, mem, 'root');
    return this.nodes;
  }

  /** A global location `a[1, 2]` of the certificate, in bounds. */
  private globalOf(loc: string): Instance {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]$/.exec(loc);
    const inst = m ? this.instances.get(m[1]!) : undefined;
    if (!m || !inst || inst.local) throw new Reject('initial', `${loc} is not a location of a global array`);
    const idx = m[2] === '' ? [] : m[2]!.split(', ').map((x) => (/^-?\d+$/.test(x) ? BigInt(x) : null));
    if (idx.length !== inst.dims.length || idx.some((x, k) => x === null || x < 0n || x >= inst.dims[k]!)) throw new Reject('initial', `${loc} is not in dom(μ)`);
    return inst;
  }

  private count(e: Expr, env: Env, path: string, what: string): bigint {
    const r = evaluate(e, env, NO_MEMORY);
    if (!r.ok || typeof r.v !== 'bigint') throw new Reject(path, `${what} has no integer value`);
    return r.v < 0n ? 0n : r.v;
  }

  private memory(ctx: Ctx, mem: Mem, path: string): RefMemory {
    return {
      cell: (name, idx) => {
        const inst = ctx.arrays.get(name);
        if (!inst) throw new Reject(path, `array ${name} is not in scope`);
        if (idx.length !== inst.dims.length || idx.some((x, k) => x < 0n || x >= inst.dims[k]!)) return null;
        const loc = locText(inst.label, idx);
        const c = mem.get(loc);
        if (c !== undefined) return { loc, cell: c };
        if (inst.local) return { loc, cell: { kind: 'bot' } };
        throw new Reject(path, `${loc} is read but the certificate does not give its initial value (is it missing from the root's ρ?)`);
      },
    };
  }

  private eval(e: Expr, ctx: Ctx, mem: Mem, path: string, what: string): { v: RValue | Affine; rd: Set<string> } {
    const r = evaluate(e, ctx.env, this.memory(ctx, mem, path));
    if (!r.ok) throw new Reject(path, `${what} has no value (${r.bot.bot} ${r.bot.loc})`);
    return { v: r.v, rd: new Set(r.reads) };
  }

  // -- one node -------------------------------------------------------------------------------

  private header(n: DerivationNodeJson, rule: string, pos: { line: number; col: number }, ctx: Ctx, path: string, premises: number | null): void {
    if (!n || typeof n !== 'object') throw new Reject(path, 'missing node');
    if (n.rule !== rule) throw new Reject(path, `rule ${String(n.rule)} where the command needs ${rule}`);
    if (n.line !== pos.line || n.col !== pos.col) throw new Reject(path, `node at ${n.line}:${n.col} for a command at ${pos.line}:${pos.col}`);
    const env = Object.entries(n.env ?? {});
    if (env.length !== ctx.env.size) throw new Reject(path, 'the environment does not bind the variables in scope');
    for (const [k, j] of env) {
      const want = ctx.env.get(k);
      const got = typeof want === 'boolean' ? (typeof j === 'boolean' ? j : null) : intOfJson(j);
      if (want === undefined || got === null || got !== want) throw new Reject(path, `environment: ${k} = ${JSON.stringify(j)}, expected ${want === undefined ? 'no binding' : String(want)}`);
    }
    const arrs = Object.entries(n.arrays ?? {});
    if (arrs.length !== ctx.arrays.size || arrs.some(([k, l]) => ctx.arrays.get(k)?.label !== l)) throw new Reject(path, 'the array names in scope do not denote the right instances');
    if (!Array.isArray(n.premises)) throw new Reject(path, 'no premises');
    if (premises !== null && n.premises.length !== premises) throw new Reject(path, `${n.premises.length} premises where ${rule} has ${premises}`);
  }

  /** Check node n for command c; returns the ⟨δμ; ρ⟩ the rule gives, after comparing it with n's. */
  private node(n: DerivationNodeJson, c: Cmd, ctx: Ctx, mem: Mem, path: string): Out {
    this.nodes++;
    const out = this.rule(n, c, ctx, mem, path);
    this.compare(n, out, path);
    return out;
  }

  private rule(n: DerivationNodeJson, c: Cmd, ctx: Ctx, mem: Mem, path: string): Out {
    const facts = n?.facts ?? {};
    switch (c.kind) {
      case 'skip':
        this.header(n, 'U-SKIP', c.pos, ctx, path, 0);
        return EMPTY;
      case 'seq':
        return this.seq(n, c.cmds, 0, c.pos, ctx, mem, path);
      case 'if': {
        const { v, rd } = this.eval(c.cond, ctx, mem, path, 'the condition');
        const b = v === true;
        this.header(n, b ? 'U-IF-TRUE' : 'U-IF-FALSE', c.pos, ctx, path, 1);
        if (facts.cond !== b) throw new Reject(path, 'the recorded condition value is wrong');
        const branch: Cmd = b ? c.then : (c.else ?? { kind: 'skip', pos: c.pos });
        const p = this.node(n.premises[0]!, branch, ctx, mem, `${path}/0`);
        return { dmu: p.dmu, rho: new Set([...rd, ...p.rho]) };
      }
      case 'let': {
        const { v, rd } = this.eval(c.value, ctx, mem, path, `the value of ${c.name}`);
        this.header(n, 'U-LET', c.pos, ctx, path, 1);
        const fv = typeof v === 'boolean' ? (typeof facts.value === 'boolean' ? facts.value : null) : intOfJson(facts.value);
        if (facts.var !== c.name || fv !== v) throw new Reject(path, `U-LET records ${String(facts.var)} = ${JSON.stringify(facts.value)}, the rule gives ${c.name} = ${String(v)}`);
        const env = new Map(ctx.env);
        env.set(c.name, v as Affine);
        const p = this.node(n.premises[0]!, c.body, { ...ctx, env }, mem, `${path}/0`);
        return { dmu: p.dmu, rho: new Set([...rd, ...p.rho]) };
      }
      case 'for':
      case 'par': {
        const { v, rd } = this.eval(c.bound, ctx, mem, path, 'the loop bound');
        const count = (v as bigint) < 0n ? 0 : Number(v);
        const rule = c.kind === 'for' ? 'U-FOR' : 'U-PARLOOP';
        this.header(n, rule, c.pos, ctx, path, count);
        if (facts.var !== c.var || facts.n !== count) throw new Reject(path, `${rule} records ${JSON.stringify(facts.n)} iterations, the bound gives ${count}`);
        const outs: Out[] = [];
        let m = mem;
        for (let i = 0; i < count; i++) {
          const env = new Map(ctx.env);
          env.set(c.var, BigInt(i));
          // U-FOR: iteration i runs in μ ▷ ▶_{j<i} δμ_j; U-PARLOOP: every iteration runs in μ.
          const o = this.node(n.premises[i]!, c.body, { ...ctx, env }, c.kind === 'for' ? m : mem, `${path}/${i}`);
          outs.push(o);
          if (c.kind === 'for') m = updated(m, o.dmu);
        }
        if (c.kind === 'par') this.parSideConditions(outs, path);
        let acc: Out = { dmu: new Map(), rho: rd };
        for (const o of outs) acc = seqOut(acc, o);
        return acc;
      }
      case 'assign': {
        this.header(n, 'U-ASSIGN', c.pos, ctx, path, 0);
        const inst = ctx.arrays.get(c.array);
        if (!inst) throw new Reject(path, `array ${c.array} is not in scope`);
        const idx: bigint[] = [];
        const rho = new Set<string>();
        for (const e of c.indices) {
          const r = this.eval(e, ctx, mem, path, 'an index');
          idx.push(r.v as bigint);
          for (const l of r.rd) rho.add(l);
        }
        if (idx.some((x, k) => x < 0n || x >= inst.dims[k]!)) throw new Reject(path, `${locText(inst.label, idx)} is not in dom(μ)`);
        const loc = locText(inst.label, idx);
        const { v, rd } = this.eval(c.rhs, ctx, mem, path, 'the right-hand side');
        for (const l of rd) rho.add(l);
        if (facts.location !== loc) throw new Reject(path, `U-ASSIGN records location ${String(facts.location)}, the indices give ${loc}`);
        const fv = valueOfJson(facts.value, inst.elem);
        if (fv === null || valueText(fv) !== valueText(v)) throw new Reject(path, `U-ASSIGN records value ${JSON.stringify(facts.value)}, the right-hand side gives ${valueText(v)}`);
        this.checkReads(facts.reads, rd, mem, path);
        return { dmu: new Map([[loc, v as RValue]]), rho };
      }
      case 'allocate': {
        const dims = c.dims.map((e) => this.count(e, ctx.env, path, `a dimension of ${c.name}`));
        this.header(n, 'U-ALLOCATE', c.pos, ctx, path, 1);
        const label = facts.instance;
        if (facts.array !== c.name || typeof label !== 'string') throw new Reject(path, 'U-ALLOCATE does not name its array and instance');
        if (this.instances.has(label)) throw new Reject(path, `instance ${label} is not fresh`);
        const recDims = facts.dims;
        if (!Array.isArray(recDims) || !sameDims(recDims as number[], dims)) throw new Reject(path, `U-ALLOCATE records dimensions ${JSON.stringify(recDims)}, the command gives [${dims.join(', ')}]`);
        const rec = this.d.arrays?.[label];
        if (!rec || rec.name !== c.name || rec.elem !== c.elem || rec.local !== true || !sameDims(rec.dims, dims)) throw new Reject(path, `the shape recorded for instance ${label} is not ${c.elem}[${dims.join(', ')}]`);
        if (!isValueTypeName(rec.elem)) throw new Reject(path, 'bad element type');
        const inst: Instance = { label, name: c.name, elem: c.elem, dims, local: true };
        this.instances.set(label, inst);
        const arrays = new Map(ctx.arrays);
        arrays.set(c.name, inst);
        // (μ ∖ a) ▷ μ_a: the fresh instance holds ⊥ everywhere (no entry in the memory map).
        const p = this.node(n.premises[0]!, c.body, { ...ctx, arrays }, mem, `${path}/0`);
        const mine = (l: string): boolean => l.startsWith(`${label}[`);
        return { dmu: new Map([...p.dmu].filter(([l]) => !mine(l))), rho: new Set([...p.rho].filter((l) => !mine(l))) };
      }
    }
  }

  /** U-SEQ for c_from; (c_from+1; …): one node per `;`. */
  private seq(n: DerivationNodeJson, cmds: readonly Cmd[], from: number, seqPos: { line: number; col: number }, ctx: Ctx, mem: Mem, path: string): Out {
    this.header(n, 'U-SEQ', from === 0 ? seqPos : cmds[from]!.pos, ctx, path, 2);
    if (n.facts?.from !== from) throw new Reject(path, 'U-SEQ records the wrong position in its sequence');
    const p1 = this.node(n.premises[0]!, cmds[from]!, ctx, mem, `${path}/0`);
    const mem2 = updated(mem, p1.dmu); // E; μ ▷ δμ1 ⊢ c2
    let p2: Out;
    if (from + 2 < cmds.length) {
      this.nodes++;
      p2 = this.seq(n.premises[1]!, cmds, from + 1, seqPos, ctx, mem2, `${path}/1`);
      this.compare(n.premises[1]!, p2, `${path}/1`);
    } else p2 = this.node(n.premises[1]!, cmds[from + 1]!, ctx, mem2, `${path}/1`);
    return seqOut(p1, p2);
  }

  /** ∀ i ≠ j: δμ_i ∘ δμ_j and dom(δμ_i) # ρ_j. */
  private parSideConditions(outs: readonly Out[], path: string): void {
    for (let i = 0; i < outs.length; i++) {
      for (let j = 0; j < outs.length; j++) {
        if (i === j) continue;
        for (const [l, v] of outs[i]!.dmu) {
          if (outs[j]!.rho.has(l)) throw new Reject(path, `read-write race on ${l}: dom(δμ_${i}) # ρ_${j} fails`);
          const w = outs[j]!.dmu.get(l);
          if (w !== undefined && valueText(w) !== valueText(v)) throw new Reject(path, `write-write race on ${l}: δμ_${i} ∘ δμ_${j} fails`);
        }
      }
    }
  }

  /** U-ASSIGN's `reads` fact: μ restricted to rd(e), with the values read. */
  private checkReads(rec: unknown, rd: ReadonlySet<string>, mem: Mem, path: string): void {
    if (!Array.isArray(rec)) throw new Reject(path, 'U-ASSIGN does not list its reads');
    const seen = new Set<string>();
    for (const e of rec) {
      if (!Array.isArray(e) || e.length !== 2 || typeof e[0] !== 'string') throw new Reject(path, 'malformed read');
      const [loc, j] = e as [string, unknown];
      if (!rd.has(loc) || seen.has(loc)) throw new Reject(path, `read ${loc} is not in rd(e)`);
      seen.add(loc);
      const c = mem.get(loc);
      const inst = this.instanceOfLoc(loc, path);
      // null: a `load` read ⊥ there, and a select discarded it (evaluate() gave the value).
      if (j === null) {
        if (c !== undefined && c.kind !== 'bot') throw new Reject(path, `read of ${loc} records ⊥, μ holds a value`);
        continue;
      }
      const v = valueOfJson(j, inst.elem);
      if (c === undefined || c.kind !== 'value' || v === null || valueText(c.v) !== valueText(v)) throw new Reject(path, `read of ${loc} records ${JSON.stringify(j)}, μ holds another value`);
    }
    if (seen.size !== rd.size) throw new Reject(path, 'the recorded reads are not rd(e)');
  }

  private instanceOfLoc(loc: string, path: string): Instance {
    const i = loc.lastIndexOf('[');
    const inst = this.instances.get(loc.slice(0, i));
    if (!inst) throw new Reject(path, `${loc}: unknown array instance`);
    return inst;
  }

  /** The node's recorded δμ and ρ must be the ones its rule computes. */
  private compare(n: DerivationNodeJson, out: Out, path: string): void {
    if (!Array.isArray(n.dmu) || !Array.isArray(n.rho)) throw new Reject(path, 'no δμ or ρ');
    const dmu = new Map<string, string>();
    for (const e of n.dmu) {
      if (!Array.isArray(e) || e.length !== 2 || typeof e[0] !== 'string') throw new Reject(path, 'malformed δμ entry');
      const inst = this.instanceOfLoc(e[0], path);
      const v = valueOfJson(e[1], inst.elem);
      if (v === null || dmu.has(e[0])) throw new Reject(path, `δμ entry ${e[0]} ↦ ${JSON.stringify(e[1])} is not a value of ${inst.elem}`);
      dmu.set(e[0], valueText(v));
    }
    if (dmu.size !== out.dmu.size) throw new Reject(path, `δμ has ${dmu.size} locations, the rule gives ${out.dmu.size}`);
    for (const [l, v] of out.dmu) if (dmu.get(l) !== valueText(v)) throw new Reject(path, `δμ(${l}) is ${dmu.get(l) ?? 'undefined'}, the rule gives ${valueText(v)}`);
    const rho = new Set(n.rho);
    if (rho.size !== n.rho.length || rho.size !== out.rho.size || [...out.rho].some((l) => !rho.has(l))) throw new Reject(path, `ρ is {${n.rho.join('; ')}}, the rule gives {${[...out.rho].join('; ')}}`);
  }
}

const NO_MEMORY: RefMemory = {
  cell: () => {
    throw new Reject('?', 'an affine expression reads memory');
  },
};

function intOfJson(j: unknown): bigint | null {
  if (typeof j === 'number' && Number.isSafeInteger(j)) return BigInt(j);
  if (typeof j === 'string' && /^-?\d+$/.test(j)) return BigInt(j);
  return null;
}

function sameDims(rec: readonly unknown[], dims: readonly bigint[]): boolean {
  return Array.isArray(rec) && rec.length === dims.length && rec.every((x, k) => typeof x === 'number' && BigInt(x) === dims[k]);
}

/**
 * Re-validate a derivation of implementation `ci` rule by rule. The judgement certified is
 * E; μ ⊢ body ⇓ ⟨root.dmu; root.rho⟩ with E = root.env and μ restricted to ρ = `initial`.
 */
export function checkDerivation(ci: CheckedImpl, d: DerivationJson): CheckResult {
  try {
    const nodes = new Checker(ci, d).run();
    return { ok: true, nodes };
  } catch (e) {
    if (e instanceof Reject) return { ok: false, path: e.path, reason: e.message };
    // A malformed certificate can make the walk fail anywhere: that is a rejection too.
    return { ok: false, path: '?', reason: `malformed derivation: ${(e as Error).message}` };
  }
}
