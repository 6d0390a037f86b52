// A reader of MLIR's generic form (the text `mlir-opt --mlir-print-op-generic --mlir-print-debuginfo`
// prints; with or without `--mlir-print-local-scope`). Every input reaches the front end through
// mlir-opt, so the custom assembly of each dialect is never read here: one grammar covers every op.
// Attribute and type aliases (`#map = …`, `#loc3 = loc(…)`, `!t = …`) may be defined before or after
// their uses, as mlir-opt prints location aliases at the end. A malformed text is an MlirSyntaxError
// at line:col, saying what was expected and what was found.

import type { AffineExpr, AffineMap, Attr, Block, BlockArg, IntegerSet, Loc, Module, MType, Op, Region, TextPos } from './ir.ts';
import { decimalToF32 } from '../../core/language/float-literal.ts';

export class MlirSyntaxError extends Error {
  constructor(readonly pos: TextPos, readonly expected: string, readonly found: string) {
    super(`${pos.line}:${pos.col}: expected ${expected}, found ${found}`);
    this.name = 'MlirSyntaxError';
  }
}

const FLOAT_TYPES: Record<string, number> = { f16: 16, bf16: 16, f32: 32, f64: 64, f80: 80, f128: 128, tf32: 19 };

/** Nesting deeper than this is refused (a stack overflow would otherwise be a crash). */
const MAX_DEPTH = 400;

class Reader {
  private i = 0;
  private depth = 0;
  /** Alias name (with its sigil) → offset of its definition's value. */
  private readonly aliasAt = new Map<string, number>();
  private readonly attrAliases = new Map<string, Attr | Loc | 'busy'>();
  private readonly typeAliases = new Map<string, MType | 'busy'>();
  /** Line start offsets, for positions. */
  private readonly lines: number[] = [0];

  constructor(private readonly s: string) {
    for (let k = 0; k < s.length; k++) if (s.charCodeAt(k) === 10) this.lines.push(k + 1);
    // Alias definitions start a line: `#name = …` or `!name = …`.
    const re = /^([#!][A-Za-z_][\w.$-]*)[ \t]*=[ \t]*/gm;
    for (let m = re.exec(s); m; m = re.exec(s)) this.aliasAt.set(m[1]!, m.index + m[0].length);
  }

  // -------------------------------------------------------------------------------------------
  // Characters

  pos(at = this.i): TextPos {
    let lo = 0;
    let hi = this.lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lines[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: at - this.lines[lo]! + 1 };
  }

  private found(): string {
    if (this.i >= this.s.length) return 'end of input';
    const m = /^\S{1,20}/.exec(this.s.slice(this.i));
    return `'${m ? m[0] : this.s[this.i]}'`;
  }

  fail(expected: string): never {
    throw new MlirSyntaxError(this.pos(), expected, this.found());
  }

  ws(): void {
    for (;;) {
      const c = this.s.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.i++;
      else if (c === 47 && this.s.charCodeAt(this.i + 1) === 47) {
        while (this.i < this.s.length && this.s.charCodeAt(this.i) !== 10) this.i++;
      } else return;
    }
  }

  peek(): string {
    this.ws();
    return this.s[this.i] ?? '';
  }

  startsWith(t: string): boolean {
    this.ws();
    return this.s.startsWith(t, this.i);
  }

  eat(t: string): boolean {
    if (!this.startsWith(t)) return false;
    this.i += t.length;
    return true;
  }

  expect(t: string): void {
    if (!this.eat(t)) this.fail(`'${t}'`);
  }

  atEnd(): boolean {
    this.ws();
    return this.i >= this.s.length;
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) this.fail(`nesting at most ${MAX_DEPTH} deep`);
  }

  private leave(): void {
    this.depth--;
  }

  /** A bare identifier (`affine.for`, `d0`, `floordiv`, `f32`). */
  ident(): string | null {
    this.ws();
    const m = /^[A-Za-z_][\w.$]*/.exec(this.s.slice(this.i, this.i + 256));
    if (!m) return null;
    this.i += m[0].length;
    return m[0];
  }

  /** `%name`, `^bb`, `#alias`, `!alias`, `@sym` with its sigil. */
  sigilName(sigil: string): string | null {
    this.ws();
    if (this.s[this.i] !== sigil) return null;
    const m = /^[A-Za-z0-9_$.-]+/.exec(this.s.slice(this.i + 1, this.i + 257));
    if (!m) return null;
    this.i += 1 + m[0].length;
    return sigil + m[0];
  }

  string(): string {
    this.ws();
    if (this.s[this.i] !== '"') this.fail('a string literal');
    let out = '';
    this.i++;
    for (;;) {
      const c = this.s[this.i];
      if (c === undefined) this.fail('the end of the string literal');
      this.i++;
      if (c === '"') return out;
      if (c === '\\') {
        const d = this.s[this.i]!;
        if (/[0-9a-fA-F]/.test(d) && /[0-9a-fA-F]/.test(this.s[this.i + 1] ?? '')) {
          out += String.fromCharCode(parseInt(this.s.slice(this.i, this.i + 2), 16));
          this.i += 2;
        } else {
          out += d === 'n' ? '\n' : d === 't' ? '\t' : d;
          this.i++;
        }
      } else out += c;
    }
  }

  /** An integer literal (decimal or 0x hex), with an optional minus sign. */
  integer(): bigint | null {
    this.ws();
    const m = /^-?(0x[0-9a-fA-F]+|\d+)/.exec(this.s.slice(this.i, this.i + 128));
    if (!m) return null;
    // Not the start of a float.
    if (!m[0].includes('x') && /^[.eE]/.test(this.s[this.i + m[0].length] ?? '')) return null;
    this.i += m[0].length;
    return m[0].startsWith('-') ? -BigInt(m[0].slice(1)) : BigInt(m[0]);
  }

  /** Text up to the bracket that closes the one just before `this.i` (balanced; strings skipped). */
  balanced(open: string, close: string): string {
    const start = this.i;
    let level = 1;
    while (this.i < this.s.length) {
      const c = this.s[this.i]!;
      if (c === '"') {
        this.string();
        continue;
      }
      this.i++;
      if (c === open) level++;
      else if (c === close && --level === 0) return this.s.slice(start, this.i - 1);
      else if (c === '-' && this.s[this.i] === '>' && open === '<') this.i++; // `->` inside `<…>`
    }
    return this.fail(`'${close}'`);
  }

  // -------------------------------------------------------------------------------------------
  // Aliases

  private aliasValue<T>(name: string, parse: () => T, cache: Map<string, T | 'busy'>): T {
    const have = cache.get(name);
    if (have === 'busy') this.fail(`a non-circular definition of ${name}`);
    if (have !== undefined) return have;
    const at = this.aliasAt.get(name);
    if (at === undefined) this.fail(`a definition of the alias ${name}`);
    cache.set(name, 'busy');
    const save = this.i;
    this.i = at;
    const v = parse();
    this.i = save;
    cache.set(name, v);
    return v;
  }

  // -------------------------------------------------------------------------------------------
  // Types

  type(): MType {
    this.enter();
    try {
      return this.type1();
    } finally {
      this.leave();
    }
  }

  private type1(): MType {
    const c = this.peek();
    if (c === '(') {
      const inputs = this.typeList('(', ')');
      this.expect('->');
      const results = this.peek() === '(' ? this.typeList('(', ')') : [this.type()];
      return { kind: 'function', inputs, results };
    }
    if (c === '!') {
      const name = this.sigilName('!') ?? this.fail('a type');
      if (this.peek() === '<' && !this.aliasAt.has(name)) {
        this.i++;
        return { kind: 'other', text: `${name}<${this.balanced('<', '>')}>` };
      }
      if (!this.aliasAt.has(name)) return { kind: 'other', text: name };
      return this.aliasValue(name, () => this.type(), this.typeAliases);
    }
    const start = this.i;
    const id = this.ident();
    if (id === null) this.fail('a type');
    let m: RegExpExecArray | null;
    if ((m = /^(i|si|ui)(\d+)$/.exec(id))) return { kind: 'int', width: Number(m[2]), signedness: m[1] === 'i' ? 'signless' : m[1] === 'si' ? 'signed' : 'unsigned' };
    if (id === 'index') return { kind: 'index' };
    if (id === 'none') return { kind: 'none' };
    if (id in FLOAT_TYPES) return { kind: 'float', name: id, width: FLOAT_TYPES[id]! };
    if (/^f8E/.test(id)) return { kind: 'float', name: id, width: 8 };
    if (id === 'memref' && this.eat('<')) return this.memrefType();
    if (id === 'vector' && this.eat('<')) return this.vectorType();
    if (this.peek() === '<') {
      this.i++;
      this.balanced('<', '>');
    }
    return { kind: 'other', text: this.s.slice(start, this.i).trim() };
  }

  private typeList(open: string, close: string): MType[] {
    this.expect(open);
    const out: MType[] = [];
    if (this.eat(close)) return out;
    do out.push(this.type());
    while (this.eat(','));
    this.expect(close);
    return out;
  }

  /** `4x?x` prefixes of a shaped type; stops before the element type. */
  private dims(): (bigint | null)[] {
    const out: (bigint | null)[] = [];
    for (;;) {
      this.ws();
      const m = /^(\?|\d+)x/.exec(this.s.slice(this.i, this.i + 64));
      if (!m) return out;
      this.i += m[0].length;
      out.push(m[1] === '?' ? null : BigInt(m[1]!));
    }
  }

  private memrefType(): MType {
    const start = this.i;
    if (this.eat('*')) {
      this.balanced('<', '>');
      return { kind: 'other', text: `memref<${this.s.slice(start, this.i - 1)}>` };
    }
    const shape = this.dims();
    const elem = this.type();
    let layout: Attr | null = null;
    let space: Attr | null = null;
    if (this.eat(',')) {
      const a = this.attr();
      // A layout is a map or strided<…>; anything else in the first slot is the memory space.
      if (a.kind === 'map' || a.kind === 'strided') {
        layout = a;
        if (this.eat(',')) space = this.attr();
      } else space = a;
    }
    this.expect('>');
    return { kind: 'memref', shape, elem, layout, space };
  }

  private vectorType(): MType {
    const shape: number[] = [];
    let scalable = false;
    for (;;) {
      this.ws();
      const m = /^(\[?)(\d+)(\]?)x/.exec(this.s.slice(this.i, this.i + 64));
      if (!m) break;
      if (m[1] || m[3]) scalable = true;
      this.i += m[0].length;
      shape.push(Number(m[2]));
    }
    const elem = this.type();
    this.expect('>');
    return { kind: 'vector', shape, scalable, elem };
  }

  // -------------------------------------------------------------------------------------------
  // Affine maps and sets

  private affineHeader(): { dims: string[]; syms: string[] } {
    const names = (open: string, close: string): string[] => {
      const out: string[] = [];
      this.expect(open);
      if (this.eat(close)) return out;
      do out.push(this.ident() ?? this.fail('a dimension or symbol name'));
      while (this.eat(','));
      this.expect(close);
      return out;
    };
    const dims = names('(', ')');
    const syms = this.peek() === '[' ? names('[', ']') : [];
    return { dims, syms };
  }

  affineMap(): AffineMap {
    const { dims, syms } = this.affineHeader();
    this.expect('->');
    this.expect('(');
    const results: AffineExpr[] = [];
    if (!this.eat(')')) {
      do results.push(this.affineExpr(dims, syms));
      while (this.eat(','));
      this.expect(')');
    }
    return { dims: dims.length, syms: syms.length, results };
  }

  integerSet(): IntegerSet {
    const { dims, syms } = this.affineHeader();
    this.expect(':');
    this.expect('(');
    const constraints: { e: AffineExpr; eq: boolean }[] = [];
    if (!this.eat(')')) {
      do {
        const e = this.affineExpr(dims, syms);
        let eq: boolean;
        if (this.eat('>=')) eq = false;
        else if (this.eat('==')) eq = true;
        else this.fail("'>= 0' or '== 0'");
        const z = this.integer();
        if (z !== 0n) this.fail("'0' after the comparison");
        constraints.push({ e, eq });
      } while (this.eat(','));
      this.expect(')');
    }
    return { dims: dims.length, syms: syms.length, constraints };
  }

  /** Affine expressions: + and - (lowest), then *, floordiv, ceildiv, mod, then unary minus. */
  private affineExpr(dims: readonly string[], syms: readonly string[]): AffineExpr {
    this.enter();
    try {
      let e = this.affineTerm(dims, syms);
      for (;;) {
        if (this.eat('+')) e = { k: 'add', a: e, b: this.affineTerm(dims, syms) };
        else if (this.startsWith('-') && !this.startsWith('->')) {
          this.i++;
          e = { k: 'add', a: e, b: { k: 'mul', a: this.affineTerm(dims, syms), b: { k: 'const', v: -1n } } };
        } else return e;
      }
    } finally {
      this.leave();
    }
  }

  private affineTerm(dims: readonly string[], syms: readonly string[]): AffineExpr {
    let e = this.affineUnary(dims, syms);
    for (;;) {
      if (this.eat('*')) {
        e = { k: 'mul', a: e, b: this.affineUnary(dims, syms) };
        continue;
      }
      const save = this.i;
      const w = this.ident();
      if (w === 'floordiv' || w === 'ceildiv' || w === 'mod') {
        e = { k: w, a: e, b: this.affineUnary(dims, syms) };
        continue;
      }
      this.i = save;
      return e;
    }
  }

  private affineUnary(dims: readonly string[], syms: readonly string[]): AffineExpr {
    if (this.peek() === '-') {
      this.i++;
      return { k: 'mul', a: this.affineUnary(dims, syms), b: { k: 'const', v: -1n } };
    }
    if (this.eat('(')) {
      const e = this.affineExpr(dims, syms);
      this.expect(')');
      return e;
    }
    const n = this.integer();
    if (n !== null) return { k: 'const', v: n };
    const id = this.ident();
    if (id !== null) {
      const d = dims.indexOf(id);
      if (d >= 0) return { k: 'dim', i: d };
      const s = syms.indexOf(id);
      if (s >= 0) return { k: 'sym', i: s };
    }
    return this.fail('an affine expression (an integer, a dimension or a symbol)');
  }

  // -------------------------------------------------------------------------------------------
  // Attributes

  attr(): Attr {
    this.enter();
    try {
      return this.attr1();
    } finally {
      this.leave();
    }
  }

  private attr1(): Attr {
    const c = this.peek();
    if (c === '"') return { kind: 'string', value: this.string() };
    if (c === '[') {
      this.i++;
      const items: Attr[] = [];
      if (!this.eat(']')) {
        do items.push(this.attr());
        while (this.eat(','));
        this.expect(']');
      }
      return { kind: 'array', items };
    }
    if (c === '{') return { kind: 'dict', entries: this.attrDict() };
    if (c === '@') {
      this.i++;
      const name = this.s[this.i] === '"' ? this.string() : this.symbolRest() ?? this.fail('a symbol name');
      let full = name;
      while (this.eat('::')) {
        this.expect('@');
        full += `::@${this.peek() === '"' ? this.string() : this.symbolRest() ?? this.fail('a symbol name')}`;
      }
      return { kind: 'symbol', name: full };
    }
    if (c === '#') {
      const name = this.sigilName('#') ?? this.fail('an attribute');
      if (this.aliasAt.has(name) && this.peek() !== '<') {
        const v = this.aliasValue(name, () => this.attrOrLoc(), this.attrAliases);
        if ('kind' in v && isAttr(v)) return v;
        return { kind: 'other', text: name };
      }
      let text = name;
      if (this.peek() === '<') {
        this.i++;
        text += `<${this.balanced('<', '>')}>`;
      }
      return { kind: 'other', text };
    }
    if (c === '-' || /\d/.test(c)) return this.numberAttr();
    const save = this.i;
    const id = this.ident();
    switch (id) {
      case 'true': return { kind: 'bool', value: true };
      case 'false': return { kind: 'bool', value: false };
      case 'unit': return { kind: 'unit' };
      case 'affine_map': {
        this.expect('<');
        const map = this.affineMap();
        this.expect('>');
        return { kind: 'map', map };
      }
      case 'affine_set': {
        this.expect('<');
        const set = this.integerSet();
        this.expect('>');
        return { kind: 'set', set };
      }
      case 'array': {
        this.expect('<');
        const elem = this.ident() ?? this.fail('an element type');
        const values: bigint[] = [];
        if (this.eat(':')) {
          do values.push(this.integer() ?? this.fail('an integer'));
          while (this.eat(','));
        }
        this.expect('>');
        return { kind: 'dense-array', elem, values };
      }
      case 'strided': {
        this.expect('<');
        this.expect('[');
        const strides: (bigint | null)[] = [];
        if (!this.eat(']')) {
          do strides.push(this.eat('?') ? null : this.integer() ?? this.fail('a stride'));
          while (this.eat(','));
          this.expect(']');
        }
        let offset: bigint | null = 0n;
        if (this.eat(',')) {
          if (this.ident() !== 'offset') this.fail("'offset'");
          this.expect(':');
          offset = this.eat('?') ? null : this.integer() ?? this.fail('an offset');
        }
        this.expect('>');
        return { kind: 'strided', strides, offset };
      }
      case 'dense': case 'sparse': case 'dense_resource': case 'opaque': {
        this.expect('<');
        const body = this.balanced('<', '>');
        let text = `${id}<${body}>`;
        if (this.eat(':')) text += ` : ${this.typeText()}`;
        return { kind: 'other', text };
      }
      default:
        this.i = save;
        return { kind: 'type', type: this.type() };
    }
  }

  /** The rest of a bare `@name` after the `@`. */
  private symbolRest(): string | null {
    const m = /^[A-Za-z0-9_$.-]+/.exec(this.s.slice(this.i, this.i + 256));
    if (!m) return null;
    this.i += m[0].length;
    return m[0];
  }

  private typeText(): string {
    const start = this.i;
    this.type();
    return this.s.slice(start, this.i).trim();
  }

  private numberAttr(): Attr {
    this.ws();
    const m = /^-?(0x[0-9a-fA-F]+|\d+(\.\d*)?([eE][-+]?\d+)?|inf|nan)/.exec(this.s.slice(this.i, this.i + 128));
    if (!m) this.fail('a number');
    const text = m[0];
    this.i += text.length;
    const type = this.eat(':') ? this.type() : null;
    const isHex = /^-?0x/.test(text);
    if (type && type.kind === 'float') {
      if (isHex) return { kind: 'float', value: floatFromBits(BigInt(text), type.width), text, type };
      return { kind: 'float', value: type.width === 32 ? decimalToF32(text) : Number(text), text, type };
    }
    if (/[.eE]/.test(text) && !isHex) return { kind: 'float', value: Number(text), text, type };
    return { kind: 'int', value: text.startsWith('-') ? -BigInt(text.slice(1)) : BigInt(text), type };
  }

  attrDict(): Map<string, Attr> {
    this.expect('{');
    const out = new Map<string, Attr>();
    if (this.eat('}')) return out;
    do {
      const name = this.peek() === '"' ? this.string() : this.ident() ?? this.fail('an attribute name');
      out.set(name, this.eat('=') ? this.attr() : { kind: 'unit' });
    } while (this.eat(','));
    this.expect('}');
    return out;
  }

  private attrOrLoc(): Attr | Loc {
    if (this.startsWith('loc(')) return this.trailingLoc();
    return this.attr();
  }

  // -------------------------------------------------------------------------------------------
  // Locations

  /** `loc(…)`. */
  trailingLoc(): Loc {
    this.expect('loc');
    this.expect('(');
    const l = this.location();
    this.expect(')');
    return l;
  }

  private location(): Loc {
    this.enter();
    try {
      return this.location1();
    } finally {
      this.leave();
    }
  }

  private location1(): Loc {
    const c = this.peek();
    if (c === '#') {
      const name = this.sigilName('#') ?? this.fail('a location');
      const v = this.aliasValue(name, () => this.attrOrLoc(), this.attrAliases);
      if (isAttr(v)) this.fail(`${name} to be a location`);
      return v;
    }
    if (c === '"') {
      const s = this.string();
      if (this.startsWith(':')) {
        this.i++;
        const line = this.integer() ?? this.fail('a line number');
        this.expect(':');
        const col = this.integer() ?? this.fail('a column number');
        return { kind: 'file', file: s, line: Number(line), col: Number(col) };
      }
      if (this.eat('(')) {
        const child = this.location();
        this.expect(')');
        return { kind: 'name', name: s, child };
      }
      return { kind: 'name', name: s, child: null };
    }
    const id = this.ident();
    if (id === 'unknown') return { kind: 'unknown' };
    if (id === 'callsite') {
      this.expect('(');
      const callee = this.location();
      if (this.ident() !== 'at') this.fail("'at'");
      const caller = this.location();
      this.expect(')');
      return { kind: 'callsite', callee, caller };
    }
    if (id === 'fused') {
      let metadata: string | null = null;
      if (this.eat('<')) metadata = this.balanced('<', '>');
      this.expect('[');
      const locs: Loc[] = [];
      if (!this.eat(']')) {
        do locs.push(this.location());
        while (this.eat(','));
        this.expect(']');
      }
      return { kind: 'fused', locs, metadata };
    }
    return this.fail('a location');
  }

  // -------------------------------------------------------------------------------------------
  // Operations

  op(): Op {
    this.enter();
    try {
      return this.op1();
    } finally {
      this.leave();
    }
  }

  private op1(): Op {
    this.ws();
    const pos = this.pos();
    const results: string[] = [];
    if (this.peek() === '%') {
      do {
        const r = this.sigilName('%') ?? this.fail('a result name');
        if (this.eat(':')) {
          const n = Number(this.integer() ?? this.fail('a result count'));
          for (let k = 0; k < n; k++) results.push(`${r}#${k}`);
        } else results.push(r);
      } while (this.eat(','));
      this.expect('=');
    }
    if (this.peek() !== '"') this.fail('an operation in generic form ("dialect.op"(…)); give mlir-opt --mlir-print-op-generic output');
    const name = this.string();
    this.expect('(');
    const operands: string[] = [];
    if (!this.eat(')')) {
      do operands.push(this.valueUse());
      while (this.eat(','));
      this.expect(')');
    }
    const successors: string[] = [];
    if (this.eat('[')) {
      do successors.push(this.sigilName('^') ?? this.fail('a successor block'));
      while (this.eat(','));
      this.expect(']');
    }
    let attrs = new Map<string, Attr>();
    if (this.startsWith('<{')) {
      this.i++;
      attrs = this.attrDict();
      this.expect('>');
    }
    const regions: Region[] = [];
    if (this.peek() === '(') {
      this.i++;
      do regions.push(this.region());
      while (this.eat(','));
      this.expect(')');
    }
    if (this.peek() === '{') for (const [k, v] of this.attrDict()) attrs.set(k, v);
    this.expect(':');
    const ft = this.type();
    if (ft.kind !== 'function') this.fail('a function type (operands) -> results');
    const loc = this.startsWith('loc(') ? this.trailingLoc() : { kind: 'unknown' as const };
    if (ft.inputs.length !== operands.length) throw new MlirSyntaxError(pos, `${operands.length} operand type(s)`, `${ft.inputs.length}`);
    if (ft.results.length !== results.length) throw new MlirSyntaxError(pos, `${results.length} result type(s)`, `${ft.results.length}`);
    return { name, results, operands, successors, regions, attrs, operandTypes: ft.inputs, resultTypes: ft.results, loc, pos };
  }

  private valueUse(): string {
    const v = this.sigilName('%') ?? this.fail('an operand (%name)');
    if (this.s[this.i] === '#') {
      this.i++;
      const k = this.integer() ?? this.fail('a result number');
      return `${v}#${k}`;
    }
    return v;
  }

  private region(): Region {
    this.expect('{');
    const blocks: Block[] = [];
    let label: string | null = null;
    let args: BlockArg[] = [];
    let ops: Op[] = [];
    let started = false;
    const flush = (): void => {
      if (started) blocks.push({ label, args, ops });
    };
    for (;;) {
      const c = this.peek();
      if (c === '}') {
        this.i++;
        flush();
        return { blocks };
      }
      if (c === '^') {
        flush();
        started = true;
        label = this.sigilName('^') ?? this.fail('a block label');
        args = [];
        ops = [];
        if (this.eat('(')) {
          do {
            const name = this.sigilName('%') ?? this.fail('a block argument');
            this.expect(':');
            const type = this.type();
            const loc = this.startsWith('loc(') ? this.trailingLoc() : { kind: 'unknown' as const };
            args.push({ name, type, loc });
          } while (this.eat(','));
          this.expect(')');
        }
        this.expect(':');
        continue;
      }
      if (c === '') this.fail("'}' closing the region");
      started = true;
      ops.push(this.op());
    }
  }

  module(): Module {
    this.skipAliasesAndResources();
    const op = this.op();
    this.skipAliasesAndResources();
    if (!this.atEnd()) this.fail('the end of the module');
    return { op };
  }

  /** Alias definitions (read on demand) and `{-# … #-}` resources between top-level items. */
  private skipAliasesAndResources(): void {
    for (;;) {
      this.ws();
      const c = this.s[this.i];
      if ((c === '#' || c === '!') && /^[#!][A-Za-z_][\w.$-]*[ \t]*=/.test(this.s.slice(this.i, this.i + 256))) {
        // Read on demand from its recorded offset (it may name aliases defined later); here the
        // value is only parsed to be skipped.
        this.sigilName(c);
        this.expect('=');
        if (c === '!') this.type();
        else this.attrOrLoc();
        continue;
      }
      if (this.s.startsWith('{-#', this.i)) {
        const end = this.s.indexOf('#-}', this.i);
        if (end < 0) this.fail("'#-}'");
        this.i = end + 3;
        continue;
      }
      return;
    }
  }
}

function isAttr(v: Attr | Loc): v is Attr {
  return !['file', 'name', 'callsite', 'fused', 'unknown'].includes(v.kind);
}

/** The value of a float given by its bit pattern (`0x7FC00000 : f32`). */
function floatFromBits(bits: bigint, width: number): number {
  if (width === 32) {
    const b = new DataView(new ArrayBuffer(4));
    b.setUint32(0, Number(BigInt.asUintN(32, bits)));
    return b.getFloat32(0);
  }
  if (width === 64) {
    const b = new DataView(new ArrayBuffer(8));
    b.setBigUint64(0, BigInt.asUintN(64, bits));
    return b.getFloat64(0);
  }
  return Number.NaN;
}

/** Parse a module printed in generic form. */
export function parseGeneric(text: string): Module {
  return new Reader(text).module();
}
