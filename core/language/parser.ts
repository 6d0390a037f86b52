// Recursive-descent parser for .sched files (docs/language.md). It builds the AST of
// core/language/ast.ts with a position on every node; the first syntax error is reported as a diagnostic
// saying what was expected and what was found.

import {
  type ArrayDecl,
  type ArrayRole,
  type BinaryOp,
  type Cmd,
  type Equation,
  type Expr,
  type Impl,
  type ParamDecl,
  type Pos,
  type Program,
  type Spec,
  type TensorDecl,
  type TensorRole,
  type ValueType,
  type ReductionDef,
  type ReduceOp,
  type Accumulation,
  isBuiltinFunction,
  isValueTypeName,
  RESERVED_PREFIX,
} from './ast.ts';
import { diag, SchedInputError } from './diagnostics.ts';
import { decimalToF32 } from './float-literal.ts';
import { describeToken, lex, type Token } from './lexer.ts';
import { desugarReduction, operatorByKeyword, operatorOf, REDUCE_OPERATORS } from './reductions.ts';

/** A reduction parsed inside an expression, before its equation takes it apart. */
interface PendingReduction {
  readonly op: ReduceOp;
  readonly dims: ReductionDef['dims'];
  readonly filter: Expr | null;
  readonly body: Expr;
  readonly pos: Pos;
}

const COMPARISONS: ReadonlySet<string> = new Set(['==', '!=', '<', '<=', '>', '>=']);

/**
 * Deepest nesting accepted: parentheses, unary operators, calls, commands inside commands. Real
 * programs stay far below it; past it, input is a diagnostic instead of a stack overflow.
 */
export const MAX_NESTING = 500;

/**
 * Tallest expression tree accepted. A chain `a + b + …` is a tree one level taller per operator,
 * and unrolled kernels print chains thousands of terms long, so this bound is far above the
 * nesting one: every later phase (type checker, printer, encoders, evaluators) recurses on the
 * tree, and the `sched` command gives them a stack for it (cli/sched.js; 20,000 terms tested).
 * Library users with such inputs need a thread with a large stack too (Worker `stackSizeMb`).
 */
export const MAX_HEIGHT = 20_000;

class Parser {
  private i = 0;
  /** Current recursion depth of expr/unary/cmd (bounded by MAX_NESTING). */
  private depth = 0;
  /** Height of every expression node built so far (leaves are absent: height 1). */
  private readonly heights = new WeakMap<Expr, number>();
  /** Placeholder expressions standing for a reduction until its equation is read. */
  private readonly pendingReductions = new Map<Expr, PendingReduction>();
  constructor(
    private readonly file: string,
    private readonly toks: readonly Token[],
  ) {}

  // -- token helpers ----------------------------------------------------------------------

  private get tok(): Token {
    return this.toks[this.i]!;
  }
  private peek(k = 1): Token {
    return this.toks[Math.min(this.i + k, this.toks.length - 1)]!;
  }
  private next(): Token {
    const t = this.tok;
    if (t.kind !== 'eof') this.i++;
    return t;
  }
  private is(text: string): boolean {
    const t = this.tok;
    return (t.kind === 'punct' || t.kind === 'keyword') && t.text === text;
  }
  private accept(text: string): boolean {
    if (this.is(text)) {
      this.i++;
      return true;
    }
    return false;
  }
  fail(t: Token, message: string, expected: string): never {
    throw new SchedInputError([diag(this.file, t.pos, 'syntax', message, expected, describeToken(t))]);
  }
  private tooDeep(t: Token, what: string): never {
    throw new SchedInputError([
      diag(this.file, t.pos, 'syntax', `${what} nested too deeply`, `at most ${MAX_NESTING} nested levels`, `more than ${MAX_NESTING}`),
    ]);
  }
  /** Enter one level of recursion (an expression, an operand of a unary operator, a command). */
  private enter(what: string): void {
    if (++this.depth > MAX_NESTING) this.tooDeep(this.tok, what);
  }
  private leave(): void {
    this.depth--;
  }
  private height(e: Expr): number {
    return this.heights.get(e) ?? 1;
  }
  /** Record the height of a new node built over `kids` (an error past MAX_HEIGHT). */
  private node<E extends Expr>(e: E, kids: readonly Expr[]): E {
    let h = 0;
    for (const k of kids) h = Math.max(h, this.height(k));
    if (h + 1 > MAX_HEIGHT) {
      throw new SchedInputError([diag(this.file, e.pos, 'syntax', 'expression too long', `an expression tree at most ${MAX_HEIGHT} operators tall (a chain a + b + … of at most ${MAX_HEIGHT} terms)`, `more than ${MAX_HEIGHT}`)]);
    }
    if (h > 0) this.heights.set(e, h + 1);
    return e;
  }
  /** A copy of `e` (comparison chains use their middle operand twice; nodes are never shared). */
  private copy(e: Expr): Expr {
    const c = structuredClone(e);
    this.heights.set(c, this.height(e));
    return c;
  }
  private expect(text: string, context: string): Token {
    if (!this.is(text)) this.fail(this.tok, `syntax error ${context}`, `'${text}'`);
    return this.next();
  }
  private ident(what: string, context: string): { name: string; pos: Pos } {
    const t = this.tok;
    if (t.kind !== 'ident') this.fail(t, `syntax error ${context}`, what);
    if (t.text.startsWith(RESERVED_PREFIX)) {
      throw new SchedInputError([
        diag(this.file, t.pos, 'syntax', `names starting with '${RESERVED_PREFIX}' are reserved for the toolkit`, what, `'${t.text}'`),
      ]);
    }
    if (isValueTypeName(t.text) || isBuiltinFunction(t.text)) {
      throw new SchedInputError([
        diag(this.file, t.pos, 'syntax', `'${t.text}' is a builtin name and cannot be ${what}`, what, `'${t.text}'`),
      ]);
    }
    this.i++;
    return { name: t.text, pos: t.pos };
  }
  private valueType(context: string): ValueType {
    const t = this.tok;
    if (t.kind === 'ident' && isValueTypeName(t.text)) {
      this.i++;
      return t.text;
    }
    return this.fail(t, `syntax error ${context}`, 'a value type (bool, i8…i64, u8…u64, f32, f64)');
  }

  // -- file --------------------------------------------------------------------------------

  program(): Program {
    const specs: Spec[] = [];
    const impls: Impl[] = [];
    while (this.tok.kind !== 'eof') {
      if (this.is('spec')) specs.push(this.spec());
      else if (this.is('impl')) impls.push(this.impl());
      else this.fail(this.tok, 'syntax error at top level', "'spec' or 'impl'");
    }
    return { file: this.file, specs, impls };
  }

  // -- specifications ------------------------------------------------------------------------

  private spec(): Spec {
    const pos = this.next().pos;
    const { name } = this.ident('a spec name', "after 'spec'");
    this.expect('{', `after 'spec ${name}'`);
    const params: ParamDecl[] = [];
    const assumes: Expr[] = [];
    const tensors: TensorDecl[] = [];
    const equations: Equation[] = [];
    const reductions: ReductionDef[] = [];
    while (!this.is('}')) {
      const t = this.tok;
      if (this.accept('param')) {
        do params.push(this.ident('a parameter name', "in 'param'")); while (this.accept(','));
        this.expect(';', 'after a parameter list');
      } else if (this.accept('assume')) {
        assumes.push(this.expr());
        this.expect(';', "after 'assume'");
      } else if (this.is('input') || this.is('tensor') || this.is('output')) {
        const role = this.next().text as TensorRole;
        const id = this.ident('a tensor name', `after '${role}'`);
        this.expect('(', `after tensor '${id.name}' (tensors are declared with their arguments, e.g. A(i, j))`);
        const vars: string[] = [];
        if (!this.is(')')) {
          do vars.push(this.ident('an argument name', `in the declaration of '${id.name}'`).name); while (this.accept(','));
        }
        this.expect(')', `in the declaration of '${id.name}'`);
        this.expect(':', `after '${id.name}(…)' (a tensor needs a value type)`);
        const type = this.valueType(`in the declaration of '${id.name}'`);
        tensors.push({ role, name: id.name, vars, type, pos: t.pos });
        if (role !== 'output' && this.is('=')) {
          this.fail(this.tok, `only an 'output' declaration can define its tensor on the same line; ${role === 'input' ? `an input tensor is never defined` : `define '${id.name}' by equations such as '${id.name}(…) = …;'`}`, "';'");
        }
        if (role === 'output' && this.accept('=')) {
          const rhs = this.expr();
          const where = this.accept('where') ? this.expr() : null;
          const lhs: Expr[] = vars.map((v) => ({ kind: 'var', name: v, pos: id.pos }));
          this.equation({ tensor: id.name, lhs, rhs, where, inline: true, pos: t.pos }, tensors, equations, reductions);
        }
        this.expect(';', `after the declaration of '${id.name}'`);
      } else if (t.kind === 'ident' && this.peek().kind === 'punct' && this.peek().text === '(') {
        const id = this.ident('a tensor name', 'at the start of an equation');
        this.expect('(', 'in an equation');
        const lhs = this.is(')') ? [] : this.exprList();
        this.expect(')', `in the left-hand side of an equation of '${id.name}'`);
        this.expect('=', `after the left-hand side '${id.name}(…)'`);
        const rhs = this.expr();
        const where = this.accept('where') ? this.expr() : null;
        this.expect(';', 'after an equation');
        this.equation({ tensor: id.name, lhs, rhs, where, inline: false, pos: t.pos }, tensors, equations, reductions);
      } else {
        this.fail(t, `syntax error in spec '${name}'`, "'param', 'assume', 'input', 'tensor', 'output', an equation or '}'");
      }
    }
    this.next();
    return reductions.length > 0 ? { name, params, assumes, tensors, equations, pos, reductions } : { name, params, assumes, tensors, equations, pos };
  }

  /** Record an equation; a reduction equation is desugared (core/language/reductions.ts). */
  private equation(eq: Equation, tensors: TensorDecl[], equations: Equation[], reductions: ReductionDef[]): void {
    const placeholders = (e: Expr, out: Expr[]): Expr[] => {
      if (this.pendingReductions.has(e)) out.push(e);
      switch (e.kind) {
        case 'array':
        case 'tensor':
          e.indices.forEach((x) => placeholders(x, out));
          break;
        case 'call':
          e.args.forEach((x) => placeholders(x, out));
          break;
        case 'unary':
          placeholders(e.arg, out);
          break;
        case 'binary':
          placeholders(e.left, out);
          placeholders(e.right, out);
          break;
        case 'select':
          [e.cond, e.then, e.else].forEach((x) => placeholders(x, out));
          break;
        case 'let':
          placeholders(e.value, out);
          placeholders(e.body, out);
          break;
        default:
          break;
      }
      return out;
    };
    const found = [...placeholders(eq.rhs, []), ...(eq.where ? placeholders(eq.where, []) : []), ...eq.lhs.flatMap((x) => placeholders(x, []))];
    if (found.length === 0) {
      equations.push(eq);
      return;
    }
    const e = eq.rhs;
    let red: Expr | null = null;
    let init: Expr | null = null;
    if (this.pendingReductions.has(e)) red = e;
    else if (e.kind === 'binary' && this.pendingReductions.has(e.right) && this.pendingReductions.get(e.right)!.op === e.op) [init, red] = [e.left, e.right];
    else if (e.kind === 'call' && e.args.length === 2 && this.pendingReductions.has(e.args[1]!) && this.pendingReductions.get(e.args[1]!)!.op === e.fn) [init, red] = [e.args[0]!, e.args[1]!];
    const at = this.pendingReductions.get(found[0]!)!.pos;
    const fail = (msg: string, expected = "'T(x) = sum{0 <= j < N}(e);' or 'T(x) = init + sum{…}(e);'", found = 'a reduction elsewhere'): never => {
      throw new SchedInputError([diag(this.file, at, 'syntax', msg, expected, found)]);
    };
    if (red === null || found.length !== 1) fail('a reduction must be the whole right-hand side of its equation, or `init op red` with the same operator');
    const vars = eq.lhs.map((x) => (x.kind === 'var' ? x.name : null));
    if (vars.some((x) => x === null) || new Set(vars).size !== vars.length) fail(`the left-hand side of a reduction equation of '${eq.tensor}' must be distinct variables`, 'distinct variables', 'an index expression or a repeated variable');
    const pr = this.pendingReductions.get(red!)!;
    const decl = tensors.find((t) => t.name === eq.tensor);
    if (!decl) fail(`declare '${eq.tensor}' (with its type) before its reduction equation`, `'tensor ${eq.tensor}(…): τ;' before the equation`, 'no declaration yet');
    const opr = operatorOf(pr.op);
    if (!opr.accepts(decl!.type)) fail(`'${opr.keyword}' does not apply to '${eq.tensor}' of type ${decl!.type}`, pr.op === '&&' || pr.op === '||' ? 'a bool tensor' : 'a numeric tensor', decl!.type);
    for (const d of pr.dims) if (vars.includes(d.var)) fail(`the reduction variable '${d.var}' is also an argument of '${eq.tensor}'`);
    const names = (x: Expr, out: Set<string>): Set<string> => {
      if (x.kind === 'var') out.add(x.name);
      else if (x.kind === 'binary') (names(x.left, out), names(x.right, out));
      else if (x.kind === 'unary') names(x.arg, out);
      else if (x.kind === 'call') x.args.forEach((a) => names(a, out));
      else if (x.kind === 'select') [x.cond, x.then, x.else].forEach((a) => names(a, out));
      return out;
    };
    const redVars = new Set(pr.dims.map((d) => d.var));
    if (redVars.size !== pr.dims.length) fail('the reduction variables must be distinct');
    for (const d of pr.dims) {
      const used = [...names(d.lo, new Set()), ...names(d.hi, new Set())].filter((n) => redVars.has(n));
      if (used.length > 0) fail(`the bounds of '${d.var}' use the reduction variable '${used[0]}': a reduction domain is a box (bounds over the equation's variables and the parameters); restrict it with 'where', e.g. 'sum{0 <= j < N, 0 <= k < N where k < j}(…)'`, 'bounds over the equation\'s variables and the parameters', `'${used[0]}' in the bounds of '${d.var}'`);
    }
    const k = reductions.filter((r) => r.tensor === eq.tensor).length;
    const def: ReductionDef = {
      tensor: eq.tensor, vars: vars as string[], op: pr.op, init, dims: pr.dims, filter: pr.filter, body: pr.body, where: eq.where, inline: eq.inline,
      acc: `${RESERVED_PREFIX}red_${eq.tensor}${k === 0 ? '' : `_${k}`}`, pos: pr.pos,
    };
    reductions.push(def);
    const d = desugarReduction(def, decl!.type);
    tensors.push(d.tensor);
    equations.push(...d.equations);
  }

  /** `red{lo <= j < hi, … [where φ]}(body)` after its keyword. */
  private reduction(op: ReduceOp, pos: Pos): Expr {
    this.expect('{', 'after a reduction keyword');
    const dims: { var: string; lo: Expr; hi: Expr }[] = [];
    do {
      const lo = this.add();
      this.expect('<=', "in a reduction domain (written 'lo <= j < hi')");
      const x = this.ident('a reduction variable', "in a reduction domain (written 'lo <= j < hi')").name;
      this.expect('<', "in a reduction domain (written 'lo <= j < hi')");
      const hi = this.add();
      dims.push({ var: x, lo, hi });
    } while (this.accept(','));
    let filter: Expr | null = null;
    if (this.accept('where')) filter = this.expr();
    this.expect('}', 'at the end of a reduction domain');
    this.expect('(', "before the body of a reduction (written 'sum{0 <= j < N}(e)')");
    const body = this.expr();
    this.expect(')', 'after the body of a reduction');
    const placeholder: Expr = { kind: 'tensor', name: `${RESERVED_PREFIX}reduce`, indices: [], pos };
    this.pendingReductions.set(placeholder, { op, dims, filter, body, pos });
    return placeholder;
  }

  // -- implementations ----------------------------------------------------------------------

  private impl(): Impl {
    const pos = this.next().pos;
    const { name } = this.ident('an impl name', "after 'impl'");
    this.expect('of', `after 'impl ${name}'`);
    const spec = this.ident('a spec name', `after 'impl ${name} of'`).name;
    this.expect('{', `after 'impl ${name} of ${spec}'`);
    const assumes: Expr[] = [];
    const decls: ArrayDecl[] = [];
    for (;;) {
      if (this.accept('assume')) {
        assumes.push(this.expr());
        this.expect(';', "after 'assume'");
      } else if (this.is('input') || this.is('output') || this.is('array')) {
        decls.push(this.arrayDecl());
      } else break;
    }
    const body = this.cmdSeq(`in the body of impl '${name}'`);
    if (!this.is('}')) this.fail(this.tok, `syntax error in the body of impl '${name}'`, "';' between commands, or '}'");
    this.next();
    return { name, spec, assumes, decls, body, pos };
  }

  private arrayDecl(): ArrayDecl {
    const t = this.next();
    const role = t.text as ArrayRole;
    const id = this.ident('an array name', `after '${role}'`);
    let vars: string[] | null = null;
    if (role !== 'array' && this.accept('[')) {
      vars = [];
      if (!this.is(']')) {
        do vars.push(this.ident('an index name', `in the declaration of '${id.name}'`).name); while (this.accept(','));
      }
      this.expect(']', `in the declaration of '${id.name}'`);
    }
    this.expect(':', `after '${id.name}' (an array needs a shape such as f32[N, M])`);
    const elem = this.valueType(`in the declaration of '${id.name}'`);
    this.expect('[', `after the element type of '${id.name}' (write '[]' for a 0-dimensional array)`);
    const dims = this.is(']') ? [] : this.exprList();
    this.expect(']', `in the shape of '${id.name}'`);
    let value: Expr | null = null;
    let where: Expr | null = null;
    if (role !== 'array') {
      this.expect('=', `after the shape of ${role} '${id.name}' (say which tensor it holds, e.g. '= A(i, j)')`);
      value = this.expr();
      if (this.accept('where')) where = this.expr();
    }
    this.expect(';', `after the declaration of '${id.name}'`);
    return { role, name: id.name, vars, elem, dims, value, where, pos: t.pos };
  }

  // -- commands ----------------------------------------------------------------------------

  /** Commands separated by ';' (a trailing ';' allowed) up to a '}' or end of file. */
  private cmdSeq(context: string): Cmd {
    const cmds: Cmd[] = [];
    const pos = this.tok.pos;
    while (!this.is('}') && this.tok.kind !== 'eof') {
      cmds.push(this.cmd(context));
      if (!this.accept(';')) break;
    }
    if (cmds.length === 0) return { kind: 'skip', pos };
    if (cmds.length === 1) return cmds[0]!;
    return { kind: 'seq', pos: cmds[0]!.pos, cmds };
  }

  private cmd(context: string): Cmd {
    this.enter('command');
    const c = this.cmdInner(context);
    this.leave();
    return c;
  }

  private cmdInner(context: string): Cmd {
    const t = this.tok;
    const pos = t.pos;
    if (this.accept('skip')) return { kind: 'skip', pos };
    if (this.accept('{')) {
      const c = this.cmdSeq('in a block');
      if (!this.is('}')) this.fail(this.tok, `syntax error in the block opened at ${pos.line}:${pos.col}`, "';' between commands, or '}'");
      this.next();
      // `{ }` is skip; `{ c }` is c; `{ c1; c2 }` is a sequence positioned at its first command.
      return c;
    }
    if (this.accept('if')) {
      const cond = this.expr();
      this.expect('then', "after the condition of 'if'");
      const then = this.cmd("in the 'then' branch");
      const els = this.accept('else') ? this.cmd("in the 'else' branch") : null;
      return { kind: 'if', pos, cond, then, else: els };
    }
    if (this.accept('let')) {
      const { name } = this.ident('a variable name', "after 'let'");
      this.expect('=', `after 'let ${name}'`);
      const value = this.expr();
      this.expect('in', `after 'let ${name} = …'`);
      return { kind: 'let', pos, name, value, body: this.cmd("in the body of 'let'") };
    }
    if (this.accept('allocate')) {
      const { name } = this.ident('an array name', "after 'allocate'");
      this.expect(':', `after 'allocate ${name}'`);
      const elem = this.valueType(`in 'allocate ${name}'`);
      this.expect('[', `after the element type of '${name}'`);
      const dims = this.is(']') ? [] : this.exprList();
      this.expect(']', `in the shape of '${name}'`);
      this.expect('in', `after 'allocate ${name}: …'`);
      return { kind: 'allocate', pos, name, elem, dims, body: this.cmd("in the body of 'allocate'") };
    }
    if (this.is('for') || this.is('par')) {
      const kind = this.next().text as 'for' | 'par';
      const v = this.ident('a loop variable', `after '${kind}'`).name;
      this.expect('<', `after '${kind} ${v}' (loops are written '${kind} ${v} < N do …')`);
      const bound = this.expr();
      this.expect('do', `after the bound of '${kind} ${v}'`);
      return { kind, pos, var: v, bound, body: this.cmd(`in the body of '${kind}'`) };
    }
    if (t.kind === 'ident') {
      const { name } = this.ident('an array name', 'at the start of an assignment');
      this.expect('[', `after '${name}' (an assignment is 'a[i, …] {T(…)} := e'; write '${name}[]' for a 0-dimensional array)`);
      const indices = this.is(']') ? [] : this.exprList();
      this.expect(']', `in the indices of '${name}'`);
      let annot: Expr | null = null;
      let partial = false;
      let at: Expr[] | null = null;
      if (this.accept('{')) {
        if (this.tok.kind === 'ident' && this.tok.text === 'partial' && this.peek().kind === 'ident') {
          this.next();
          partial = true;
        }
        annot = this.expr();
        if (this.accept('@')) {
          this.expect('(', "after '@' (the position of the contribution: '@(k)')");
          at = this.is(')') ? [] : this.exprList();
          this.expect(')', "after the position of '@(…)'");
        }
        this.expect('}', 'after the prophetic annotation');
      }
      const opTok = this.tok;
      const assignOp = REDUCE_OPERATORS.find((o) => (o.assign.length > 2 && o.assign.endsWith('=') && opTok.kind === 'ident' && opTok.text === o.assign.slice(0, -1) && this.peek().kind === 'punct' && this.peek().text === '=') || (opTok.kind === 'punct' && opTok.text === o.assign));
      if (assignOp === undefined) {
        if (partial || at !== null) this.fail(this.tok, `an annotation with '${partial ? 'partial' : '@'}' belongs to an accumulation`, "'+=', '*=', 'min=', 'max=', '&&=' or '||='");
        this.expect(':=', `in the assignment to '${name}[…]'`);
        return { kind: 'assign', pos, array: name, indices, annot, rhs: this.expr() };
      }
      this.next();
      if (opTok.kind === 'ident') this.next();
      const elem = this.expr();
      if (annot !== null && at === null && elem.kind !== 'array') this.fail(opTok, `an accumulation needs the position it contributes, '{T(…)@(k)}'; without it, it transfers a partial accumulator and its right-hand side is an array cell`, "'@(k)' in the annotation");
      const self: Expr = { kind: 'array', name, indices, pos };
      const rhs: Expr = assignOp.op === 'min' || assignOp.op === 'max' ? { kind: 'call', fn: assignOp.op, args: [self, elem], pos } : { kind: 'binary', op: assignOp.op, left: self, right: elem, pos };
      const accum: Accumulation = { op: assignOp.op, at, elem, partial };
      return { kind: 'assign', pos, array: name, indices, annot, rhs, accum };
    }
    return this.fail(t, `syntax error ${context}`, "a command ('skip', an assignment, 'if', 'let', 'allocate', 'for', 'par' or '{')");
  }

  // -- expressions -------------------------------------------------------------------------

  private exprList(): Expr[] {
    const es = [this.expr()];
    while (this.accept(',')) es.push(this.expr());
    return es;
  }

  expr(): Expr {
    this.enter('expression');
    const e = this.exprInner();
    this.leave();
    return e;
  }

  private exprInner(): Expr {
    const t = this.tok;
    if (this.accept('let')) {
      const { name } = this.ident('a variable name', "after 'let'");
      this.expect('=', `after 'let ${name}'`);
      const value = this.expr();
      this.expect('in', `after 'let ${name} = …'`);
      const body = this.expr();
      return this.node({ kind: 'let', pos: t.pos, name, value, body }, [value, body]);
    }
    return this.or();
  }

  private binary(op: BinaryOp, left: Expr, right: Expr): Expr {
    return this.node({ kind: 'binary', op, left, right, pos: left.pos }, [left, right]);
  }

  private or(): Expr {
    let e = this.and();
    while (this.accept('||')) e = this.binary('||', e, this.and());
    return e;
  }
  private and(): Expr {
    let e = this.cmp();
    while (this.accept('&&')) e = this.binary('&&', e, this.cmp());
    return e;
  }
  /** Comparisons; a chain `a <= b < c` means `a <= b && b < c`. */
  private cmp(): Expr {
    const first = this.add();
    let left = first;
    let result: Expr | null = null;
    while (this.tok.kind === 'punct' && COMPARISONS.has(this.tok.text)) {
      const op = this.next().text as BinaryOp;
      const right = this.add();
      // In a chain the middle operand is used twice: give each comparison its own copy, so
      // that the type checker can record a type per occurrence.
      const c = this.binary(op, result === null ? left : this.copy(left), right);
      result = result === null ? c : this.binary('&&', result, c);
      left = right;
    }
    return result ?? first;
  }
  private add(): Expr {
    let e = this.mul();
    while (this.is('+') || this.is('-')) {
      const op = this.next().text as BinaryOp;
      e = this.binary(op, e, this.mul());
    }
    return e;
  }
  private mul(): Expr {
    let e = this.unary();
    while (this.is('*') || this.is('/') || this.is('%')) {
      const op = this.next().text as BinaryOp;
      e = this.binary(op, e, this.unary());
    }
    return e;
  }
  private unary(): Expr {
    const t = this.tok;
    if (this.accept('-')) {
      // `-3` is a negative literal; `-(3)` and `-x` are negations.
      const lit = this.tok;
      if (lit.kind === 'int') {
        this.next();
        return { kind: 'int', value: -BigInt(lit.text), pos: t.pos };
      }
      if (lit.kind === 'float') {
        this.next();
        return { ...this.floatLit(lit, true), pos: t.pos };
      }
      return this.unaryOp('-', t);
    }
    if (this.accept('!')) return this.unaryOp('!', t);
    return this.primary();
  }
  private unaryOp(op: '-' | '!', t: Token): Expr {
    this.enter('expression');
    const arg = this.unary();
    this.leave();
    return this.node({ kind: 'unary', op, arg, pos: t.pos }, [arg]);
  }
  private floatLit(t: Token, negative: boolean): { kind: 'float'; value: number; f32?: { value: number; text: string } } {
    const value = Number(t.text);
    if (!Number.isFinite(value)) this.fail(t, 'floating-point literal out of range', 'a finite number (at most about 1.8e308)');
    const f32 = decimalToF32(t.text);
    const sign = negative ? -1 : 1;
    if (Object.is(f32, Math.fround(value))) return { kind: 'float', value: sign * value };
    return { kind: 'float', value: sign * value, f32: { value: sign * f32, text: `${negative ? '-' : ''}${t.text}` } };
  }
  private primary(): Expr {
    const t = this.tok;
    switch (t.kind) {
      case 'int':
        this.next();
        return { kind: 'int', value: BigInt(t.text), pos: t.pos };
      case 'float':
        this.next();
        return { ...this.floatLit(t, false), pos: t.pos };
      case 'keyword':
        if (t.text === 'true' || t.text === 'false') {
          this.next();
          return { kind: 'bool', value: t.text === 'true', pos: t.pos };
        }
        if (t.text === 'select') {
          this.next();
          this.expect('(', "after 'select'");
          const cond = this.expr();
          this.expect(',', "after the condition of 'select'");
          const then = this.expr();
          this.expect(',', "after the second argument of 'select'");
          const els = this.expr();
          this.expect(')', "at the end of 'select(…)'");
          return this.node({ kind: 'select', cond, then, else: els, pos: t.pos }, [cond, then, els]);
        }
        break;
      case 'punct':
        if (t.text === '(') {
          this.next();
          const e = this.expr();
          if (!this.is(')')) this.fail(this.tok, `the parenthesis opened at ${t.pos.line}:${t.pos.col} is not closed`, "')'");
          this.next();
          return e;
        }
        break;
      case 'ident': {
        const name = t.text;
        if (name.startsWith(RESERVED_PREFIX)) {
          throw new SchedInputError([
            diag(this.file, t.pos, 'syntax', `names starting with '${RESERVED_PREFIX}' are reserved for the toolkit`, 'a name declared in this file', `'${name}'`),
          ]);
        }
        this.next();
        const redOp = operatorByKeyword(name);
        if (redOp && this.is('{')) return this.reduction(redOp.op, t.pos);
        if (this.is('[')) {
          this.next();
          const indices = this.is(']') ? [] : this.exprList();
          this.expect(']', `in the indices of '${name}'`);
          return this.node({ kind: 'array', name, indices, pos: t.pos }, indices);
        }
        if (this.is('(')) {
          this.next();
          const args = this.is(')') ? [] : this.exprList();
          this.expect(')', `in the arguments of '${name}'`);
          if (isBuiltinFunction(name) || isValueTypeName(name)) return this.node({ kind: 'call', fn: name, args, pos: t.pos }, args);
          return this.node({ kind: 'tensor', name, indices: args, pos: t.pos }, args);
        }
        return { kind: 'var', name, pos: t.pos };
      }
      default:
        break;
    }
    return this.fail(t, 'syntax error in an expression', 'a number, a name, an array or tensor access, a call, or \'(\'');
  }

  atEnd(): boolean {
    return this.tok.kind === 'eof';
  }
  current(): Token {
    return this.tok;
  }
}

/** Parse a whole .sched file. Throws SchedInputError (never anything else) on bad input. */
export function parseProgram(file: string, text: string): Program {
  if (text.includes('\u0000')) {
    const idx = text.indexOf('\u0000');
    const before = text.slice(0, idx).replace(/\r\n?/g, '\n');
    const line = before.split('\n').length;
    const bom = line === 1 && text.startsWith('\uFEFF') ? 1 : 0; // not a column (see lex)
    const col = before.length - before.lastIndexOf('\n') - bom;
    throw new SchedInputError([
      diag(file, { line, col }, 'syntax', 'this looks like a binary file, not a .sched text file', 'text', 'a NUL byte'),
    ]);
  }
  return new Parser(file, lex(file, text)).program();
}

/** Parse a single expression (used by the command line for `--param` style inputs and tests). */
export function parseExpr(file: string, text: string): Expr {
  const p = new Parser(file, lex(file, text));
  const e = p.expr();
  if (!p.atEnd()) p.fail(p.current(), 'unexpected text after an expression', 'end of input');
  return e;
}
