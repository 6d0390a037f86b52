// The implementation's interface against its spec (ARCHITECTURE decision 7). A compiler writes the
// impl's `input`/`output` declarations and its `assume`s as well as its loops, and none of them is
// trusted: an input array bound to the spec's output hands the program the answer, an output bound
// on part of its domain checks nothing there, an `assume` that contradicts the spec's makes every
// obligation vacuous. The rules (docs/language.md, "The interface"):
//
//   I-INPUT     an input array holds a read A(ι…) of one of the spec's *input* tensors at affine
//               indices, or constants and `select(β, …, …)` on affine conditions around such reads
//               (padding): nothing that computes on values, which would hide the computation in
//               the declaration (`= A(i) * 3 + 1` and a body that copies it out);
//   I-OUTPUT    an output array is bound to a read O(ι…) of one of the spec's *output* tensors,
//               and every output tensor is bound by exactly one output array;
//   I-ONTO      every point of O's domain (the union of its equations' guards) is the binding of
//               some cell of the array's checked region (its box, restricted by `where`);
//   I-WITHIN    every cell of the checked region is bound to a point of O's domain (outside it O is
//               unconstrained, so nothing could be checked there);
//   I-ASSUME    the spec's and the impl's assumptions together allow some parameter value.
//
// I-INPUT and I-OUTPUT are syntactic. I-ONTO and I-WITHIN are Presburger conditions over the
// parameters, decided like every other obligation (their refutations are exact, with a model), and
// I-ASSUME is a satisfiability question whose witness becomes a certificate. A violation is the
// verdict `invalid` with the class `interface`.

import { type Expr, declVars, isValueTypeName } from '../../core/language/ast.ts';
import type { CheckedImpl } from '../../core/language/typecheck.ts';
import type { Formula, Term } from '../../core/presburger/types.ts';
import { and, andAll, eqT, exists, geT, gtT, implies, ltT, not, orAll, TRUE } from '../../core/presburger/formula.ts';
import { constant, variable } from '../../core/presburger/term.ts';
import { eliminate, eliminateExists } from '../../core/presburger/qe.ts';
import { simplify } from '../../core/presburger/simplify.ts';
import { satisfiable } from '../../core/presburger/decide.ts';
import { formulaToSmt, smtSymbol } from '../../core/presburger/smtlib.ts';
import { printExpr } from '../../core/language/printer.ts';
import { visit } from '../../core/language/walk.ts';
import { type AffineEnv, formulaOf, termOf } from '../../core/language/affine.ts';

export const INTERFACE_CLASS = 'interface';

export interface InterfaceViolation {
  /** The rule broken (I-INPUT, I-OUTPUT, I-ONTO, I-WITHIN, I-ASSUME). */
  readonly rule: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
  /** For the semantic rules: the parameter values (and points) that show it. */
  readonly values?: Record<string, string>;
}

/** I-INPUT and I-OUTPUT: the bindings' shapes, decided without a solver. */
export function interfaceViolations(ci: CheckedImpl): InterfaceViolation[] {
  const spec = ci.spec;
  const out: InterfaceViolation[] = [];
  const boundBy = new Map<string, string[]>();
  for (const [name, info] of ci.arrays) {
    const d = info.decl;
    if (info.value === null) continue;
    if (d.role === 'input') {
      const bad = new Set<string>();
      visit(info.value, (x) => {
        if (x.kind === 'tensor' && spec.tensors.get(x.name)?.role !== 'input') bad.add(x.name);
      });
      for (const t of bad) {
        const role = spec.tensors.get(t)?.role === 'output' ? 'an output' : 'a computed tensor';
        out.push({ rule: 'I-INPUT', line: d.pos.line, col: d.pos.col, message: `input array '${name}' is bound to ${printExpr(d.value ?? info.value)}, which reads '${t}', ${role} of spec '${spec.spec.name}': an input array may hold only the spec's input tensors` });
      }
      const computes = bad.size === 0 ? computationIn(info.value) : null;
      if (computes !== null) {
        out.push({ rule: 'I-INPUT', line: d.pos.line, col: d.pos.col, message: `input array '${name}' is bound to ${printExpr(d.value ?? info.value)}, which ${computes}: an input array holds a read of an input tensor at affine indices, or constants and select on affine conditions around such reads (padding); a computation in the declaration would be handed to the program unchecked` });
      }
    } else if (d.role === 'output') {
      const v = info.value;
      const role = v.kind === 'tensor' ? spec.tensors.get(v.name)?.role : undefined;
      if (v.kind !== 'tensor' || role !== 'output') {
        const what = v.kind !== 'tensor' ? `${printExpr(d.value ?? v)}, which is not a read of an output tensor` : `'${v.name}', ${role === 'input' ? 'an input' : 'a computed tensor'} of spec '${spec.spec.name}'`;
        out.push({ rule: 'I-OUTPUT', line: d.pos.line, col: d.pos.col, message: `output array '${name}' is bound to ${what}: an output array must be bound to a read O(…) of one of the spec's outputs` });
        continue;
      }
      boundBy.set(v.name, [...(boundBy.get(v.name) ?? []), name]);
    }
  }
  for (const t of spec.spec.tensors) {
    if (t.role !== 'output') continue;
    const arrays = boundBy.get(t.name) ?? [];
    if (arrays.length === 0) {
      out.push({ rule: 'I-OUTPUT', line: ci.impl.pos.line, col: ci.impl.pos.col, message: `output '${t.name}' of spec '${spec.spec.name}' is bound by no output array of impl '${ci.impl.name}': every output of the spec must be produced` });
    } else if (arrays.length === 1) {
      const unbounded = unboundedOutput(ci, t.name, arrays[0]!);
      if (unbounded !== null) out.push(unbounded);
    } else if (arrays.length > 1) {
      const d = ci.arrays.get(arrays[1]!)!.decl;
      out.push({ rule: 'I-OUTPUT', line: d.pos.line, col: d.pos.col, message: `output '${t.name}' is bound by ${arrays.length} output arrays (${arrays.map((a) => `'${a}'`).join(', ')}): each output of the spec is bound by exactly one` });
    }
  }
  return out;
}

/**
 * I-ONTO when no array can meet it: an output whose domain (the union of its equations' guards) is
 * unbounded in some coordinate for some parameter value the assumptions allow — an output
 * declared without a `where` that bounds it. Decided exactly (∃p. A(p) ∧ ∀M ∃y ∈ dom. y_k > M,
 * and the same below) and said as such, with the bound the array's box suggests, rather than as
 * a point outside the box. Eliminations that run out of budget decide nothing: the ordinary
 * I-ONTO condition then applies.
 */
function unboundedOutput(ci: CheckedImpl, tensor: string, array: string): InterfaceViolation | null {
  const decl = ci.spec.tensors.get(tensor)!;
  const ys = decl.vars.map((_, k) => `${tensor}#point${k}`);
  const m = `${tensor}#bound`;
  const dom = domainAt(ci, tensor, ys.map((y) => variable(y)));
  const params = ci.spec.params;
  const unboundedWhere = (k: number, beyond: (y: Term, b: Term) => Formula): boolean => {
    const past = eliminateExists(ys, and(dom, beyond(variable(ys[k]!), variable(m)))); // ∃y ∈ dom beyond M
    if (past === null) return false;
    const bounded = eliminateExists([m], not(past)); // some M bounds the coordinate
    if (bounded === null) return false;
    const somewhere = eliminateExists(params, and(assumptions(ci), not(bounded)));
    return somewhere !== null && simplify(somewhere).kind === 'true';
  };
  const open: string[] = [];
  for (const [k, v] of decl.vars.entries()) {
    const above = unboundedWhere(k, (y, b) => gtT(y, b));
    const below = unboundedWhere(k, (y, b) => ltT(y, b));
    if (above || below) open.push(`${v} has no ${above && below ? 'lower or upper' : above ? 'upper' : 'lower'} bound`);
  }
  if (open.length === 0) return null;
  const info = ci.arrays.get(array)!;
  const d = info.decl;
  const v = info.value;
  // The bound the array's own box gives, when the binding is O(x…) over the cell's own indices.
  const identity = v !== null && v.kind === 'tensor' && v.indices.length === info.vars.length && v.indices.every((x, k) => x.kind === 'var' && x.name === info.vars[k]);
  const suggestion = identity
    ? ` where ${decl.vars.map((x, k) => `0 <= ${x} && ${x} < ${printExpr(d.dims[k]!)}`).join(' && ')}`
    : ` where ${decl.vars.map((x) => `0 <= ${x} && ${x} < …`).join(' && ')}`;
  return {
    rule: 'I-ONTO',
    line: d.pos.line,
    col: d.pos.col,
    message: `the domain of output '${tensor}' of spec '${ci.spec.spec.name}' (line ${decl.pos.line} of the spec) is unbounded: ${open.join(', ')}, since no \`where\` of its equations bounds it; output array '${array}' is finite, so no implementation can cover that domain. Bound it in the spec: output ${tensor}(${decl.vars.join(', ')}): ${decl.type} = …${suggestion}`,
  };
}

/**
 * What an input binding computes on values, as a phrase ("applies '*' to values"), or null when it
 * is a plain binding: a tensor read (its indices are affine: the type checker allows nothing else
 * there), a literal (also negated), a cast to the type its argument already has or of a literal,
 * an index `let`, and `select(β, x, y)` with β an affine condition and x, y plain bindings. A cast
 * of an index (`f32(i)`) computes a value the inputs do not hold, and a select on a value
 * condition (`select(A(i) > 0, A(i), 0)`) computes on values: both are refused.
 */
export function computationIn(e: Expr): string | null {
  switch (e.kind) {
    case 'tensor':
    case 'int':
    case 'float':
    case 'bool':
      return null;
    case 'unary':
      return e.op === '-' && (e.arg.kind === 'int' || e.arg.kind === 'float') ? null : `applies '${e.op}' to a value`;
    case 'let':
      return computationIn(e.body);
    case 'select':
      if (e.cond.ty?.kind !== 'cond') return `selects on a value condition (${printExpr(e.cond)})`;
      return computationIn(e.then) ?? computationIn(e.else);
    case 'call': {
      const arg = e.args[0];
      if (e.args.length === 1 && arg !== undefined && isValueTypeName(e.fn)) {
        if (arg.kind === 'int' || arg.kind === 'float' || arg.kind === 'bool') return null;
        if (arg.ty?.kind === 'value' && arg.ty.vt === e.fn) return computationIn(arg);
        return arg.ty?.kind === 'value' ? `converts a value to ${e.fn}` : `makes a value of an index (${printExpr(e)})`;
      }
      return `applies '${e.fn}' to values`;
    }
    case 'binary':
      return `applies '${e.op}' to values`;
    case 'var':
    case 'array':
      return `is not a read of an input tensor (${printExpr(e)})`;
  }
}

/** A condition that must hold for every parameter value satisfying the assumptions. */
export interface InterfaceCondition {
  readonly rule: 'I-ONTO' | 'I-WITHIN';
  readonly line: number;
  readonly col: number;
  readonly description: string;
  /** Free variables other than the parameters, with the names a counterexample shows. */
  readonly shown: ReadonlyMap<string, string>;
  readonly goal: Formula;
}

/** The spec's and the impl's assumptions, as one formula over the parameters. */
export function assumptions(ci: CheckedImpl): Formula {
  return andAll([...ci.spec.spec.assumes, ...ci.impl.assumes].map((a) => formulaOf(a)));
}

/** O's domain at the point `ys`: the union of its equations' guards. */
function domainAt(ci: CheckedImpl, tensor: string, ys: readonly Term[]): Formula {
  const eqs = ci.spec.equations.filter((e) => e.tensor === tensor);
  return orAll(eqs.map((e) => {
    const m = new Map(e.vars.map((v, k) => [v, ys[k]!] as const));
    return formulaOf(e.guard, (n) => m.get(n) ?? variable(n));
  }));
}

/** I-ONTO and I-WITHIN for every output array (after I-OUTPUT holds). */
export function interfaceConditions(ci: CheckedImpl): InterfaceCondition[] {
  const out: InterfaceCondition[] = [];
  for (const [name, info] of ci.arrays) {
    const d = info.decl;
    const v = info.value;
    if (d.role !== 'output' || v === null || v.kind !== 'tensor') continue;
    const decl = ci.spec.tensors.get(v.name);
    if (decl === undefined || decl.role !== 'output') continue;
    const vars = declVars(d);
    // The checked region over cell variables xs, and the point each cell is bound to. Their
    // names are unique (array and tensor names are) and have no `$`, so that they survive the
    // renaming of scripts and a counterexample can name them.
    const xs = vars.map((_, k) => `${name}#cell${k}`);
    const cellEnv = envOf(vars, xs.map((x) => variable(x)));
    const region = and(
      andAll(xs.map((x, k) => and(geT(variable(x), constant(0n)), ltT(variable(x), termOf(d.dims[k]!))))),
      d.where ? formulaOf(d.where, cellEnv) : TRUE,
    );
    const bound = v.indices.map((i) => termOf(i, cellEnv));
    const ys = decl.vars.map((_, k) => `${v.name}#point${k}`);
    const shownCells = new Map(xs.map((x, k) => [x, `${name}.${d.vars ? vars[k]! : k}`] as const));
    const shownPoint = new Map(ys.map((y, k) => [y, `${v.name}.${decl.vars[k] ?? k}`] as const));
    const at = `output '${name}' (line ${d.pos.line})`;
    // ∀ys ∈ dom(O). ∃xs ∈ region. bound(xs) = ys — the ∃ eliminated exactly where possible.
    const hit = eliminate(exists(xs, and(region, andAll(bound.map((b, k) => eqT(b, variable(ys[k]!)))))));
    out.push({
      rule: 'I-ONTO', line: d.pos.line, col: d.pos.col, shown: shownPoint,
      description: `every point of the domain of '${v.name}' is bound to a cell of ${at} in its checked region`,
      goal: implies(domainAt(ci, v.name, ys.map((y) => variable(y))), hit),
    });
    out.push({
      rule: 'I-WITHIN', line: d.pos.line, col: d.pos.col, shown: shownCells,
      description: `every cell of the checked region of ${at} is bound to a point of the domain of '${v.name}'`,
      goal: implies(region, domainAt(ci, v.name, bound)),
    });
  }
  return out;
}

function envOf(names: readonly string[], terms: readonly Term[]): AffineEnv {
  const m = new Map(names.map((n, k) => [n, terms[k]!] as const));
  return (n) => m.get(n) ?? variable(n);
}

/** A script whose `unsat` certifies that `witness` satisfies the assumptions (I-ASSUME). */
export function witnessScript(ci: CheckedImpl, witness: ReadonlyMap<string, bigint>): string {
  const ps = ci.spec.params;
  return [
    '(set-logic ALL)',
    '(set-info :status unsat)',
    ...ps.map((p) => `(declare-const ${smtSymbol(p)} Int)`),
    ...ps.map((p) => `(assert (= ${smtSymbol(p)} ${smtInt(witness.get(p) ?? 0n)}))`),
    `(assert (! (not ${formulaToSmt(assumptions(ci))}) :named goal))`,
  ].join('\n');
}

/** A script whose `unsat` certifies that the assumptions contradict each other (I-ASSUME broken). */
export function contradictionScript(ci: CheckedImpl): string {
  const ps = ci.spec.params;
  return ['(set-logic ALL)', '(set-info :status unsat)', ...ps.map((p) => `(declare-const ${smtSymbol(p)} Int)`), `(assert (! ${formulaToSmt(assumptions(ci))} :named goal))`].join('\n');
}

function smtInt(v: bigint): string {
  return v < 0n ? `(- ${-v})` : `${v}`;
}

/** The impl's own assumptions as text ("W >= 16 && H >= 32"), or null when it makes none. */
export function implAssumptionText(ci: CheckedImpl): string | null {
  return ci.impl.assumes.length === 0 ? null : ci.impl.assumes.map((a: Expr) => printExpr(a)).join(' && ');
}

export type AssumptionCheck =
  | { readonly status: 'ok'; readonly witness: ReadonlyMap<string, bigint> }
  | { readonly status: 'contradiction'; readonly violation: InterfaceViolation }
  | { readonly status: 'unknown'; readonly reason: string };

/** I-ASSUME: some parameter value satisfies the spec's and the impl's assumptions. */
export async function checkAssumptions(ci: CheckedImpl, timeoutMs = 10_000): Promise<AssumptionCheck> {
  const r = await satisfiable(assumptions(ci), { timeoutMs });
  if (r.status === 'unknown') return { status: 'unknown', reason: `whether the assumptions allow any parameter value: ${r.reason}` };
  if (r.status === 'sat') return { status: 'ok', witness: new Map(ci.spec.params.map((p) => [p, r.model.get(p) ?? 0n] as const)) };
  const own = implAssumptionText(ci);
  const pos = ci.impl.assumes[0]?.pos ?? ci.impl.pos;
  return {
    status: 'contradiction',
    violation: { rule: 'I-ASSUME', line: pos.line, col: pos.col, message: own === null ? `the assumptions of spec '${ci.spec.spec.name}' allow no parameter value` : `the implementation's assumption ${own} leaves no parameter value that spec '${ci.spec.spec.name}' allows` },
  };
}

export interface InterfaceReport {
  readonly violations: readonly InterfaceViolation[];
  /** Conditions the solver could not decide. */
  readonly undecided: readonly string[];
}

/**
 * Every interface rule decided (for `check`, `run`, `explore`; `verify` turns the same conditions
 * into obligations). With `params`, only those parameter values are considered.
 */
export async function checkInterface(ci: CheckedImpl, opts: { params?: ReadonlyMap<string, bigint>; timeoutMs?: number } = {}): Promise<InterfaceReport> {
  const structural = interfaceViolations(ci);
  if (structural.length > 0) return { violations: structural, undecided: [] };
  const undecided: string[] = [];
  const fix = opts.params ? andAll([...opts.params].map(([p, v]) => eqT(variable(p), constant(v)))) : TRUE;
  if (!opts.params) {
    const a = await checkAssumptions(ci, opts.timeoutMs);
    if (a.status === 'contradiction') return { violations: [a.violation], undecided };
    if (a.status === 'unknown') undecided.push(a.reason);
  }
  const violations: InterfaceViolation[] = [];
  for (const c of interfaceConditions(ci)) {
    const r = await satisfiable(not(c.goal), { context: and(assumptions(ci), fix), timeoutMs: opts.timeoutMs });
    if (r.status === 'unsat') continue;
    if (r.status === 'unknown') {
      undecided.push(`${c.description}: ${r.reason}`);
      continue;
    }
    const values: Record<string, string> = {};
    for (const p of ci.spec.params) values[p] = String(r.model.get(p) ?? opts.params?.get(p) ?? 0n);
    for (const [v, shown] of c.shown) if (r.model.has(v)) values[shown] = String(r.model.get(v));
    violations.push({ rule: c.rule, line: c.line, col: c.col, message: `not ${c.description} (${Object.entries(values).map(([k, x]) => `${k} = ${x}`).join(', ')})`, values });
  }
  return { violations, undecided };
}
