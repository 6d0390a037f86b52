// A parser for the isl-like syntax of print.ts, for fixtures and tests:
//   [N] -> { a[i] -> A[i + 2] : 0 <= i < N; b[i, j] : exists k : i = 2k + j }
// Also accepts the thesis's notation (a⟨i⟩ → A⟨i⟩, ≤ ≥ ≠ ∧ ∨ ¬ ∃ ∀). A tuple element that is a
// new identifier is a tuple variable; any other element is an expression (an inline equality).
// Names that are not identifiers (expression contexts) are written as JSON strings: "A(□)"[i].

import type { Formula, PRel, PSet, RelPiece, SetPiece, Term, Tuple } from './types.ts';
import {
  FALSE, TRUE, and, andAll, eqT, exists, forall, geT, gtT, implies, leT, ltT, neT, not, or,
} from './formula.ts';
import {
  add, ceilT, constant, floorT, isConst, maxT, minT, modT, neg, scale, selectT, sub, variable,
} from './term.ts';
import { fresh } from './names.ts';

export class ParseError extends Error {
  constructor(message: string, readonly offset: number) {
    super(`${message} at offset ${offset}`);
  }
}

interface Tok { readonly kind: 'num' | 'id' | 'str' | 'op' | 'eof'; readonly text: string; readonly start: number; readonly end: number }

const OPS = ['->', '<=', '>=', '!=', '==', '&&', '||', '=>', '→', '↦', '≤', '≥', '≠', '∧', '∨', '¬', '∃', '∀', '⟨', '⟩',
  '[', ']', '{', '}', '(', ')', ',', ';', ':', '+', '-', '*', '/', '=', '<', '>', '!', '%', '.', '|', '−'];

const KEYWORDS = new Set(['and', 'or', 'not', 'exists', 'forall', 'mod', 'floor', 'ceil', 'min', 'max', 'select', 'true', 'false', 'implies']);

function lex(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (/\s/.test(ch)) { i++; continue; }
    if (/[0-9]/.test(ch)) {
      let j = i;
      while (j < src.length && /[0-9]/.test(src[j]!)) j++;
      out.push({ kind: 'num', text: src.slice(i, j), start: i, end: j });
      i = j;
      continue;
    }
    if (/[A-Za-z_]/.test(ch)) {
      let j = i;
      while (j < src.length && /[A-Za-z0-9_']/.test(src[j]!)) j++;
      out.push({ kind: 'id', text: src.slice(i, j), start: i, end: j });
      i = j;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      while (j < src.length && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
      if (j >= src.length) throw new ParseError('unterminated string', i);
      out.push({ kind: 'str', text: JSON.parse(src.slice(i, j + 1)) as string, start: i, end: j + 1 });
      i = j + 1;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new ParseError(`unexpected character '${ch}'`, i);
    out.push({ kind: 'op', text: op === '−' ? '-' : op, start: i, end: i + op.length });
    i += op.length;
  }
  out.push({ kind: 'eof', text: '', start: src.length, end: src.length });
  return out;
}

type Parsed =
  | { readonly kind: 'set'; readonly pieces: SetPiece[] }
  | { readonly kind: 'rel'; readonly pieces: RelPiece[] }
  | { readonly kind: 'unit'; readonly formula: Formula };

class Parser {
  private pos = 0;
  private readonly scopes: Map<string, string>[] = [];
  private params = new Set<string>();
  private extra: Formula[] = [];
  constructor(private readonly toks: Tok[]) {}

  private peek(k = 0): Tok { return this.toks[Math.min(this.pos + k, this.toks.length - 1)]!; }
  private next(): Tok { const t = this.peek(); this.pos++; return t; }
  private isOp(...ops: string[]): boolean { const t = this.peek(); return t.kind === 'op' && ops.includes(t.text); }
  private isKw(...kw: string[]): boolean { const t = this.peek(); return t.kind === 'id' && kw.includes(t.text); }
  private fail(msg: string): never { throw new ParseError(`${msg}, found '${this.peek().text || 'end of input'}'`, this.peek().start); }
  private expectOp(...ops: string[]): Tok {
    if (!this.isOp(...ops)) this.fail(`expected ${ops.map((o) => `'${o}'`).join(' or ')}`);
    return this.next();
  }
  private expectEnd(): void { if (this.peek().kind !== 'eof') this.fail('expected end of input'); }

  private lookup(name: string): string {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const v = this.scopes[i]!.get(name);
      if (v) return v;
    }
    return name;
  }

  parseTop(): Parsed {
    if (this.isOp('[') && this.looksLikeParams()) {
      this.next();
      if (!this.isOp(']')) {
        do {
          const t = this.next();
          if (t.kind !== 'id' || KEYWORDS.has(t.text)) this.fail('expected a parameter name');
          this.params.add(t.text);
        } while (this.isOp(',') && this.next());
      }
      this.expectOp(']');
      this.expectOp('->', '→');
    }
    this.expectOp('{');
    const sets: SetPiece[] = [];
    const rels: RelPiece[] = [];
    let unit: Formula | null = null;
    while (!this.isOp('}')) {
      if (this.isOp(':', '|')) {
        this.next();
        const f = this.formula();
        unit = unit ? or(unit, f) : f;
      } else {
        const scope = new Map<string, string>();
        this.scopes.push(scope);
        this.extra = [];
        const t1 = this.tuple(scope);
        let t2: Tuple | null = null;
        if (this.isOp('->', '→', '↦')) {
          this.next();
          t2 = this.tuple(scope);
        }
        let g: Formula = TRUE;
        if (this.isOp(':', '|')) {
          this.next();
          g = this.formula();
        }
        const guard = andAll([...this.extra, g]);
        this.scopes.pop();
        if (t2) rels.push({ dom: t1, ran: t2, guard });
        else sets.push({ tuple: t1, guard });
      }
      if (!this.isOp(';', ',')) break;
      this.next();
    }
    this.expectOp('}');
    this.expectEnd();
    if ((sets.length > 0 ? 1 : 0) + (rels.length > 0 ? 1 : 0) + (unit ? 1 : 0) > 1) throw new ParseError('mixed sets, relations and unit sets', 0);
    if (unit) return { kind: 'unit', formula: unit };
    if (rels.length > 0) return { kind: 'rel', pieces: rels };
    return { kind: 'set', pieces: sets };
  }

  /** `[N, M] ->` rather than an anonymous tuple. */
  private looksLikeParams(): boolean {
    let k = 1;
    for (;;) {
      const t = this.peek(k);
      if (t.kind === 'op' && t.text === ']') return this.peek(k + 1).kind === 'op' && ['->', '→'].includes(this.peek(k + 1).text) && this.peek(k + 2).text === '{';
      if (t.kind === 'eof') return false;
      k++;
    }
  }

  private isTupleStart(): boolean {
    const t = this.peek();
    if (t.kind === 'op' && (t.text === '[' || t.text === '⟨')) return true;
    if ((t.kind === 'id' && !KEYWORDS.has(t.text)) || t.kind === 'str') {
      const n = this.peek(1);
      return n.kind === 'op' && (n.text === '[' || n.text === '⟨');
    }
    return false;
  }

  private tuple(scope: Map<string, string>): Tuple {
    let name = '';
    const t = this.peek();
    if (t.kind === 'id' || t.kind === 'str') {
      name = t.text;
      this.next();
    }
    const open = this.expectOp('[', '⟨');
    const close = open.text === '[' ? ']' : '⟩';
    if (this.isTupleStart()) {
      const left = this.tuple(scope);
      this.expectOp('->', '→', ',');
      const right = this.tuple(scope);
      this.expectOp(close);
      return { kind: 'pair', name, left, right };
    }
    const vars: string[] = [];
    if (!this.isOp(close)) {
      do {
        const e = this.peek();
        const after = this.peek(1);
        const single = e.kind === 'id' && !KEYWORDS.has(e.text) && after.kind === 'op' && (after.text === ',' || after.text === close);
        if (single && !this.params.has(e.text) && !scope.has(e.text)) {
          this.next();
          const v = fresh(e.text);
          scope.set(e.text, v);
          vars.push(v);
        } else {
          const term = this.expr();
          const v = fresh(e.kind === 'id' && !KEYWORDS.has(e.text) ? e.text : 'i');
          this.extra.push(eqT(variable(v), term));
          vars.push(v);
        }
      } while (this.isOp(',') && this.next());
    }
    this.expectOp(close);
    return { kind: 'flat', name, vars };
  }

  formula(): Formula {
    const a = this.disj();
    if (this.isKw('implies') || this.isOp('=>')) {
      this.next();
      return implies(a, this.formula());
    }
    return a;
  }

  private disj(): Formula {
    let f = this.conj();
    while (this.isKw('or') || this.isOp('||', '∨')) {
      this.next();
      f = or(f, this.conj());
    }
    return f;
  }

  private conj(): Formula {
    let f = this.unary();
    while (this.isKw('and') || this.isOp('&&', '∧')) {
      this.next();
      f = and(f, this.unary());
    }
    return f;
  }

  private unary(): Formula {
    if (this.isKw('not') || this.isOp('!', '¬')) {
      this.next();
      return not(this.unary());
    }
    if (this.isKw('exists', 'forall') || this.isOp('∃', '∀')) {
      const q = this.next().text;
      const isEx = q === 'exists' || q === '∃';
      const paren = this.isOp('(');
      if (paren) this.next();
      const scope = new Map<string, string>();
      const vars: string[] = [];
      do {
        const t = this.next();
        if (t.kind !== 'id' || KEYWORDS.has(t.text)) this.fail('expected a variable name');
        const v = fresh(t.text);
        scope.set(t.text, v);
        vars.push(v);
      } while (this.isOp(',') && this.next());
      this.expectOp(':', '.');
      this.scopes.push(scope);
      const body = this.formula();
      this.scopes.pop();
      if (paren) this.expectOp(')');
      return isEx ? exists(vars, body) : forall(vars, body);
    }
    return this.atom();
  }

  private atom(): Formula {
    if (this.isKw('true')) { this.next(); return TRUE; }
    if (this.isKw('false')) { this.next(); return FALSE; }
    if (this.isOp('(')) {
      const save = this.pos;
      try {
        this.next();
        const f = this.formula();
        this.expectOp(')');
        const n = this.peek();
        const arith = (n.kind === 'op' && ['+', '-', '*', '%', '=', '!=', '==', '<', '<=', '>', '>=', '≤', '≥', '≠'].includes(n.text)) || (n.kind === 'id' && n.text === 'mod');
        if (!arith) return f;
      } catch (e) {
        if (!(e instanceof ParseError)) throw e;
      }
      this.pos = save;
    }
    let lhs = this.expr();
    const lits: Formula[] = [];
    while (this.isOp('=', '==', '!=', '≠', '<', '<=', '≤', '>', '>=', '≥')) {
      const op = this.next().text;
      const rhs = this.expr();
      switch (op) {
        case '=': case '==': lits.push(eqT(lhs, rhs)); break;
        case '!=': case '≠': lits.push(neT(lhs, rhs)); break;
        case '<': lits.push(ltT(lhs, rhs)); break;
        case '<=': case '≤': lits.push(leT(lhs, rhs)); break;
        case '>': lits.push(gtT(lhs, rhs)); break;
        default: lits.push(geT(lhs, rhs)); break;
      }
      lhs = rhs;
    }
    if (lits.length === 0) this.fail('expected a comparison');
    return andAll(lits);
  }

  expr(): Term {
    // A leading minus applies to the whole product (−7 mod 2 = −(7 mod 2)).
    let t: Term;
    if (this.isOp('-')) {
      this.next();
      t = neg(this.mul());
    } else t = this.mul();
    while (this.isOp('+', '-')) {
      const op = this.next().text;
      const u = this.mul();
      t = op === '+' ? add(t, u) : sub(t, u);
    }
    return t;
  }

  private constOf(): bigint {
    const neg1 = this.isOp('-');
    if (neg1) this.next();
    const t = this.next();
    if (t.kind !== 'num') throw new ParseError('expected an integer constant', t.start);
    return neg1 ? -BigInt(t.text) : BigInt(t.text);
  }

  private mul(): Term {
    let t = this.factor();
    for (;;) {
      if (this.isOp('*')) {
        this.next();
        const u = this.factor();
        if (isConst(t)) t = scale(u, t.c);
        else if (isConst(u)) t = scale(t, u.c);
        else this.fail('non-linear product');
      } else if (this.isKw('mod') || this.isOp('%')) {
        this.next();
        const m = this.constOf();
        if (m <= 0n) this.fail('modulus must be positive');
        t = modT(t, m);
      } else return t;
    }
  }

  private factor(): Term {
    if (this.isOp('-')) { this.next(); return neg(this.factor()); }
    if (this.isOp('+')) { this.next(); return this.factor(); }
    const t = this.peek();
    if (t.kind === 'num') {
      this.next();
      const n = this.peek();
      if (n.kind === 'id' && n.start === t.end && !KEYWORDS.has(n.text)) {
        this.next();
        return scale(variable(this.lookup(n.text)), BigInt(t.text));
      }
      return constant(BigInt(t.text));
    }
    if (t.kind === 'id') {
      this.next();
      switch (t.text) {
        case 'floor': case 'ceil': {
          this.expectOp('(');
          const e = this.expr();
          this.expectOp('/');
          const d = this.constOf();
          this.expectOp(')');
          if (d <= 0n) this.fail('divisor must be positive');
          return t.text === 'floor' ? floorT(e, d) : ceilT(e, d);
        }
        case 'min': case 'max': {
          this.expectOp('(');
          const args = [this.expr()];
          while (this.isOp(',')) { this.next(); args.push(this.expr()); }
          this.expectOp(')');
          return t.text === 'min' ? minT(...args) : maxT(...args);
        }
        case 'select': {
          this.expectOp('(');
          const c = this.formula();
          this.expectOp(',');
          const a = this.expr();
          this.expectOp(',');
          const b = this.expr();
          this.expectOp(')');
          return selectT(c, a, b);
        }
        default:
          if (KEYWORDS.has(t.text)) throw new ParseError(`unexpected keyword '${t.text}'`, t.start);
          return variable(this.lookup(t.text));
      }
    }
    if (this.isOp('(')) {
      this.next();
      const e = this.expr();
      this.expectOp(')');
      return e;
    }
    return this.fail('expected an expression');
  }

  formulaTop(): Formula { const f = this.formula(); this.expectEnd(); return f; }
  termTop(): Term { const t = this.expr(); this.expectEnd(); return t; }
}

export function parseObject(src: string): Parsed {
  return new Parser(lex(src)).parseTop();
}

/** A set in isl-like syntax (pieces are not yet simplified: see `set` in index.ts). */
export function parseSetRaw(src: string): PSet {
  const p = parseObject(src);
  if (p.kind === 'rel') throw new ParseError('expected a set, found a relation', 0);
  if (p.kind === 'unit') throw new ParseError('expected a set, found a unit set', 0);
  return { kind: 'set', pieces: p.pieces };
}

export function parseRelRaw(src: string): PRel {
  const p = parseObject(src);
  if (p.kind === 'set' && p.pieces.length > 0) throw new ParseError('expected a relation, found a set', 0);
  if (p.kind === 'unit') throw new ParseError('expected a relation, found a unit set', 0);
  return { kind: 'rel', pieces: p.kind === 'rel' ? p.pieces : [] };
}

/** A formula over free variables, e.g. `0 <= i < N and i mod 4 = 1`; also `{ : φ }`. */
export function parseFormula(src: string): Formula {
  const s = src.trim();
  if (s.startsWith('{') || s.startsWith('[')) {
    const p = parseObject(s);
    if (p.kind !== 'unit') throw new ParseError('expected a unit set { : φ }', 0);
    return p.formula;
  }
  return new Parser(lex(src)).formulaTop();
}

export function parseTerm(src: string): Term {
  return new Parser(lex(src)).termTop();
}
