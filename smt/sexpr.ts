// A small SMT-LIB s-expression reader (for Z3's tactic output, models and `get-value` answers).
// Atoms keep their text: numerals, symbols (|quoted| ones with their bars), keywords, "strings".

export type SExpr = string | SExpr[];

export class SExprError extends Error {}

export function parseSExprs(src: string): SExpr[] {
  const out: SExpr[] = [];
  const stack: SExpr[][] = [];
  let i = 0;
  const push = (x: SExpr) => {
    const top = stack[stack.length - 1];
    if (top) top.push(x);
    else out.push(x);
  };
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === ';') { while (i < src.length && src[i] !== '\n') i++; continue; }
    if (/\s/.test(ch)) { i++; continue; }
    if (ch === '(') { stack.push([]); i++; continue; }
    if (ch === ')') {
      const top = stack.pop();
      if (!top) throw new SExprError(`unbalanced ')' at ${i}`);
      push(top);
      i++;
      continue;
    }
    if (ch === '|') {
      const j = src.indexOf('|', i + 1);
      if (j < 0) throw new SExprError('unterminated |symbol|');
      push(src.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      while (j < src.length) {
        if (src[j] === '"') {
          if (src[j + 1] === '"') { j += 2; continue; }
          break;
        }
        j++;
      }
      push(src.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    let j = i;
    while (j < src.length && !/[\s()|";]/.test(src[j]!)) j++;
    push(src.slice(i, j));
    i = j;
  }
  if (stack.length > 0) throw new SExprError('unbalanced (');
  return out;
}

export function printSExpr(e: SExpr): string {
  return typeof e === 'string' ? e : `(${e.map(printSExpr).join(' ')})`;
}
