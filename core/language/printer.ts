// The printer: `parseProgram(print(ast))` equals `ast` up to positions (test/printer property).
// Parentheses are added exactly where precedence requires them; blocks get braces where a
// sequence or a dangling `else` would otherwise be read differently.

import type { ArrayDecl, Cmd, Equation, Expr, Impl, Program, Spec, TensorDecl } from './ast.ts';
import { isHiddenTensor, operatorOf } from './reductions.ts';

const PREC_LET = 0;
const PREC_OR = 1;
const PREC_AND = 2;
const PREC_CMP = 3;
const PREC_ADD = 4;
const PREC_MUL = 5;
const PREC_UNARY = 6;
const PREC_ATOM = 7;

function binPrec(op: string): number {
  switch (op) {
    case '||':
      return PREC_OR;
    case '&&':
      return PREC_AND;
    case '+':
    case '-':
      return PREC_ADD;
    case '*':
    case '/':
    case '%':
      return PREC_MUL;
    default:
      return PREC_CMP;
  }
}

export function floatText(v: number): string {
  if (Object.is(v, -0)) return '-0.0';
  const s = String(v);
  return /[.eE]/.test(s) ? s : `${s}.0`;
}

function exprPrec(e: Expr): number {
  switch (e.kind) {
    case 'let':
      return PREC_LET;
    case 'binary':
      return binPrec(e.op);
    case 'unary':
      return PREC_UNARY;
    default:
      return PREC_ATOM;
  }
}

/** Print `e` so that it parses back at a position requiring precedence at least `min`. */
function pe(e: Expr, min: number): string {
  const s = printExprRaw(e);
  return exprPrec(e) < min ? `(${s})` : s;
}

function list(es: readonly Expr[]): string {
  return es.map((x) => printExpr(x)).join(', ');
}

function printExprRaw(e: Expr): string {
  switch (e.kind) {
    case 'int':
      return e.value.toString();
    case 'float':
      return e.f32 !== undefined ? e.f32.text : floatText(e.value);
    case 'bool':
      return e.value ? 'true' : 'false';
    case 'var':
      return e.name;
    case 'array':
      return `${e.name}[${list(e.indices)}]`;
    case 'tensor':
      return `${e.name}(${list(e.indices)})`;
    case 'call':
      return `${e.fn}(${list(e.args)})`;
    case 'select':
      return `select(${printExpr(e.cond)}, ${printExpr(e.then)}, ${printExpr(e.else)})`;
    case 'let':
      return `let ${e.name} = ${printExpr(e.value)} in ${printExpr(e.body)}`;
    case 'unary': {
      // A literal right after unary minus would be read as a negative literal: parenthesise it.
      const a = e.arg;
      if (e.op === '-' && (a.kind === 'int' || a.kind === 'float')) return `-(${printExprRaw(a)})`;
      const s = pe(a, PREC_UNARY);
      return `${e.op}${s.startsWith('-') ? ' ' : ''}${s}`;
    }
    case 'binary': {
      const p = binPrec(e.op);
      // Comparisons do not associate (a chain means a conjunction); the others associate left.
      const lmin = p === PREC_CMP ? p + 1 : p;
      return `${pe(e.left, lmin)} ${e.op} ${pe(e.right, p + 1)}`;
    }
  }
}

export function printExpr(e: Expr): string {
  return printExprRaw(e);
}

// -- commands --------------------------------------------------------------------------------

function ind(n: number): string {
  return '  '.repeat(n);
}

/** A command in a position that takes exactly one command (loop body, branch, …), with the
 *  separator that goes before it (a space, or a newline and deeper indentation). */
function single(c: Cmd, depth: number, forceBraces = false): string {
  if (c.kind === 'seq' || forceBraces) {
    const inner = c.kind === 'seq' ? c.cmds.map((x) => printSeqItem(x, depth + 1)).join(';\n') : printCmd(c, depth + 1);
    return ` {\n${inner}\n${ind(depth)}}`;
  }
  return isInline(c) ? ` ${printCmd(c, 0)}` : `\n${printCmd(c, depth + 1)}`;
}

function isInline(c: Cmd): boolean {
  return c.kind === 'assign' || c.kind === 'skip';
}

/** An element of a sequence: a nested sequence keeps its braces. */
function printSeqItem(c: Cmd, depth: number): string {
  return c.kind === 'seq' ? `${ind(depth)}${single(c, depth).trimStart()}` : printCmd(c, depth);
}

/** Print a command at indentation `depth` (the result starts with that indentation). */
export function printCmd(c: Cmd, depth = 0): string {
  const pad = ind(depth);
  switch (c.kind) {
    case 'skip':
      return `${pad}skip`;
    case 'seq':
      return c.cmds.map((x) => printSeqItem(x, depth)).join(';\n');
    case 'assign': {
      if (c.accum) {
        const a = c.accum;
        const at = a.at === null ? '' : `@(${list(a.at)})`;
        const annot = c.annot === null ? '' : ` {${a.partial ? 'partial ' : ''}${printExpr(c.annot)}${at}}`;
        return `${pad}${c.array}[${list(c.indices)}]${annot} ${operatorOf(a.op).assign} ${printExpr(a.elem)}`;
      }
      const annot = c.annot === null ? '' : ` {${printExpr(c.annot)}}`;
      return `${pad}${c.array}[${list(c.indices)}]${annot} := ${printExpr(c.rhs)}`;
    }
    case 'if': {
      // With an else, brace a compound then-branch: an inner else-less `if` would steal the else.
      const thenBraced = c.then.kind === 'seq' || (c.else !== null && !isInline(c.then));
      let s = `${pad}if ${printExpr(c.cond)} then${single(c.then, depth, thenBraced)}`;
      if (c.else !== null) {
        s += thenBraced ? ' else ' : `\n${pad}else `;
        s += c.else.kind === 'if' ? printCmd(c.else, depth).trimStart() : single(c.else, depth).trimStart();
      }
      return s;
    }
    case 'let':
      return `${pad}let ${c.name} = ${printExpr(c.value)} in${single(c.body, depth)}`;
    case 'allocate':
      return `${pad}allocate ${c.name}: ${c.elem}[${list(c.dims)}] in${single(c.body, depth)}`;
    case 'for':
    case 'par':
      return `${pad}${c.kind} ${c.var} < ${printExpr(c.bound)} do${single(c.body, depth)}`;
  }
}

// -- declarations ------------------------------------------------------------------------------

function whereText(w: Expr | null): string {
  return w === null ? '' : ` where ${printExpr(w)}`;
}

/** The right-hand side of an equation as written: a reduction equation prints its reduction. */
function rhsText(s: Spec, e: Equation): string {
  const r = e.rhs.kind === 'tensor' && isHiddenTensor(e.rhs.name) ? s.reductions?.find((x) => x.acc === (e.rhs as { name: string }).name && x.tensor === e.tensor) : undefined;
  if (!r) return printExpr(e.rhs);
  const dims = r.dims.map((d) => `${printExpr(d.lo)} <= ${d.var} < ${printExpr(d.hi)}`).join(', ');
  const red = `${operatorOf(r.op).keyword}{${dims}${r.filter ? ` where ${printExpr(r.filter)}` : ''}}(${printExpr(r.body)})`;
  if (r.init === null) return red;
  if (r.op === 'min' || r.op === 'max') return `${r.op}(${printExpr(r.init)}, ${red})`;
  return `${printExpr(r.init)} ${r.op} ${red}`;
}

function tensorDeclText(s: Spec, t: TensorDecl, inline: Equation | null): string {
  const def = inline === null ? '' : ` = ${rhsText(s, inline)}${whereText(inline.where)}`;
  return `  ${t.role} ${t.name}(${t.vars.join(', ')}): ${t.type}${def};`;
}

export function printSpec(s: Spec): string {
  const lines: string[] = [`spec ${s.name} {`];
  if (s.params.length > 0) lines.push(`  param ${s.params.map((p) => p.name).join(', ')};`);
  for (const a of s.assumes) lines.push(`  assume ${printExpr(a)};`);
  // Merge declarations and equations so that both lists parse back in the same order; an
  // inline equation is printed on its output declaration (the parser makes the k-th inline
  // equation from the k-th output declaration that has one, so they are matched in order).
  let ei = 0;
  const eqs = s.equations;
  const eqText = (e: Equation): string =>
    isHiddenTensor(e.tensor) ? '' : `  ${e.tensor}(${list(e.lhs)}) = ${rhsText(s, e)}${whereText(e.where)};`;
  for (const t of s.tensors) {
    if (isHiddenTensor(t.name)) continue;
    let inlineIdx = -1;
    if (t.role === 'output') {
      for (let k = ei; k < eqs.length; k++) {
        if (eqs[k]!.inline) {
          if (eqs[k]!.tensor === t.name) inlineIdx = k;
          break;
        }
      }
    }
    if (inlineIdx >= 0) {
      while (ei < inlineIdx) lines.push(eqText(eqs[ei++]!));
      lines.push(tensorDeclText(s, t, eqs[inlineIdx]!));
      ei = inlineIdx + 1;
    } else lines.push(tensorDeclText(s, t, null));
  }
  // Equations after the last declaration (an inline equation left over, which no parse
  // produces, is printed as an ordinary equation rather than lost).
  while (ei < eqs.length) lines.push(eqText(eqs[ei++]!));
  lines.push('}');
  return lines.filter((l) => l !== '').join('\n');
}

function arrayDeclText(d: ArrayDecl): string {
  const vars = d.vars === null ? '' : `[${d.vars.join(', ')}]`;
  const value = d.value === null ? '' : ` = ${printExpr(d.value)}`;
  return `  ${d.role} ${d.name}${vars}: ${d.elem}[${list(d.dims)}]${value}${whereText(d.where)};`;
}

export function printImpl(m: Impl): string {
  const lines: string[] = [`impl ${m.name} of ${m.spec} {`];
  for (const a of m.assumes) lines.push(`  assume ${printExpr(a)};`);
  for (const d of m.decls) lines.push(arrayDeclText(d));
  lines.push(printCmd(m.body, 1));
  lines.push('}');
  return lines.join('\n');
}

export function printProgram(p: Program): string {
  return [...p.specs.map(printSpec), ...p.impls.map(printImpl)].join('\n\n') + '\n';
}
