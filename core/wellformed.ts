// Well-formedness of a spec (digest thesis-ch2-3 §1.4, W2 and W5). An ill-formed SARE turned into
// SMT axioms is inconsistent and would "prove" anything, so both checks are exact or fail:
// - W2: the domains of two equations of one tensor are disjoint for every parameter value
//   allowed by the assumptions (one emptiness check per pair, with a witness when they overlap);
// - W5: the spec is well founded: in every recursive group of the tensor dependence graph, a
//   lexicographic ranking makes every in-domain read strictly smaller (and is bounded below where
//   it decreases), for every parameter value.

import type { Expr, TensorRead } from './ast.ts';
import { type Diagnostic, diag } from './diagnostics.ts';
import type { CheckedSpec, NormEquation } from './typecheck.ts';
import { affineToSmt, smtSymbol } from '../smt/affine.ts';
import { checkSat, type SatStatus } from '../smt/z3.ts';

const QUERY_MS = 5000;

function declareInts(names: Iterable<string>): string {
  return [...names].map((n) => `(declare-const ${smtSymbol(n)} Int)`).join('\n');
}

function assumptions(cs: CheckedSpec): string {
  return cs.spec.assumes.map((a) => `(assert ${affineToSmt(a)})`).join('\n');
}

/** Encode `e` with the variables of `from` renamed positionally to the SMT terms `to`. */
function renamed(e: Expr, from: readonly string[], to: readonly string[]): string {
  const m = new Map(from.map((v, i) => [v, to[i]!] as const));
  return affineToSmt(e, (n) => m.get(n) ?? smtSymbol(n));
}

function eqName(eq: NormEquation): string {
  return `equation ${eq.ordinal} of '${eq.tensor}' (line ${eq.source.pos.line})`;
}

function parseModel(output: string): Map<string, string> {
  const m = new Map<string, string>();
  const re = /\(define-fun\s+(\|[^|]*\||[^\s()]+)\s+\(\)\s+Int\s+((?:\(-\s*\d+\))|-?\d+)\s*\)/g;
  for (const x of output.matchAll(re)) m.set(x[1]!.replace(/^\||\|$/g, ''), x[2]!.replace(/\(-\s*(\d+)\)/, '-$1'));
  return m;
}

// -- W2: disjoint domains ---------------------------------------------------------------------

async function checkDisjoint(cs: CheckedSpec, file: string): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const byTensor = new Map<string, NormEquation[]>();
  for (const eq of cs.equations) byTensor.set(eq.tensor, [...(byTensor.get(eq.tensor) ?? []), eq]);
  for (const [tensor, eqs] of byTensor) {
    for (let i = 0; i < eqs.length; i++) {
      for (let j = i + 1; j < eqs.length; j++) {
        const a = eqs[i]!;
        const b = eqs[j]!;
        const xs = a.vars.map((_, k) => `__x${k}`);
        const script = [
          declareInts([...cs.params, ...xs]),
          assumptions(cs),
          `(assert ${renamed(a.guard, a.vars, xs.map(smtSymbol))})`,
          `(assert ${renamed(b.guard, b.vars, xs.map(smtSymbol))})`,
        ].join('\n');
        const r = await checkSat(script, { timeoutMs: QUERY_MS, model: true });
        if (r.status === 'unsat') continue;
        if (r.status === 'sat') {
          const model = parseModel(r.output);
          const point = `${tensor}(${xs.map((x) => model.get(x) ?? '?').join(', ')})`;
          const ps = cs.params.map((p) => `${p} = ${model.get(p) ?? '?'}`).join(', ');
          out.push(diag(file, b.source.pos, 'spec', `the domains of ${eqName(a)} and ${eqName(b)} overlap: both define ${point}${ps ? ` when ${ps}` : ''}`, 'pairwise disjoint domains', `an overlap at ${point}`));
        } else {
          out.push(diag(file, b.source.pos, 'spec', `could not decide whether the domains of ${eqName(a)} and ${eqName(b)} are disjoint (${r.reason})`, 'pairwise disjoint domains', 'solver answer unknown'));
        }
      }
    }
  }
  return out;
}

// -- W5: well-foundedness ---------------------------------------------------------------------

/** A read of a tensor in an equation's right-hand side, with the `let`s in scope (SMT text). */
interface Read {
  readonly read: TensorRead;
  readonly lets: ReadonlyMap<string, string>;
}

function collectReads(e: Expr, lets: ReadonlyMap<string, string>, out: Read[]): void {
  switch (e.kind) {
    case 'tensor':
      out.push({ read: e, lets });
      for (const i of e.indices) collectReads(i, lets, out);
      return;
    case 'array':
      for (const i of e.indices) collectReads(i, lets, out);
      return;
    case 'call':
      for (const a of e.args) collectReads(a, lets, out);
      return;
    case 'unary':
      collectReads(e.arg, lets, out);
      return;
    case 'binary':
      collectReads(e.left, lets, out);
      collectReads(e.right, lets, out);
      return;
    case 'select':
      collectReads(e.cond, lets, out);
      collectReads(e.then, lets, out);
      collectReads(e.else, lets, out);
      return;
    case 'let': {
      collectReads(e.value, lets, out);
      const inner = new Map(lets);
      inner.set(e.name, affineToSmt(e.value, (n) => lets.get(n) ?? smtSymbol(n)));
      collectReads(e.body, inner, out);
      return;
    }
    default:
      return;
  }
}

/** A dependence: points of `src`'s domain read `dst`'s tensor at a point of `dst`'s domain. */
interface Edge {
  readonly src: NormEquation;
  readonly dst: NormEquation;
  readonly read: Read;
  /** SMT terms of the read indices, over src's variables. */
  readonly at: readonly string[];
}

/** A ranking component of one tensor: ±(argument p), or a constant level. */
type Component = { readonly kind: 'coord'; readonly sign: 1 | -1; readonly p: number } | { readonly kind: 'const'; readonly level: number };

function compTerm(c: Component, args: readonly string[]): string {
  if (c.kind === 'const') return c.level.toString();
  return c.sign === 1 ? args[c.p]! : `(- ${args[c.p]!})`;
}

// Linear constraints, for the boundedness check by recession cones.
interface Lin {
  readonly coeffs: ReadonlyMap<string, bigint>;
}
type LinCons = { readonly lin: Lin; readonly op: '>=' | '==' };

function linearTerm(e: Expr): Map<string, bigint> | null {
  const add = (a: Map<string, bigint>, b: Map<string, bigint>, s: bigint): Map<string, bigint> => {
    const r = new Map(a);
    for (const [k, v] of b) r.set(k, (r.get(k) ?? 0n) + s * v);
    return r;
  };
  switch (e.kind) {
    case 'int':
      return new Map([['', e.value]]);
    case 'var':
      return new Map([[e.name, 1n]]);
    case 'unary': {
      if (e.op !== '-') return null;
      const a = linearTerm(e.arg);
      return a && add(new Map(), a, -1n);
    }
    case 'binary': {
      if (e.op === '+' || e.op === '-') {
        const a = linearTerm(e.left);
        const b = linearTerm(e.right);
        return a && b ? add(a, b, e.op === '+' ? 1n : -1n) : null;
      }
      if (e.op === '*') {
        const a = linearTerm(e.left);
        const b = linearTerm(e.right);
        if (!a || !b) return null;
        const ca = [...a.keys()].every((k) => k === '') ? (a.get('') ?? 0n) : null;
        const cb = [...b.keys()].every((k) => k === '') ? (b.get('') ?? 0n) : null;
        if (ca !== null) return add(new Map(), b, ca);
        if (cb !== null) return add(new Map(), a, cb);
      }
      return null;
    }
    default:
      return null;
  }
}

/**
 * Disjunctive normal form of a condition as linear constraints; atoms that are not linear are
 * dropped (replaced by true after pushing negations inward), which only enlarges the set and is
 * therefore sound for a boundedness check. Null when the DNF would be too large.
 */
function linearDnf(e: Expr, negate: boolean, limit = 64): LinCons[][] | null {
  const TRUE: LinCons[][] = [[]];
  const FALSE: LinCons[][] = [];
  const cmp = (l: Expr, r: Expr, op: string): LinCons[][] => {
    const a = linearTerm(l);
    const b = linearTerm(r);
    if (!a || !b) return TRUE;
    const diff = new Map(a);
    for (const [k, v] of b) diff.set(k, (diff.get(k) ?? 0n) - v);
    const neg = new Map([...diff].map(([k, v]) => [k, -v] as const));
    switch (op) {
      case '>=':
        return [[{ lin: { coeffs: diff }, op: '>=' }]];
      case '>':
        return [[{ lin: { coeffs: diff }, op: '>=' }]]; // strictness does not matter for cones
      case '<=':
      case '<':
        return [[{ lin: { coeffs: neg }, op: '>=' }]];
      case '==':
        return [[{ lin: { coeffs: diff }, op: '==' }]];
      default:
        return [[{ lin: { coeffs: diff }, op: '>=' }], [{ lin: { coeffs: neg }, op: '>=' }]];
    }
  };
  const flip: Record<string, string> = { '<': '>=', '<=': '>', '>': '<=', '>=': '<', '==': '!=', '!=': '==' };
  switch (e.kind) {
    case 'bool':
      return e.value !== negate ? TRUE : FALSE;
    case 'unary':
      return e.op === '!' ? linearDnf(e.arg, !negate, limit) : TRUE;
    case 'binary': {
      if (e.op === '&&' || e.op === '||') {
        const a = linearDnf(e.left, negate, limit);
        const b = linearDnf(e.right, negate, limit);
        if (!a || !b) return null;
        const conj = (e.op === '&&') !== negate;
        if (!conj) return a.length + b.length > limit ? null : [...a, ...b];
        if (a.length * b.length > limit) return null;
        return a.flatMap((x) => b.map((y) => [...x, ...y]));
      }
      if (e.op in flip) return cmp(e.left, e.right, negate ? flip[e.op]! : e.op);
      return TRUE;
    }
    default:
      return TRUE;
  }
}

class Ranker {
  private readonly cache = new Map<string, SatStatus>();
  constructor(private readonly cs: CheckedSpec) {}

  private async unsat(key: string, body: string[], vars: readonly string[]): Promise<SatStatus> {
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const script = [declareInts([...this.cs.params, ...vars]), assumptions(this.cs), ...body].join('\n');
    const r = await checkSat(script, { timeoutMs: QUERY_MS });
    this.cache.set(key, r.status);
    return r.status;
  }

  edgeCondition(e: Edge): string[] {
    const xs = e.src.vars.map(smtSymbol);
    const dst = renamed(e.dst.guard, e.dst.vars, e.at);
    return [`(assert ${renamed(e.src.guard, e.src.vars, xs)})`, `(assert ${dst})`];
  }

  /** Does the ranking (cs, cd) decrease along e: weakly (r(dst) ≤ r(src)) or strictly? */
  async decreases(e: Edge, cs: Component, cd: Component, strict: boolean): Promise<boolean> {
    const rs = compTerm(cs, e.src.vars.map(smtSymbol));
    const rd = compTerm(cd, e.at);
    const key = `${e.src.tensor}#${e.src.ordinal}>${e.dst.tensor}#${e.dst.ordinal}@${e.at.join(',')}|${rs}|${rd}|${strict}`;
    const bad = strict ? `(assert (>= ${rd} ${rs}))` : `(assert (> ${rd} ${rs}))`;
    return (await this.unsat(key, [...this.edgeCondition(e), bad], e.src.vars)) === 'unsat';
  }

  /** Is the coordinate component bounded below on the domain of `eq` (recession-cone test)? */
  async boundedBelow(eq: NormEquation, c: Component): Promise<boolean> {
    if (c.kind === 'const') return true;
    const v = eq.vars[c.p]!;
    const dnf = linearDnf(eq.guard, false);
    if (dnf === null) return false;
    for (const [k, conj] of dnf.entries()) {
      const ds = eq.vars.map((x) => `__d_${x}`);
      const lin = (l: Lin): string => {
        const parts = eq.vars.map((x, i) => {
          const a = l.coeffs.get(x) ?? 0n;
          return a === 0n ? null : `(* ${a < 0n ? `(- ${-a})` : a} ${smtSymbol(ds[i]!)})`;
        }).filter((s): s is string => s !== null);
        return parts.length === 0 ? '0' : parts.length === 1 ? parts[0]! : `(+ ${parts.join(' ')})`;
      };
      const body = conj.map((cc) => `(assert (${cc.op === '==' ? '=' : '>='} ${lin(cc.lin)} 0))`);
      const dv = smtSymbol(`__d_${v}`);
      body.push(`(assert (< ${c.sign === 1 ? dv : `(- ${dv})`} 0))`);
      const key = `bound|${eq.tensor}#${eq.ordinal}|${k}|${c.sign}${c.p}`;
      if ((await this.unsat(key, body, ds)) !== 'unsat') return false;
    }
    return true;
  }
}

function sccs(nodes: readonly string[], succ: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  // Tarjan's algorithm, iterative over a small graph (one node per tensor).
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  const strong = (v: string): void => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of succ.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      out.push(comp);
    }
  };
  for (const n of nodes) if (!idx.has(n)) strong(n);
  return out;
}

/** Levels that make every edge between different sub-groups of `edges` strictly decrease. */
function condensationLevels(tensors: readonly string[], edges: readonly Edge[]): Map<string, Component> {
  const succ = new Map<string, Set<string>>();
  for (const e of edges) succ.set(e.src.tensor, new Set([...(succ.get(e.src.tensor) ?? []), e.dst.tensor]));
  // Tarjan returns components in reverse topological order: sinks first get the lowest level.
  const comps = sccs(tensors, succ);
  const m = new Map<string, Component>();
  comps.forEach((c, level) => {
    for (const t of c) m.set(t, { kind: 'const', level });
  });
  return m;
}

function* assignments(tensors: readonly string[], arity: ReadonlyMap<string, number>): Generator<Map<string, Component>> {
  const choices = tensors.map((t) => {
    const cs: Component[] = [];
    for (let p = 0; p < arity.get(t)!; p++) cs.push({ kind: 'coord', sign: 1, p }, { kind: 'coord', sign: -1, p });
    return cs;
  });
  const total = choices.reduce((a, c) => a * Math.max(c.length, 1), 1);
  if (total <= 256) {
    const rec = function* (i: number, acc: Map<string, Component>): Generator<Map<string, Component>> {
      if (i === tensors.length) {
        yield new Map(acc);
        return;
      }
      const cs = choices[i]!;
      if (cs.length === 0) {
        acc.set(tensors[i]!, { kind: 'const', level: 0 });
        yield* rec(i + 1, acc);
        return;
      }
      for (const c of cs) {
        acc.set(tensors[i]!, c);
        yield* rec(i + 1, acc);
      }
    };
    yield* rec(0, new Map());
    return;
  }
  // Too many combinations: the same coordinate for every tensor of the group.
  const maxArity = Math.max(...tensors.map((t) => arity.get(t)!));
  for (let p = 0; p < maxArity; p++) {
    for (const sign of [1, -1] as const) {
      yield new Map(tensors.map((t) => [t, p < arity.get(t)! ? ({ kind: 'coord', sign, p } as Component) : ({ kind: 'const', level: 0 } as Component)]));
    }
  }
}

async function checkWellFounded(cs: CheckedSpec, file: string): Promise<Diagnostic[]> {
  const byTensor = new Map<string, NormEquation[]>();
  for (const eq of cs.equations) byTensor.set(eq.tensor, [...(byTensor.get(eq.tensor) ?? []), eq]);
  const edges: Edge[] = [];
  for (const src of cs.equations) {
    const reads: Read[] = [];
    collectReads(src.rhs, new Map(), reads);
    for (const r of reads) {
      for (const dst of byTensor.get(r.read.name) ?? []) {
        const at = r.read.indices.map((ix) => affineToSmt(ix, (n) => r.lets.get(n) ?? smtSymbol(n)));
        edges.push({ src, dst, read: r, at });
      }
    }
  }
  const succ = new Map<string, Set<string>>();
  for (const e of edges) succ.set(e.src.tensor, new Set([...(succ.get(e.src.tensor) ?? []), e.dst.tensor]));
  const groups = sccs([...byTensor.keys()], succ);
  const ranker = new Ranker(cs);
  const arity = new Map([...cs.tensors.values()].map((t) => [t.name, t.vars.length] as const));
  const out: Diagnostic[] = [];
  for (const group of groups) {
    const inGroup = new Set(group);
    let remaining = edges.filter((e) => inGroup.has(e.src.tensor) && inGroup.has(e.dst.tensor));
    while (remaining.length > 0) {
      let progress = false;
      const candidates = [condensationLevels(group, remaining), ...assignments(group, arity)];
      for (const cand of candidates) {
        let weakOk = true;
        for (const e of remaining) {
          if (!(await ranker.decreases(e, cand.get(e.src.tensor)!, cand.get(e.dst.tensor)!, false))) {
            weakOk = false;
            break;
          }
        }
        if (!weakOk) continue;
        const strict: Edge[] = [];
        for (const e of remaining) {
          const c = cand.get(e.src.tensor)!;
          if ((await ranker.decreases(e, c, cand.get(e.dst.tensor)!, true)) && (await ranker.boundedBelow(e.src, c))) strict.push(e);
        }
        if (strict.length === 0) continue;
        remaining = remaining.filter((e) => !strict.includes(e));
        progress = true;
        break;
      }
      if (!progress) {
        const e = remaining[0]!;
        const readText = `${e.read.read.name}(…) at line ${e.read.read.pos.line}`;
        const same = e.src.tensor === e.dst.tensor && e.src === e.dst;
        const what = group.length === 1 ? `'${group[0]}'` : `the recursive group {${group.join(', ')}}`;
        out.push(
          diag(file, e.src.source.pos, 'spec',
            `spec '${cs.spec.name}' is not well founded: ${eqName(e.src)} reads ${readText}${same ? ', inside the domain of the same equation,' : ` inside the domain of ${eqName(e.dst)}`} and no ranking of ${what} makes every such read strictly smaller (a self-dependent equation such as A(i) = A(i) + 1 has no solution)`,
            'every in-domain read of the same recursive group strictly smaller (e.g. R(i, k) reading R(i, k - 1) where 0 <= k)',
            `a read that is not provably smaller`),
        );
        break;
      }
    }
  }
  return out;
}

/** All well-formedness errors of one spec (disjointness first: well-foundedness presumes it). */
export async function checkSpecWellFormed(cs: CheckedSpec, file: string): Promise<Diagnostic[]> {
  const d = await checkDisjoint(cs, file);
  if (d.length > 0) return d;
  return checkWellFounded(cs, file);
}
