// Well-formedness of a spec (thesis §2.2). An ill-formed SARE turned into
// SMT axioms is inconsistent and would "prove" anything, so both checks are exact or fail:
// - W2: the domains of two equations of one tensor are disjoint for every parameter value
//   allowed by the assumptions (one emptiness check per pair, with a witness when they overlap);
// - W5: the spec is well founded: in every recursive group of the tensor dependence graph, a
//   lexicographic ranking makes every in-domain read strictly smaller (and is bounded below where
//   it decreases), for every parameter value.

import type { Expr, TensorRead } from './ast.ts';
import { type Diagnostic, diag } from './diagnostics.ts';
import type { CheckedSpec, NormEquation } from './typecheck.ts';
import { affineToSmt, smtSymbol } from './affine-smt.ts';
import { checkSat, checkSatBatch, runZ3, type SatStatus } from '../../smt/z3.ts';

export interface WellFormedOptions {
  /** Budget of one solver query (default 5000 ms); past it the answer is unknown. */
  readonly queryMs?: number;
  /**
   * Solver queries allowed per spec, whether answered by Z3 or from the cache of earlier
   * identical queries (default 2000); past it the spec is reported as not checked.
   */
  readonly maxQueries?: number;
  /**
   * Calls to Z3 allowed per spec (one call may answer a batch of queries; a call answered from
   * remembered answers counts too, so that the outcome does not depend on what was checked
   * before). Unlimited by default; tests use it to bound the solver work per input.
   */
  readonly maxSolverCalls?: number;
}

const QUERY_MS = 5000;
const MAX_QUERIES = 2000;

/**
 * The SMT symbol of a SCHED name. Every name gets a prefix: SCHED names such as `and`, `or`,
 * `xor`, `distinct`, `as` or `_` are SMT-LIB builtins or reserved words (quoting does not help:
 * `|and|` is the symbol `and`), and names such as `e` or `pi` clash with Z3 constants. Names the
 * checker introduces (`__x0`, `__d_i`) start with `__`, which no prefixed name does.
 */
function sym(name: string): string {
  return smtSymbol(`s_${name}`);
}

function declareInts(syms: Iterable<string>): string {
  return [...syms].map((n) => `(declare-const ${n} Int)`).join('\n');
}

function assumptions(cs: CheckedSpec): string {
  return cs.spec.assumes.map((a) => `(assert ${affineToSmt(a, sym)})`).join('\n');
}

/** Encode `e` with the variables of `from` renamed positionally to the SMT terms `to`. */
function renamed(e: Expr, from: readonly string[], to: readonly string[]): string {
  const m = new Map(from.map((v, i) => [v, to[i]!] as const));
  return affineToSmt(e, (n) => m.get(n) ?? sym(n));
}

/** Budget exhausted: the check stops and the spec is reported as not checked. */
class OutOfQueries extends Error {}

/**
 * Earlier identical queries (scripts contain no positions or file names, so one spec checked twice,
 * or two files sharing a spec, ask the same questions) are answered from the solver layer's
 * remembered answers (smt/z3.ts), by the whole text of a batch or query and its budget: what asking
 * again would answer. A cache by query once fed answers from one batch into another, whose
 * composition then depended on what had been checked before.
 */
/**
 * The solver queries of the check of one spec, counted against its budget (every query counts,
 * answered from the cache or not, so that the outcome does not depend on what was checked
 * before). Independent queries are sent to Z3 together, as one script where each query sits
 * between `(push 1)` and `(pop 1)`: a fresh Z3 context costs far more than a small query.
 */
class Solver {
  private used = 0;
  private calls = 0;
  constructor(private readonly opts: WellFormedOptions) {}

  /** About to call Z3 (`n` times when a batch must be retried one query at a time). */
  private call(n = 1): void {
    this.calls += n;
    if (this.calls > (this.opts.maxSolverCalls ?? Infinity)) throw new OutOfQueries();
  }

  private get queryMs(): number {
    return this.opts.queryMs ?? QUERY_MS;
  }
  get budgetText(): string {
    return `${this.queryMs} ms`;
  }

  private spend(n: number): void {
    this.used += n;
    if (this.used > (this.opts.maxQueries ?? MAX_QUERIES)) throw new OutOfQueries();
  }

  /** The satisfiability of each script (declarations and assertions, no check-sat). */
  async statuses(scripts: readonly string[]): Promise<SatStatus[]> {
    this.spend(scripts.length);
    const todo = [...new Set(scripts)];
    const got = new Map<string, SatStatus>();
    if (todo.length === 1) {
      this.call();
      got.set(todo[0]!, (await checkSat(todo[0]!, { timeoutMs: this.queryMs, remember: true })).status);
    } else if (todo.length > 1) {
      // One call, each query in its own scope with its own budget (smt/z3.ts).
      this.call();
      const rs = await checkSatBatch(todo, { timeoutMs: this.queryMs, remember: true });
      const broken = rs.filter((r) => r.reason?.startsWith('solver error'));
      // Never trust a query of a batch that went wrong: ask it on its own.
      this.call(broken.length);
      for (const [i, x] of todo.entries()) got.set(x, rs[i]!.reason?.startsWith('solver error') ? (await checkSat(x, { timeoutMs: this.queryMs, remember: true })).status : rs[i]!.status);
    }
    return scripts.map((x) => got.get(x) ?? 'unknown');
  }

  /** A model of a script known to be satisfiable (for a witness in a message), or null. */
  async model(script: string): Promise<Map<string, string> | null> {
    this.spend(1);
    this.call();
    const r = await runZ3(`${script}\n(check-sat)\n(get-model)`, { timeoutMs: this.queryMs, remember: true });
    return r.status === 'sat' ? parseModel(r.output) : null;
  }
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

/** Value of an index expression made of integer literals, + - * and unary minus; else null. */
function constInt(e: Expr): bigint | null {
  if (e.kind === 'int') return e.value;
  if (e.kind === 'unary' && e.op === '-') {
    const a = constInt(e.arg);
    return a === null ? null : -a;
  }
  if (e.kind === 'binary' && (e.op === '+' || e.op === '-' || e.op === '*')) {
    const a = constInt(e.left);
    const b = constInt(e.right);
    if (a === null || b === null) return null;
    return e.op === '+' ? a + b : e.op === '-' ? a - b : a * b;
  }
  return null;
}

type Interval = [bigint | null, bigint | null];

/**
 * Constant bounds on each variable of an equation, read from the top-level conjuncts of its guard
 * of the form `x op c` or `c op x` (c a constant). Sound: the domain lies inside the box.
 */
function constBounds(eq: NormEquation): Interval[] {
  const box: Interval[] = eq.vars.map(() => [null, null]);
  const tighten = (k: number, lo: bigint | null, hi: bigint | null): void => {
    const [a, b] = box[k]!;
    box[k] = [lo === null ? a : a === null || lo > a ? lo : a, hi === null ? b : b === null || hi < b ? hi : b];
  };
  const flip: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '==': '==' };
  const visit = (e: Expr): void => {
    if (e.kind !== 'binary') return;
    if (e.op === '&&') {
      visit(e.left);
      visit(e.right);
      return;
    }
    if (!(e.op in flip)) return;
    let [x, c, op] = [e.left, e.right, e.op as string];
    if (x.kind !== 'var') [x, c, op] = [e.right, e.left, flip[e.op]!];
    const k = x.kind === 'var' ? eq.vars.indexOf(x.name) : -1;
    const v = constInt(c);
    if (k < 0 || v === null) return;
    if (op === '<') tighten(k, null, v - 1n);
    else if (op === '<=') tighten(k, null, v);
    else if (op === '>') tighten(k, v + 1n, null);
    else if (op === '>=') tighten(k, v, null);
    else tighten(k, v, v);
  };
  visit(eq.guard);
  return box;
}

/** Some variable ranges over disjoint constant intervals in the two domains. */
function triviallyDisjoint(a: Interval[], b: Interval[]): boolean {
  return a.some(([alo, ahi], k) => {
    const [blo, bhi] = b[k]!;
    return (ahi !== null && blo !== null && ahi < blo) || (bhi !== null && alo !== null && bhi < alo);
  });
}

async function checkDisjoint(cs: CheckedSpec, file: string, solver: Solver): Promise<Diagnostic[]> {
  const byTensor = new Map<string, NormEquation[]>();
  for (const eq of cs.equations) byTensor.set(eq.tensor, [...(byTensor.get(eq.tensor) ?? []), eq]);
  const pairs: { tensor: string; a: NormEquation; b: NormEquation; xs: string[]; script: string }[] = [];
  for (const [tensor, eqs] of byTensor) {
    // Equations of a table (`W(0) = …; W(1) = …`) or of consecutive ranges need no solver.
    const boxes = eqs.map(constBounds);
    for (let i = 0; i < eqs.length; i++) {
      for (let j = i + 1; j < eqs.length; j++) {
        if (triviallyDisjoint(boxes[i]!, boxes[j]!)) continue;
        const a = eqs[i]!;
        const b = eqs[j]!;
        const xs = a.vars.map((_, k) => `__x${k}`);
        const script = [
          declareInts([...cs.params.map(sym), ...xs.map(smtSymbol)]),
          assumptions(cs),
          `(assert ${renamed(a.guard, a.vars, xs.map(smtSymbol))})`,
          `(assert ${renamed(b.guard, b.vars, xs.map(smtSymbol))})`,
        ].join('\n');
        pairs.push({ tensor, a, b, xs, script });
      }
    }
  }
  const st = await solver.statuses(pairs.map((p) => p.script));
  const out: Diagnostic[] = [];
  for (const [k, { tensor, a, b, xs, script }] of pairs.entries()) {
    if (st[k] === 'unsat') continue;
    if (st[k] === 'sat') {
      const model = (await solver.model(script)) ?? new Map<string, string>();
      const point = `${tensor}(${xs.map((x) => model.get(x) ?? '?').join(', ')})`;
      const ps = cs.params.map((p) => `${p} = ${model.get(`s_${p}`) ?? '?'}`).join(', ');
      out.push(diag(file, b.source.pos, 'spec', `the domains of ${eqName(a)} and ${eqName(b)} overlap: both define ${point}${ps ? ` when ${ps}` : ''}`, 'pairwise disjoint domains', `an overlap at ${point}`));
    } else {
      out.push(diag(file, b.source.pos, 'spec', `could not decide whether the domains of ${eqName(a)} and ${eqName(b)} are disjoint (the solver answered unknown within ${solver.budgetText})`, 'pairwise disjoint domains', 'solver answer unknown'));
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
      inner.set(e.name, affineToSmt(e.value, (n) => lets.get(n) ?? sym(n)));
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
  /**
   * Assertions restricting the edge to the reads not yet ranked: after a ranking component has
   * been applied, the reads it makes strictly smaller are done and the others keep it equal.
   */
  readonly extra: readonly string[];
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

/**
 * The linear part of an index expression, or null. A subexpression that mentions no variable of
 * `vars` (the equation's) is a constant as far as recession cones go, whatever its form
 * (`8 * (N / 8)` bounds `t` below as well as `0` does).
 */
function linearTerm(e: Expr, vars: ReadonlySet<string>): Map<string, bigint> | null {
  if (!mentions(e, vars)) return new Map([['', 0n]]);
  const linearTerm_ = (x: Expr): Map<string, bigint> | null => linearTerm(x, vars);
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
      const a = linearTerm_(e.arg);
      return a && add(new Map(), a, -1n);
    }
    case 'binary': {
      if (e.op === '+' || e.op === '-') {
        const a = linearTerm_(e.left);
        const b = linearTerm_(e.right);
        return a && b ? add(a, b, e.op === '+' ? 1n : -1n) : null;
      }
      if (e.op === '*') {
        const a = linearTerm_(e.left);
        const b = linearTerm_(e.right);
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

function mentions(e: Expr, vars: ReadonlySet<string>): boolean {
  switch (e.kind) {
    case 'var':
      return vars.has(e.name);
    case 'int':
    case 'bool':
    case 'float':
      return false;
    case 'unary':
      return mentions(e.arg, vars);
    case 'binary':
      return mentions(e.left, vars) || mentions(e.right, vars);
    case 'call':
      return e.args.some((a) => mentions(a, vars));
    case 'select':
      return mentions(e.cond, vars) || mentions(e.then, vars) || mentions(e.else, vars);
    case 'let':
      return mentions(e.value, vars) || mentions(e.body, vars);
    case 'array':
    case 'tensor':
      return e.indices.some((a) => mentions(a, vars));
  }
}

/**
 * Disjunctive normal form of a condition as linear constraints; atoms that are not linear are
 * dropped (replaced by true after pushing negations inward), which only enlarges the set and is
 * therefore sound for a boundedness check. Null when the DNF would be too large.
 */
function linearDnf(e: Expr, negate: boolean, vars: ReadonlySet<string>, limit = 64): LinCons[][] | null {
  const TRUE: LinCons[][] = [[]];
  const FALSE: LinCons[][] = [];
  const cmp = (l: Expr, r: Expr, op: string): LinCons[][] => {
    const a = linearTerm(l, vars);
    const b = linearTerm(r, vars);
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
      return e.op === '!' ? linearDnf(e.arg, !negate, vars, limit) : TRUE;
    case 'binary': {
      if (e.op === '&&' || e.op === '||') {
        const a = linearDnf(e.left, negate, vars, limit);
        const b = linearDnf(e.right, negate, vars, limit);
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

/** Builds the queries of the ranking search; every query is unsat when the property holds. */
class Ranker {
  constructor(private readonly cs: CheckedSpec) {}

  /** `vars`: the SMT symbols of the variables of `body` other than the parameters. */
  private script(body: readonly string[], vars: readonly string[]): string {
    return [declareInts([...this.cs.params.map(sym), ...vars]), assumptions(this.cs), ...body].join('\n');
  }

  private edgeCondition(e: Edge): string[] {
    const xs = e.src.vars.map(sym);
    const dst = renamed(e.dst.guard, e.dst.vars, e.at);
    return [`(assert ${renamed(e.src.guard, e.src.vars, xs)})`, `(assert ${dst})`, ...e.extra];
  }

  private terms(e: Edge, c: Candidate): { rs: string; rd: string } {
    return { rs: compTerm(c.get(e.src.tensor)!, e.src.vars.map(sym)), rd: compTerm(c.get(e.dst.tensor)!, e.at) };
  }

  /** Unsat iff the ranking c never increases along e (r(dst) ≤ r(src)). */
  weak(e: Edge, c: Candidate): string {
    const { rs, rd } = this.terms(e, c);
    return this.script([...this.edgeCondition(e), `(assert (> ${rd} ${rs}))`], e.src.vars.map(sym));
  }

  /** Unsat iff the ranking c strictly decreases along e. */
  strict(e: Edge, c: Candidate): string {
    const { rs, rd } = this.terms(e, c);
    return this.script([...this.edgeCondition(e), `(assert (>= ${rd} ${rs}))`], e.src.vars.map(sym));
  }

  /** Unsat iff the ranking c is equal at both ends of every read of e. */
  equal(e: Edge, c: Candidate): string {
    const { rs, rd } = this.terms(e, c);
    return this.script([...this.edgeCondition(e), `(assert (not (= ${rd} ${rs})))`], e.src.vars.map(sym));
  }

  /** The reads of e that keep the ranking c equal. */
  restrict(e: Edge, c: Candidate): Edge {
    const { rs, rd } = this.terms(e, c);
    return { ...e, extra: [...e.extra, `(assert (= ${rd} ${rs}))`] };
  }

  /**
   * Queries that are all unsat iff the coordinate component is bounded below on the domain of
   * `eq` (recession-cone test); null when that cannot be shown (a guard too large to expand).
   */
  bounded(eq: NormEquation, c: Component): string[] | null {
    if (c.kind === 'const') return [];
    const v = eq.vars[c.p]!;
    const dnf = linearDnf(eq.guard, false, new Set(eq.vars));
    if (dnf === null) return null;
    const ds = eq.vars.map((x) => `__d_${x}`);
    return dnf.map((conj) => {
      const lin = (l: Lin): string => {
        const parts = eq.vars.map((x, i) => {
          const a = l.coeffs.get(x) ?? 0n;
          return a === 0n ? null : `(* ${a < 0n ? `(- ${-a})` : a} ${smtSymbol(ds[i]!)})`;
        }).filter((t): t is string => t !== null);
        return parts.length === 0 ? '0' : parts.length === 1 ? parts[0]! : `(+ ${parts.join(' ')})`;
      };
      const body = conj.map((cc) => `(assert (${cc.op === '==' ? '=' : '>='} ${lin(cc.lin)} 0))`);
      const dv = smtSymbol(`__d_${v}`);
      body.push(`(assert (< ${c.sign === 1 ? dv : `(- ${dv})`} 0))`);
      return this.script(body, ds.map(smtSymbol));
    });
  }
}

type Candidate = ReadonlyMap<string, Component>;

/** Candidates whose never-increasing test is sent to the solver together. */
const CHUNK = 8;

/**
 * Apply candidate c to the remaining edges (all of which it never increases): the edges it
 * strictly decreases where it is bounded below are done, the others are restricted to the reads
 * that keep it equal. Null when c ranks nothing new.
 */
async function applyCandidate(ranker: Ranker, solver: Solver, c: Candidate, edges: readonly Edge[]): Promise<Edge[] | null> {
  const boundedQueries = edges.map((e) => ranker.bounded(e.src, c.get(e.src.tensor)!));
  const flat = boundedQueries.flatMap((q) => q ?? []);
  const edgeQueries = edges.flatMap((e) => [ranker.strict(e, c), ranker.equal(e, c)]);
  const st = await solver.statuses([...flat, ...edgeQueries]);
  const boundedSt = st.slice(0, flat.length);
  const edgeSt = st.slice(flat.length);
  let at = 0;
  const next: Edge[] = [];
  let changed = false;
  edges.forEach((e, k) => {
    const q = boundedQueries[k];
    const isBounded = q !== null && q.every((_, i) => boundedSt[at + i] === 'unsat');
    at += q?.length ?? 0;
    const strict = edgeSt[2 * k] === 'unsat';
    const equal = edgeSt[2 * k + 1] === 'unsat';
    if (!isBounded) next.push(e);
    else if (strict) changed = true;
    else if (equal) next.push(e);
    else {
      next.push(ranker.restrict(e, c));
      changed = true;
    }
  });
  return changed ? next : null;
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

async function checkWellFounded(cs: CheckedSpec, file: string, solver: Solver): Promise<Diagnostic[]> {
  const byTensor = new Map<string, NormEquation[]>();
  for (const eq of cs.equations) byTensor.set(eq.tensor, [...(byTensor.get(eq.tensor) ?? []), eq]);
  const edges: Edge[] = [];
  for (const src of cs.equations) {
    const reads: Read[] = [];
    collectReads(src.rhs, new Map(), reads);
    for (const r of reads) {
      for (const dst of byTensor.get(r.read.name) ?? []) {
        const at = r.read.indices.map((ix) => affineToSmt(ix, (n) => r.lets.get(n) ?? sym(n)));
        edges.push({ src, dst, read: r, at, extra: [] });
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
    // A lexicographic ranking, one component at a time: a component that never increases along
    // the remaining reads is applied; the reads it makes strictly smaller (where it is bounded
    // below) are done, and the others are restricted to the reads that keep it equal, for the
    // next components to rank. Each component makes progress at most once, so this terminates.
    const applied = new Set<string>();
    while (remaining.length > 0) {
      let progress = false;
      const candidates = [...(group.length > 1 ? [condensationLevels(group, remaining)] : []), ...assignments(group, arity)].filter(
        (c) => !applied.has(JSON.stringify([...c])),
      );
      for (let i = 0; i < candidates.length && !progress; i += CHUNK) {
        const chunk = candidates.slice(i, i + CHUNK);
        const st = await solver.statuses(chunk.flatMap((c) => remaining.map((e) => ranker.weak(e, c))));
        for (const [j, c] of chunk.entries()) {
          if (!st.slice(j * remaining.length, (j + 1) * remaining.length).every((x) => x === 'unsat')) continue;
          const next = await applyCandidate(ranker, solver, c, remaining);
          if (next === null) continue;
          applied.add(JSON.stringify([...c]));
          remaining = next;
          progress = true;
          break;
        }
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
export async function checkSpecWellFormed(cs: CheckedSpec, file: string, opts: WellFormedOptions = {}): Promise<Diagnostic[]> {
  const solver = new Solver(opts);
  try {
    const d = await checkDisjoint(cs, file, solver);
    if (d.length > 0) return d;
    return await checkWellFounded(cs, file, solver);
  } catch (e) {
    if (!(e instanceof OutOfQueries)) throw e;
    const budget = `${opts.maxQueries ?? MAX_QUERIES} solver queries${opts.maxSolverCalls === undefined ? '' : ` in ${opts.maxSolverCalls} solver calls`}`;
    return [
      diag(file, cs.spec.pos, 'spec', `could not check that spec '${cs.spec.name}' is well formed (disjoint domains, well founded) within ${budget}`, `a check within ${budget}`, 'more solver work needed'),
    ];
  }
}
