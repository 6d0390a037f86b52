// Halide-style algorithms, the input of the reference scheduling compiler (`sched lower`): integer
// parameters, input tensors, and Funcs with one pure definition over all of ℤⁿ followed by update
// definitions over reduction domains (thesis §2.4.1). Expressions are written in the
// SCHED expression syntax; Func and input reads are tensor reads `F(x + 1, y)`.
//
// The JSON shape (also what `--compiler CMD` external compilers receive) is `Algorithm` below; the
// text form is parsed by `parseAlgorithmText` (see proofs/fuzz/README.md for both).

import { isValueTypeName, type Expr, type ValueType } from '../../core/language/ast.ts';
import { SchedInputError } from '../../core/language/diagnostics.ts';
import { parseExpr } from '../../core/language/parser.ts';
import { exprToFormula, exprToTerm, IndexError, type Term, variable } from './terms.ts';

/** A reduction variable: ranges over [min, min + extent). */
export interface AlgRDom {
  readonly var: string;
  readonly min: string;
  readonly extent: string;
}

/** `F(lhs…) = rhs` for every point of the RDom (first dimension innermost) where `where` holds. */
export interface AlgUpdate {
  readonly lhs: readonly string[];
  readonly rhs: string;
  readonly rdom?: readonly AlgRDom[];
  readonly where?: string | null;
}

export interface AlgFunc {
  readonly name: string;
  readonly args: readonly string[];
  readonly type: ValueType;
  readonly pure: string;
  readonly updates?: readonly AlgUpdate[];
}

export interface AlgInput {
  readonly name: string;
  readonly args: readonly string[];
  readonly type: ValueType;
}

export interface Algorithm {
  readonly name: string;
  readonly params: readonly string[];
  /** Affine facts on the parameters (`N >= 1`). */
  readonly assumes?: readonly string[];
  readonly inputs: readonly AlgInput[];
  /** In definition order: a Func reads inputs, earlier Funcs, and (in updates) itself. */
  readonly funcs: readonly AlgFunc[];
  /** The Func realised into the output array, over [0, extent) in each dimension. */
  readonly output: { readonly func: string; readonly extents: readonly string[] };
}

export class LowerError extends Error {
  constructor(
    message: string,
    /** `algorithm` (bad input), `schedule` (illegal or unsupported schedule). */
    readonly phase: 'algorithm' | 'schedule',
  ) {
    super(message);
    this.name = 'LowerError';
  }
}

export function algError(msg: string): never {
  throw new LowerError(msg, 'algorithm');
}

// ---------------------------------------------------------------------------------------------
// Checked form

export interface CRDom {
  readonly name: string;
  readonly min: Term;
  readonly extent: Term;
}

export interface CUpdate {
  readonly lhs: readonly Expr[];
  readonly rhs: Expr;
  readonly where: Expr | null;
  /** Innermost first, as Halide iterates them. */
  readonly rvars: readonly CRDom[];
  /** Pure variable name → its position on the left-hand side. */
  readonly pure: ReadonlyMap<string, number>;
}

export interface CFunc {
  readonly name: string;
  readonly args: readonly string[];
  readonly type: ValueType;
  readonly pure: Expr;
  readonly updates: readonly CUpdate[];
  readonly index: number;
}

export interface CheckedAlgorithm {
  readonly alg: Algorithm;
  readonly params: readonly string[];
  readonly assumes: readonly Expr[];
  readonly inputs: ReadonlyMap<string, AlgInput>;
  readonly funcs: readonly CFunc[];
  readonly funcByName: ReadonlyMap<string, CFunc>;
  readonly output: { readonly func: CFunc; readonly extents: readonly Term[]; readonly extentExprs: readonly Expr[] };
}

const IDENT = /^[A-Za-z][A-Za-z0-9_]*$/;

function parse(text: string, what: string): Expr {
  try {
    return parseExpr(what, text);
  } catch (e) {
    if (e instanceof SchedInputError) algError(`${what}: cannot parse '${text}': ${e.diagnostics[0]?.message ?? 'syntax error'}`);
    throw e;
  }
}

/** Every tensor read in an expression. */
export function tensorReads(e: Expr, out: { name: string; indices: readonly Expr[] }[] = []): { name: string; indices: readonly Expr[] }[] {
  switch (e.kind) {
    case 'tensor':
      out.push({ name: e.name, indices: e.indices });
      for (const i of e.indices) tensorReads(i, out);
      break;
    case 'array':
      algError(`array read '${e.name}[…]' in an algorithm (read Funcs and inputs as ${e.name}(…))`);
      break;
    case 'call':
      for (const a of e.args) tensorReads(a, out);
      break;
    case 'unary':
      tensorReads(e.arg, out);
      break;
    case 'binary':
      tensorReads(e.left, out);
      tensorReads(e.right, out);
      break;
    case 'select':
      tensorReads(e.cond, out);
      tensorReads(e.then, out);
      tensorReads(e.else, out);
      break;
    case 'let':
      tensorReads(e.value, out);
      tensorReads(e.body, out);
      break;
    default:
      break;
  }
  return out;
}

/** Free variables of an expression (outside tensor-read positions too). */
export function exprVars(e: Expr, out = new Set<string>()): Set<string> {
  switch (e.kind) {
    case 'var':
      out.add(e.name);
      break;
    case 'tensor':
    case 'array':
      for (const i of e.indices) exprVars(i, out);
      break;
    case 'call':
      for (const a of e.args) exprVars(a, out);
      break;
    case 'unary':
      exprVars(e.arg, out);
      break;
    case 'binary':
      exprVars(e.left, out);
      exprVars(e.right, out);
      break;
    case 'select':
      exprVars(e.cond, out);
      exprVars(e.then, out);
      exprVars(e.else, out);
      break;
    case 'let': {
      exprVars(e.value, out);
      const inner = exprVars(e.body);
      inner.delete(e.name);
      for (const v of inner) out.add(v);
      break;
    }
    default:
      break;
  }
  return out;
}

/** `x` as an array (JSON input is not trusted to have the declared shape). */
function list<T>(x: readonly T[] | undefined | null, what: string, nonEmpty = false): readonly T[] {
  if (!Array.isArray(x) || (nonEmpty && x.length === 0)) algError(`${what} must be a${nonEmpty ? ' non-empty' : 'n'} array`);
  return x as readonly T[];
}

function checkName(n: unknown, what: string): string {
  if (typeof n !== 'string' || !IDENT.test(n)) algError(`${what}: '${String(n)}' is not a name (letters, digits, '_', starting with a letter)`);
  return n;
}

/** Validate an algorithm (JSON shape already) and parse its expressions. */
export function checkAlgorithm(alg: Algorithm): CheckedAlgorithm {
  if (typeof alg !== 'object' || alg === null) algError('the algorithm must be a JSON object');
  const name = checkName(alg.name ?? 'pipeline', 'algorithm name');
  void name;
  const params = list(alg.params, "'params'").map((p) => checkName(p, 'parameter'));
  const algInputs = list(alg.inputs, "'inputs'");
  const algFuncs = list(alg.funcs, "'funcs'", true);
  const taken = new Set<string>();
  const claim = (n: string, what: string): void => {
    if (taken.has(n)) algError(`${what} '${n}' is declared twice (parameters, inputs and Funcs share one name space)`);
    taken.add(n);
  };
  for (const p of params) claim(p, 'parameter');
  const paramSet = new Set(params);
  const paramEnv = (n: string): Term | undefined => (paramSet.has(n) ? variable(n) : undefined);
  const assumes = list(alg.assumes ?? [], "'assumes'").map((a, i) => {
    const e = parse(a, `assume ${i + 1}`);
    try {
      exprToFormula(e, paramEnv);
    } catch (err) {
      if (err instanceof IndexError) algError(`assume '${a}': ${err.message} (assumptions are affine conditions on the parameters)`);
      throw err;
    }
    return e;
  });
  const inputs = new Map<string, AlgInput>();
  for (const inp of algInputs) {
    checkName(inp.name, 'input');
    claim(inp.name, 'input');
    list(inp.args, `input '${inp.name}': 'args'`).forEach((a) => checkName(a, `input '${inp.name}' argument`));
    if (!isValueTypeName(inp.type)) algError(`input '${inp.name}': unknown type '${String(inp.type)}'`);
    inputs.set(inp.name, inp);
  }
  const funcByName = new Map<string, CFunc>();
  const funcs: CFunc[] = [];
  const arityOf = (n: string): number | undefined => inputs.get(n)?.args.length ?? funcByName.get(n)?.args.length;

  const checkReads = (e: Expr, self: string | null, where: string): void => {
    for (const r of tensorReads(e)) {
      if (r.name === self) continue;
      const ar = arityOf(r.name);
      if (ar === undefined) algError(`${where}: '${r.name}' is not an input or an earlier Func`);
      if (ar !== r.indices.length) algError(`${where}: '${r.name}' takes ${ar} indices, read with ${r.indices.length}`);
    }
  };
  const checkAffine = (e: Expr, vars: ReadonlySet<string>, where: string, cond = false): void => {
    const env = (n: string): Term | undefined => (vars.has(n) || paramSet.has(n) ? variable(n) : undefined);
    try {
      if (cond) exprToFormula(e, env);
      else exprToTerm(e, env);
    } catch (err) {
      if (err instanceof IndexError) algError(`${where}: ${err.message}`);
      throw err;
    }
  };
  const checkIndices = (e: Expr, vars: ReadonlySet<string>, where: string): void => {
    for (const r of tensorReads(e)) for (const i of r.indices) checkAffine(i, vars, `${where}, index of '${r.name}'`);
    for (const v of exprVars(e)) if (!vars.has(v) && !paramSet.has(v)) algError(`${where}: unknown variable '${v}'`);
  };

  algFuncs.forEach((f, index) => {
    checkName(f.name, 'Func');
    claim(f.name, 'Func');
    if (/_\d+$/.test(f.name)) algError(`Func '${f.name}': names ending in '_<digits>' are reserved for stage tensors`);
    const args = list(f.args, `Func '${f.name}': 'args'`, true).map((a) => checkName(a, `Func '${f.name}' argument`));
    if (new Set(args).size !== args.length) algError(`Func '${f.name}': its arguments must be distinct variables`);
    for (const a of args) if (paramSet.has(a)) algError(`Func '${f.name}': argument '${a}' is a parameter`);
    if (!isValueTypeName(f.type)) algError(`Func '${f.name}': unknown type '${String(f.type)}'`);
    const pure = parse(f.pure, `Func '${f.name}' pure definition`);
    checkReads(pure, null, `Func '${f.name}'`);
    if (tensorReads(pure).some((r) => r.name === f.name)) algError(`Func '${f.name}': a pure definition cannot read the Func itself`);
    checkIndices(pure, new Set(args), `Func '${f.name}'`);
    const updates: CUpdate[] = [];
    const cf: CFunc = { name: f.name, args, type: f.type, pure, updates, index };
    funcByName.set(f.name, cf);
    list(f.updates ?? [], `Func '${f.name}': 'updates'`).forEach((u, k) => {
      const where = `Func '${f.name}' update ${k}`;
      if (list(u.lhs, `${where}: 'lhs'`).length !== args.length) algError(`${where}: the left-hand side needs ${args.length} indices`);
      const rvars: CRDom[] = list(u.rdom ?? [], `${where}: 'rdom'`).map((r) => {
        const rn = checkName(r.var, `${where} reduction variable`);
        if (paramSet.has(rn)) algError(`${where}: reduction variable '${rn}' is a parameter`);
        const mn = parse(r.min, `${where} RDom min`);
        const ex = parse(r.extent, `${where} RDom extent`);
        checkAffine(mn, new Set(), `${where} RDom min (parameters only)`);
        checkAffine(ex, new Set(), `${where} RDom extent (parameters only)`);
        return { name: rn, min: exprToTerm(mn, paramEnv), extent: exprToTerm(ex, paramEnv) };
      });
      const rset = new Set(rvars.map((r) => r.name));
      if (rset.size !== rvars.length) algError(`${where}: reduction variables must be distinct`);
      const lhs = u.lhs.map((t, p) => parse(t, `${where} left-hand side ${p}`));
      const pureVars = new Map<string, number>();
      lhs.forEach((e, p) => {
        if (e.kind === 'var' && !rset.has(e.name) && !paramSet.has(e.name)) {
          if (pureVars.has(e.name)) algError(`${where}: pure variable '${e.name}' appears twice on the left-hand side`);
          pureVars.set(e.name, p);
        }
      });
      for (const r of rset) if (pureVars.has(r)) algError(`${where}: '${r}' is both pure and a reduction variable`);
      const vars = new Set([...pureVars.keys(), ...rset]);
      lhs.forEach((e, p) => checkAffine(e, vars, `${where} left-hand side ${p}`));
      const rhs = parse(u.rhs, `${where} right-hand side`);
      checkReads(rhs, f.name, where);
      checkIndices(rhs, vars, where);
      const filter = u.where === undefined || u.where === null || u.where === '' ? null : parse(u.where, `${where} filter`);
      if (filter) {
        if (tensorReads(filter).length > 0) algError(`${where}: filters must be affine conditions (no tensor reads)`);
        checkAffine(filter, vars, `${where} filter`, true);
      }
      // The update restriction (thesis §2.4.3): every self-access uses each pure variable bare at
      // its position, so distinct pure valuations never communicate.
      for (const r of tensorReads(rhs)) {
        if (r.name !== f.name) continue;
        if (r.indices.length !== args.length) algError(`${where}: '${f.name}' takes ${args.length} indices`);
        for (const [v, p] of pureVars) {
          const ix = r.indices[p]!;
          if (ix.kind !== 'var' || ix.name !== v) algError(`${where}: a read of '${f.name}' must use pure variable '${v}' unchanged at position ${p} (Halide's update restriction)`);
        }
      }
      updates.push({ lhs, rhs, where: filter, rvars, pure: pureVars });
    });
    funcs.push(cf);
  });
  const out = alg.output;
  if (typeof out !== 'object' || out === null) algError("'output' must be an object { func, extents }");
  const of = funcByName.get(out.func);
  if (of === undefined) algError(`output: '${String(out.func)}' is not a Func`);
  const outExtents = list(out.extents, "output: 'extents'");
  if (outExtents.length !== of.args.length) algError(`output: '${of.name}' needs ${of.args.length} extents`);
  const extentExprs = outExtents.map((x, i) => {
    const e = parse(x, `output extent ${i}`);
    checkAffine(e, new Set(), `output extent ${i} (parameters only)`);
    return e;
  });
  return {
    alg,
    params,
    assumes,
    inputs,
    funcs,
    funcByName,
    output: { func: of, extentExprs, extents: extentExprs.map((e) => exprToTerm(e, paramEnv)) },
  };
}

// ---------------------------------------------------------------------------------------------
// Text form

/** Statements of a text file: `;`-terminated, `//` and `#` comments removed. */
export function statements(text: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let cur = '';
  let startLine = 1;
  let line = 1;
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  for (const raw of lines) {
    const l = raw.replace(/(\/\/|#).*$/, '');
    for (const ch of l) {
      if (ch === ';') {
        if (cur.trim() !== '') out.push({ text: cur.trim(), line: startLine });
        cur = '';
        continue;
      }
      if (cur.trim() === '' && ch.trim() !== '') startLine = line;
      cur += ch;
    }
    cur += ' ';
    line++;
  }
  if (cur.trim() !== '') out.push({ text: cur.trim(), line: startLine });
  return out;
}

/** Split `a, b(c, d), e` at top-level commas. */
export function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(' || ch === '[') depth++;
    if (ch === ')' || ch === ']') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim() !== '') out.push(cur.trim());
  return out;
}

/** The index of the parenthesis closing the one at `open`. */
export function closing(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/**
 * Parse the text form:
 *
 *     algorithm blur;
 *     param N, K;
 *     assume N >= 1;
 *     input A(x): i32;
 *     func P(x): i32 = A(x) + A(x + 1);
 *     func F(x): i32 = P(x) * 2;
 *     update F(x) = F(x) + A(x + r) over r in [0, K) where r % 2 == 0;
 *     output F(N);
 */
export function parseAlgorithmText(text: string): Algorithm {
  let name = 'pipeline';
  const params: string[] = [];
  const assumes: string[] = [];
  const inputs: AlgInput[] = [];
  const funcs: { name: string; args: string[]; type: ValueType; pure: string; updates: AlgUpdate[] }[] = [];
  let output: Algorithm['output'] | null = null;
  for (const st of statements(text)) {
    const at = `line ${st.line}`;
    const s = st.text;
    let m: RegExpExecArray | null;
    if ((m = /^algorithm\s+(\w+)$/.exec(s))) name = m[1]!;
    else if ((m = /^param\s+(.+)$/.exec(s))) params.push(...m[1]!.split(',').map((x) => x.trim()));
    else if ((m = /^assume\s+(.+)$/s.exec(s))) assumes.push(m[1]!.trim());
    else if ((m = /^input\s+(\w+)\s*\(([^)]*)\)\s*:\s*(\w+)$/.exec(s))) {
      inputs.push({ name: m[1]!, args: splitTop(m[2]!), type: m[3]! as ValueType });
    } else if ((m = /^func\s+(\w+)\s*\(([^)]*)\)\s*:\s*(\w+)\s*=\s*(.+)$/s.exec(s))) {
      funcs.push({ name: m[1]!, args: splitTop(m[2]!), type: m[3]! as ValueType, pure: m[4]!.trim(), updates: [] });
    } else if ((m = /^update\s+(\w+)\s*\(/.exec(s))) {
      const fname = m[1]!;
      const open = s.indexOf('(');
      const close = closing(s, open);
      if (close < 0) algError(`${at}: unbalanced parentheses in the update's left-hand side`);
      const lhs = splitTop(s.slice(open + 1, close));
      let rest = s.slice(close + 1).trim();
      if (!rest.startsWith('=')) algError(`${at}: expected '=' after the update's left-hand side`);
      rest = rest.slice(1);
      let where: string | null = null;
      const wi = rest.search(/\swhere\s/);
      if (wi >= 0) {
        where = rest.slice(wi + 7).trim();
        rest = rest.slice(0, wi);
      }
      let rdom: AlgRDom[] = [];
      const oi = rest.search(/\sover\s/);
      if (oi >= 0) {
        const dom = rest.slice(oi + 6).trim();
        rest = rest.slice(0, oi);
        rdom = splitTop(dom).map((d) => {
          const dm = /^(\w+)\s+in\s+\[(.+)\)$/s.exec(d.trim());
          if (!dm) algError(`${at}: a reduction domain reads 'r in [lo, hi)', got '${d}'`);
          const [lo, hi] = splitTop(dm[2]!);
          if (lo === undefined || hi === undefined) algError(`${at}: a reduction domain reads 'r in [lo, hi)', got '${d}'`);
          return { var: dm[1]!, min: lo, extent: lo === '0' ? hi : `${hi} - (${lo})` };
        });
      }
      const f = funcs.find((x) => x.name === fname);
      if (!f) algError(`${at}: update of '${fname}' before its 'func' definition`);
      f.updates.push({ lhs, rhs: rest.trim(), rdom, where });
    } else if ((m = /^output\s+(\w+)\s*\(([^)]*)\)$/.exec(s))) {
      output = { func: m[1]!, extents: splitTop(m[2]!) };
    } else algError(`${at}: cannot read '${s.length > 60 ? s.slice(0, 60) + '…' : s}'`);
  }
  if (output === null) algError("no 'output F(extents…);' statement");
  return { name, params, assumes, inputs, funcs, output };
}

/** The text form of an algorithm (round-trips through parseAlgorithmText). */
export function printAlgorithmText(a: Algorithm): string {
  const L: string[] = [`algorithm ${a.name};`];
  if (a.params.length) L.push(`param ${a.params.join(', ')};`);
  for (const x of a.assumes ?? []) L.push(`assume ${x};`);
  for (const i of a.inputs) L.push(`input ${i.name}(${i.args.join(', ')}): ${i.type};`);
  for (const f of a.funcs) {
    L.push(`func ${f.name}(${f.args.join(', ')}): ${f.type} = ${f.pure};`);
    for (const u of f.updates ?? []) {
      let s = `update ${f.name}(${u.lhs.join(', ')}) = ${u.rhs}`;
      if (u.rdom && u.rdom.length > 0) s += ` over ${u.rdom.map((r) => `${r.var} in [${r.min}, ${r.min === '0' ? r.extent : `(${r.min}) + (${r.extent})`})`).join(', ')}`;
      if (u.where) s += ` where ${u.where}`;
      L.push(`${s};`);
    }
  }
  L.push(`output ${a.output.func}(${a.output.extents.join(', ')});`);
  return L.join('\n') + '\n';
}
