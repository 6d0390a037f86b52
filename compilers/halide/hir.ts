// The text of Halide 14's lowered IR (what `HL_DEBUG_CODEGEN=2` prints after a pass, and what
// `Expr.__str__` prints) read back as a tree. The printer (Halide's src/IRPrinter.cpp) parenthesises
// every nested binary operation, prints casts as `(T)e` or `T(e)`, lets as `let x = e in b`, and one
// statement per line with `{ … }` blocks. Every statement form is parsed into a node whose `kind`
// names it; forms this parser does not know are kept as `unknown` nodes with their text, so that
// the translator rejects them by name instead of dropping them.

export type HExpr =
  | { readonly k: 'int'; readonly v: bigint; readonly t: string | null }
  | { readonly k: 'float'; readonly v: number; readonly text: string; readonly t: string }
  | { readonly k: 'str'; readonly v: string }
  | { readonly k: 'var'; readonly name: string }
  | { readonly k: 'bin'; readonly op: string; readonly a: HExpr; readonly b: HExpr }
  | { readonly k: 'not'; readonly a: HExpr }
  | { readonly k: 'neg'; readonly a: HExpr }
  | { readonly k: 'cast'; readonly t: string; readonly a: HExpr }
  | { readonly k: 'call'; readonly name: string; readonly args: readonly HExpr[] }
  | { readonly k: 'load'; readonly name: string; readonly index: HExpr }
  | { readonly k: 'let'; readonly name: string; readonly value: HExpr; readonly body: HExpr };

export type HStmt =
  | { readonly k: 'let'; readonly name: string; readonly value: HExpr; readonly line: number }
  | { readonly k: 'assert'; readonly cond: HExpr; readonly msg: HExpr; readonly line: number }
  | { readonly k: 'pc'; readonly produce: boolean; readonly name: string; readonly body: readonly HStmt[]; readonly line: number }
  | { readonly k: 'for'; readonly type: string; readonly name: string; readonly min: HExpr; readonly extent: HExpr; readonly body: readonly HStmt[]; readonly line: number }
  | { readonly k: 'realize'; readonly name: string; readonly bounds: readonly (readonly [HExpr, HExpr])[]; readonly cond: HExpr | null; readonly body: readonly HStmt[]; readonly line: number }
  | { readonly k: 'if'; readonly cond: HExpr; readonly then: readonly HStmt[]; readonly else: readonly HStmt[] | null; readonly line: number }
  | { readonly k: 'provide'; readonly name: string; readonly args: readonly HExpr[]; readonly value: HExpr; readonly line: number }
  | { readonly k: 'store'; readonly name: string; readonly index: HExpr; readonly value: HExpr; readonly line: number }
  | { readonly k: 'eval'; readonly e: HExpr; readonly line: number }
  | { readonly k: 'unknown'; readonly kind: string; readonly text: string; readonly body: readonly HStmt[]; readonly line: number };

export class HirParseError extends Error {}

// ---------------------------------------------------------------------------------------------
// Expressions

const TYPE_RE = /^(?:u?int\d+|float\d+|bool)(?:x\d+)?$/;
/** A Halide scalar or vector type name as printed (`uint16`, `int32x8`, `float32`). */
export function isTypeName(s: string): boolean {
  return TYPE_RE.test(s);
}

interface Tok {
  readonly t: 'id' | 'num' | 'str' | 'p';
  readonly s: string;
}

function lex(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const rest = src.slice(i);
    let m: RegExpExecArray | null;
    if ((m = /^[A-Za-z_][A-Za-z0-9_.$]*/.exec(rest))) {
      // A name ends before a '.' that is not followed by a name character (none occur in practice).
      out.push({ t: 'id', s: m[0] });
    } else if ((m = /^\$[A-Za-z0-9_.$]+/.exec(rest))) {
      out.push({ t: 'id', s: m[0] });
    } else if ((m = /^(?:\d+\.\d*(?:e[+-]?\d+)?[fh]?|\d+e[+-]?\d+[fh]?|\d+[fh]|\d+)/.exec(rest))) {
      out.push({ t: 'num', s: m[0] });
    } else if (c === '"') {
      let j = i + 1;
      let s = '';
      while (j < src.length && src[j] !== '"') {
        if (src[j] === '\\') j++;
        s += src[j];
        j++;
      }
      out.push({ t: 'str', s });
      m = null;
      i = j + 1;
      continue;
    } else if ((m = /^(?:<=|>=|==|!=|&&|\|\||[-+*/%<>!(),[\]{}=])/.exec(rest))) {
      out.push({ t: 'p', s: m[0] });
    } else throw new HirParseError(`cannot read Halide IR at '${rest.slice(0, 30)}'`);
    i += m[0].length;
  }
  return out;
}

const BIN_PREC: Record<string, number> = { '||': 1, '&&': 2, '==': 3, '!=': 3, '<': 4, '<=': 4, '>': 4, '>=': 4, '+': 5, '-': 5, '*': 6, '/': 6, '%': 6 };

class ExprParser {
  i = 0;
  constructor(readonly toks: readonly Tok[], readonly src: string) {}
  peek(o = 0): Tok | undefined {
    return this.toks[this.i + o];
  }
  err(msg: string): never {
    throw new HirParseError(`${msg} in Halide IR '${this.src.length > 120 ? this.src.slice(0, 120) + '…' : this.src}'`);
  }
  eat(s: string): void {
    const t = this.peek();
    if (!t || t.s !== s || t.t === 'str') this.err(`expected '${s}'${t ? ` at '${t.s}'` : ' at the end'}`);
    this.i++;
  }
  isP(s: string, o = 0): boolean {
    const t = this.peek(o);
    return t !== undefined && t.t === 'p' && t.s === s;
  }
  expr(): HExpr {
    const t = this.peek();
    if (t && t.t === 'id' && t.s === 'let') {
      this.i++;
      const name = this.peek();
      if (!name || name.t !== 'id') this.err('expected a name after let');
      this.i++;
      this.eat('=');
      const value = this.expr();
      const kw = this.peek();
      if (!kw || kw.s !== 'in') this.err("expected 'in'");
      this.i++;
      return { k: 'let', name: name.s, value, body: this.expr() };
    }
    return this.bin(1);
  }
  bin(min: number): HExpr {
    let a = this.unary();
    for (;;) {
      const t = this.peek();
      if (!t || t.t !== 'p') return a;
      const p = BIN_PREC[t.s];
      if (p === undefined || p < min) return a;
      this.i++;
      const b = this.bin(p + 1);
      a = { k: 'bin', op: t.s, a, b };
    }
  }
  /** `(T)` or `(T *)` at the cursor: the cast's type, else null. */
  castPrefix(): string | null {
    if (!this.isP('(')) return null;
    const t1 = this.peek(1);
    if (!t1 || t1.t !== 'id') return null;
    if (isTypeName(t1.s) && this.isP(')', 2)) {
      this.i += 3;
      return t1.s;
    }
    if (this.isP('*', 2) && this.isP(')', 3)) {
      this.i += 4;
      return `${t1.s} *`;
    }
    return null;
  }
  unary(): HExpr {
    if (this.isP('!')) {
      this.i++;
      return { k: 'not', a: this.unary() };
    }
    if (this.isP('-')) {
      this.i++;
      const a = this.unary();
      if (a.k === 'int') return { ...a, v: -a.v };
      if (a.k === 'float') return { ...a, v: -a.v, text: `-${a.text}` };
      return { k: 'neg', a };
    }
    const ct = this.castPrefix();
    if (ct !== null) {
      const a = this.unary();
      if (a.k === 'int' && a.t === null && !ct.endsWith('*')) return { k: 'int', v: a.v, t: ct };
      if (a.k === 'float' && !ct.endsWith('*')) return { k: 'cast', t: ct, a };
      return { k: 'cast', t: ct, a };
    }
    return this.primary();
  }
  args(): HExpr[] {
    this.eat('(');
    const out: HExpr[] = [];
    if (this.isP(')')) {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.expr());
      if (this.isP(',')) {
        this.i++;
        continue;
      }
      this.eat(')');
      return out;
    }
  }
  primary(): HExpr {
    const t = this.peek();
    if (!t) this.err('unexpected end');
    if (t.t === 'num') {
      this.i++;
      if (/^\d+$/.test(t.s)) return { k: 'int', v: BigInt(t.s), t: null };
      const suffix = t.s.endsWith('f') ? 'float32' : t.s.endsWith('h') ? 'float16' : null;
      const text = suffix ? t.s.slice(0, -1) : t.s;
      return { k: 'float', v: Number(text), text, t: suffix ?? 'float64' };
    }
    if (t.t === 'str') {
      this.i++;
      return { k: 'str', v: t.s };
    }
    if (t.t === 'p' && t.s === '(') {
      this.i++;
      const e = this.expr();
      this.eat(')');
      return e;
    }
    if (t.t === 'id') {
      this.i++;
      // Infinities and NaN print as words: `inf`/`nan` (float64), `inff`/`nanf` (float32). The
      // driver refuses Vars, Params and Funcs with these names.
      const special = /^(inf|nan)(f|h)?$/.exec(t.s);
      if (special && !this.isP('(') && !this.isP('[')) {
        return { k: 'float', v: special[1] === 'inf' ? Infinity : NaN, text: special[1]!, t: special[2] === 'f' ? 'float32' : special[2] === 'h' ? 'float16' : 'float64' };
      }
      if (this.isP('(')) {
        const args = this.args();
        if (isTypeName(t.s) && args.length === 1) return { k: 'cast', t: t.s, a: args[0]! };
        return { k: 'call', name: t.s, args };
      }
      if (this.isP('[')) {
        this.i++;
        const index = this.expr();
        const al = this.peek();
        if (al && al.t === 'id' && al.s === 'aligned') {
          // an alignment hint `aligned(modulus, remainder)`: no meaning of its own
          this.i++;
          this.args();
        }
        this.eat(']');
        return { k: 'load', name: t.s, index };
      }
      return { k: 'var', name: t.s };
    }
    this.err(`unexpected '${t.s}'`);
  }
}

/** Parse one expression as Halide prints it. */
export function parseHExpr(src: string): HExpr {
  const p = new ExprParser(lex(src), src);
  const e = p.expr();
  if (p.i !== p.toks.length) p.err(`unexpected '${p.peek()!.s}'`);
  return e;
}

// ---------------------------------------------------------------------------------------------
// Statements

interface Line {
  readonly text: string;
  readonly no: number;
}

/** Parse a statement section (one statement per line, `{`/`}` blocks). */
export function parseHStmt(src: string): HStmt[] {
  const lines: Line[] = src
    .split('\n')
    .map((text, i) => ({ text: text.trim(), no: i + 1 }))
    .filter((l) => l.text !== '');
  let i = 0;
  const block = (): HStmt[] => {
    const out: HStmt[] = [];
    while (i < lines.length) {
      const l = lines[i]!;
      if (l.text === '}' || l.text.startsWith('} else') || l.text === '} {') return out;
      i++;
      out.push(stmt(l));
    }
    return out;
  };
  const closeBlock = (l: Line): void => {
    if (i >= lines.length || lines[i]!.text !== '}') throw new HirParseError(`line ${l.no}: the block opened here is not closed`);
    i++;
  };
  const opened = (l: Line): HStmt[] => {
    const body = block();
    closeBlock(l);
    return body;
  };
  const ifChain = (l: Line, condText: string): HStmt => {
    const cond = parseHExpr(condText);
    const then = block();
    if (i >= lines.length) throw new HirParseError(`line ${l.no}: the if opened here is not closed`);
    const c = lines[i]!.text;
    if (c === '}') {
      i++;
      return { k: 'if', cond, then, else: null, line: l.no };
    }
    if (c === '} else {') {
      i++;
      const els = opened(l);
      return { k: 'if', cond, then, else: els, line: l.no };
    }
    const m = /^\} else if \((.*)\) \{$/.exec(c);
    if (m) {
      const nl = lines[i]!;
      i++;
      return { k: 'if', cond, then, else: [ifChain(nl, m[1]!)], line: l.no };
    }
    throw new HirParseError(`line ${lines[i]!.no}: cannot read '${c}'`);
  };
  const stmt = (l: Line): HStmt => {
    const s = l.text;
    let m: RegExpExecArray | null;
    if ((m = /^let ([^ ]+) = (.*)$/.exec(s))) {
      // A LetStmt, or an Evaluate of a let-expression (`let t = e in call(…)`).
      try {
        return { k: 'let', name: m[1]!, value: parseHExpr(m[2]!), line: l.no };
      } catch {
        return { k: 'eval', e: parseHExpr(s), line: l.no };
      }
    }
    if (s.startsWith('assert(') && s.endsWith(')')) {
      const e = parseHExpr(`__assert${s.slice(6)}`);
      if (e.k !== 'call' || e.args.length !== 2) throw new HirParseError(`line ${l.no}: cannot read the assert`);
      return { k: 'assert', cond: e.args[0]!, msg: e.args[1]!, line: l.no };
    }
    if ((m = /^(produce|consume) ([^ ]+) \{$/.exec(s))) return { k: 'pc', produce: m[1] === 'produce', name: m[2]!, body: opened(l), line: l.no };
    // Blocks that look like loops but are not: `acquire (sema, 1) {` (async), `atomic (mutex) {`.
    if ((m = /^([a-z_]+(?:<[A-Za-z_]+>)?) \((.*)\) \{$/.exec(s)) && !['if', 'predicate', 'acquire', 'atomic', 'prefetch', 'fork', 'wait_for'].includes(m[1]!)) {
      const e = parseHExpr(`__for(${m[2]!})`);
      if (e.k !== 'call' || e.args.length !== 3 || e.args[0]!.k !== 'var') throw new HirParseError(`line ${l.no}: cannot read the loop '${s}'`);
      return { k: 'for', type: m[1]!, name: e.args[0].name, min: e.args[1]!, extent: e.args[2]!, body: opened(l), line: l.no };
    }
    if ((m = /^if \((.*)\) \{$/.exec(s))) return ifChain(l, m[1]!);
    // `realize f(bounds) [in MemoryType] [if cond] {`: the memory type has no meaning here.
    if ((m = /^realize ([^ (]+)\((.*?)\)(?: in [A-Za-z]+)?( if (.*))? \{$/.exec(s))) {
      const bounds = parseHExpr(`__r(${m[2]!.replace(/\[/g, '__b(').replace(/\]/g, ')')})`);
      if (bounds.k !== 'call') throw new HirParseError(`line ${l.no}: cannot read the realize bounds`);
      const bs = bounds.args.map((b) => {
        if (b.k !== 'call' || b.name !== '__b' || b.args.length !== 2) throw new HirParseError(`line ${l.no}: cannot read the realize bounds`);
        return [b.args[0]!, b.args[1]!] as const;
      });
      return { k: 'realize', name: m[1]!, bounds: bs, cond: m[4] ? parseHExpr(m[4]) : null, body: opened(l), line: l.no };
    }
    if (s.endsWith('{')) {
      // allocate … {, fork {, atomic {, prefetch …: kept, named by their first word. A fork has
      // two blocks: `fork { … } { … }`.
      const body = block();
      if (i < lines.length && lines[i]!.text === '} {') {
        i++;
        body.push(...block());
      }
      closeBlock(l);
      return { k: 'unknown', kind: s.split(/[ (]/)[0]!, text: s, body, line: l.no };
    }
    if ((m = /^([A-Za-z_][A-Za-z0-9_.$]*)\[(.*?)\] = (.*)$/.exec(s))) {
      try {
        return { k: 'store', name: m[1]!, index: parseHExpr(m[2]!), value: parseHExpr(m[3]!), line: l.no };
      } catch {
        // fall through: an index with a ']' inside is not a simple store
      }
    }
    if ((m = /^([A-Za-z_][A-Za-z0-9_.$]*)\(/.exec(s))) {
      // `f(args) = value` (Provide) or an expression statement (Evaluate).
      const p = new ExprParser(lex(s), s);
      const head = p.primary();
      if (p.isP('=')) {
        p.i++;
        if (head.k !== 'call') throw new HirParseError(`line ${l.no}: cannot read '${s}'`);
        if (p.isP('{')) return { k: 'unknown', kind: 'Provide(Tuple)', text: s, body: [], line: l.no };
        const value = p.expr();
        if (p.i !== p.toks.length) p.err('unexpected text after the value');
        return { k: 'provide', name: head.name, args: head.args, value, line: l.no };
      }
    }
    const first = s.split(/[ (]/)[0]!;
    if (['allocate', 'free', 'predicate', 'prefetch', 'fork', 'acquire', 'atomic', 'wait_for'].includes(first)) return { k: 'unknown', kind: first, text: s, body: [], line: l.no };
    try {
      return { k: 'eval', e: parseHExpr(s), line: l.no };
    } catch {
      return { k: 'unknown', kind: first, text: s, body: [], line: l.no };
    }
  };
  const out = block();
  if (i < lines.length) throw new HirParseError(`line ${lines[i]!.no}: unmatched '${lines[i]!.text}'`);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Printing (normalised), for the traced/untraced comparison

export function printHExpr(e: HExpr): string {
  switch (e.k) {
    case 'int':
      return e.t ? `(${e.t})${e.v}` : String(e.v);
    case 'float':
      return e.text + (e.t === 'float32' ? 'f' : e.t === 'float16' ? 'h' : '');
    case 'str':
      return JSON.stringify(e.v);
    case 'var':
      return e.name;
    case 'bin':
      return `(${printHExpr(e.a)} ${e.op} ${printHExpr(e.b)})`;
    case 'not':
      return `!${printHExpr(e.a)}`;
    case 'neg':
      return `-${printHExpr(e.a)}`;
    case 'cast':
      return `(${e.t})${printHExpr(e.a)}`;
    case 'call':
      return `${e.name}(${e.args.map(printHExpr).join(', ')})`;
    case 'load':
      return `${e.name}[${printHExpr(e.index)}]`;
    case 'let':
      return `(let ${e.name} = ${printHExpr(e.value)} in ${printHExpr(e.body)})`;
  }
}

export function printHStmt(ss: readonly HStmt[], depth = 0, out: string[] = []): string[] {
  const ind = ' '.repeat(depth);
  for (const s of ss) {
    switch (s.k) {
      case 'let':
        out.push(`${ind}let ${s.name} = ${printHExpr(s.value)}`);
        break;
      case 'assert':
        out.push(`${ind}assert(${printHExpr(s.cond)}, ${printHExpr(s.msg)})`);
        break;
      case 'pc':
        out.push(`${ind}${s.produce ? 'produce' : 'consume'} ${s.name} {`);
        printHStmt(s.body, depth + 1, out);
        out.push(`${ind}}`);
        break;
      case 'for':
        out.push(`${ind}${s.type} (${s.name}, ${printHExpr(s.min)}, ${printHExpr(s.extent)}) {`);
        printHStmt(s.body, depth + 1, out);
        out.push(`${ind}}`);
        break;
      case 'realize':
        out.push(`${ind}realize ${s.name}(${s.bounds.map(([a, b]) => `[${printHExpr(a)}, ${printHExpr(b)}]`).join(', ')})${s.cond ? ` if ${printHExpr(s.cond)}` : ''} {`);
        printHStmt(s.body, depth + 1, out);
        out.push(`${ind}}`);
        break;
      case 'if':
        out.push(`${ind}if (${printHExpr(s.cond)}) {`);
        printHStmt(s.then, depth + 1, out);
        if (s.else) {
          out.push(`${ind}} else {`);
          printHStmt(s.else, depth + 1, out);
        }
        out.push(`${ind}}`);
        break;
      case 'provide':
        out.push(`${ind}${s.name}(${s.args.map(printHExpr).join(', ')}) = ${printHExpr(s.value)}`);
        break;
      case 'store':
        out.push(`${ind}${s.name}[${printHExpr(s.index)}] = ${printHExpr(s.value)}`);
        break;
      case 'eval':
        out.push(`${ind}${printHExpr(s.e)}`);
        break;
      case 'unknown':
        out.push(`${ind}${s.text}`);
        if (s.body.length > 0) {
          printHStmt(s.body, depth + 1, out);
          out.push(`${ind}}`);
        }
        break;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Trace stripping

export function isTraceCall(e: HExpr): boolean {
  return e.k === 'call' && (e.name === 'halide_trace_helper' || e.name === 'trace');
}

/** `return_second(trace(…), v)` → v; let-expressions inlined (CSE choices differ when traced). */
export function stripExpr(e: HExpr, env: ReadonlyMap<string, HExpr> = new Map()): HExpr {
  switch (e.k) {
    case 'var':
      return env.get(e.name) ?? e;
    case 'let': {
      const m = new Map(env);
      m.set(e.name, stripExpr(e.value, env));
      return stripExpr(e.body, m);
    }
    case 'bin':
      return { ...e, a: stripExpr(e.a, env), b: stripExpr(e.b, env) };
    case 'cast': {
      // `(T)return_second(trace, v)`: the printer's type prefix of the call, v has type T already.
      const inner = e.a.k === 'call' && e.a.name === 'return_second' && e.a.args.length === 2 && isTraceCall(unbroadcast(e.a.args[0]!));
      return inner ? stripExpr(e.a, env) : { ...e, a: stripExpr(e.a, env) };
    }
    case 'load':
      return { ...e, index: stripExpr(e.index, env) };
    case 'not':
    case 'neg':
      return { ...e, a: stripExpr(e.a, env) };
    case 'call': {
      if (e.name === 'return_second' && e.args.length === 2 && isTraceCall(unbroadcast(e.args[0]!))) return stripExpr(e.args[1]!, env);
      return { ...e, args: e.args.map((a) => stripExpr(a, env)) };
    }
    default:
      return e;
  }
}

function unbroadcast(e: HExpr): HExpr {
  return e.k === 'call' && /^x\d+$/.test(e.name) && e.args.length === 1 ? e.args[0]! : e;
}

/** The statement without its trace calls: trace events and `*.trace_id` lets removed, values unwrapped. */
export function stripStmt(ss: readonly HStmt[]): HStmt[] {
  const out: HStmt[] = [];
  for (const s of ss) {
    switch (s.k) {
      case 'let':
        if (s.name.endsWith('.trace_id')) continue;
        out.push({ ...s, value: stripExpr(s.value) });
        break;
      case 'eval':
        if (isTraceCall(unbroadcast(s.e))) continue;
        out.push({ ...s, e: stripExpr(s.e) });
        break;
      case 'provide':
        out.push({ ...s, args: s.args.map((a) => stripExpr(a)), value: stripExpr(s.value) });
        break;
      case 'store':
        out.push({ ...s, index: stripExpr(s.index), value: stripExpr(s.value) });
        break;
      case 'pc':
      case 'for':
      case 'realize':
      case 'unknown':
        out.push({ ...s, body: stripStmt(s.body) } as HStmt);
        break;
      case 'if':
        out.push({ ...s, then: stripStmt(s.then), else: s.else ? stripStmt(s.else) : null });
        break;
      default:
        out.push(s);
    }
  }
  return out;
}

/**
 * The traced lowering, trace calls stripped, against the untraced one: lines (printed after
 * normalisation) found in one and not the other, counted as multisets, so that a hoisted line
 * counts once rather than shifting every line after it.
 */
export function compareStripped(traced: string, plain: string): { same: boolean; onlyTraced: string[]; onlyPlain: string[]; lines: number } {
  const a = canonicalLets(printHStmt(stripStmt(parseHStmt(traced)))).map((l) => l.trim());
  const b = canonicalLets(printHStmt(stripStmt(parseHStmt(plain)))).map((l) => l.trim());
  const count = new Map<string, number>();
  for (const l of b) count.set(l, (count.get(l) ?? 0) + 1);
  const onlyTraced: string[] = [];
  for (const l of a) {
    const n = count.get(l) ?? 0;
    if (n > 0) count.set(l, n - 1);
    else onlyTraced.push(l);
  }
  const onlyPlain = [...count].flatMap(([l, n]) => Array<string>(n).fill(l));
  return { same: onlyTraced.length === 0 && onlyPlain.length === 0, onlyTraced, onlyPlain, lines: Math.max(a.length, b.length) };
}

/** CSE's let names (`t12`, `t12.s`) renamed by order of first occurrence: numbering differs when traced. */
function canonicalLets(lines: string[]): string[] {
  const names = new Map<string, string>();
  return lines.map((l) =>
    l.replace(/\bt\d+(?:\.s)?(?![\w.$])/g, (n) => {
      let c = names.get(n);
      if (c === undefined) names.set(n, (c = `t#${names.size}`));
      return c;
    }),
  );
}

/** The names of the calls in an expression (Func reads, inputs, intrinsics). */
export function collectCalls(e: HExpr, out: Set<string>): void {
  switch (e.k) {
    case 'call':
      out.add(e.name);
      for (const a of e.args) collectCalls(a, out);
      break;
    case 'bin':
      collectCalls(e.a, out);
      collectCalls(e.b, out);
      break;
    case 'not':
    case 'neg':
    case 'cast':
      collectCalls(e.a, out);
      break;
    case 'let':
      collectCalls(e.value, out);
      collectCalls(e.body, out);
      break;
    case 'load':
      collectCalls(e.index, out);
      break;
    default:
      break;
  }
}
