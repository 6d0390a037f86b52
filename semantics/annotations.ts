// Annotations checked on a concrete run: every U-ASSIGN of a big-step derivation wrote the value
// its prophetic annotation denotes in the spec's model at that instance (the hypothesis of thesis
// Thm 5.3.1). A run whose outputs are right but where this fails is an `annotation-mismatch`: the
// program is right on that input, the proof it carries is not.

import type { Assign, Cmd } from '../core/ast.ts';
import type { CheckedImpl } from '../core/typecheck.ts';
import type { DerivationNode } from './derivation.ts';
import type { SpecModel } from './model.ts';
import { valueToJson } from './values.ts';

export interface AnnotationMismatch {
  readonly line: number;
  readonly col: number;
  /** `c[1, 2]`. */
  readonly location: string;
  /** What was written and what the annotation gives, as JSON texts. */
  readonly written: string;
  readonly annotated: string;
  /** The loop and let variables of the instance, `i = 1, k = 0`. */
  readonly at: string;
}

function annotatedAssignments(c: Cmd, out = new Map<string, Assign>()): Map<string, Assign> {
  switch (c.kind) {
    case 'assign':
      // An accumulation writes a partial result; its annotation names the whole reduction.
      if (c.annot && !c.accum) out.set(`${c.pos.line}:${c.pos.col}`, c);
      break;
    case 'seq':
      for (const x of c.cmds) annotatedAssignments(x, out);
      break;
    case 'if':
      annotatedAssignments(c.then, out);
      if (c.else) annotatedAssignments(c.else, out);
      break;
    case 'let':
    case 'allocate':
    case 'for':
    case 'par':
      annotatedAssignments(c.body, out);
      break;
    case 'skip':
      break;
  }
  return out;
}

/** The first assignment (in derivation order) whose written value differs from its annotation. */
export function annotationMismatch(ci: CheckedImpl, root: DerivationNode, model: SpecModel): AnnotationMismatch | null {
  const annotated = annotatedAssignments(ci.impl.body);
  const params = new Set(ci.spec.params);
  const compiled = new Map<string, ReturnType<SpecModel['compileProphetic']>>();
  // Iteratively, in order: derivations of long loops are deep.
  const stack: DerivationNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    for (let k = n.premises.length - 1; k >= 0; k--) stack.push(n.premises[k]!);
    if (n.rule !== 'U-ASSIGN') continue;
    const site = `${n.line}:${n.col}`;
    const a = annotated.get(site);
    if (!a) continue;
    const vars = Object.keys(n.env).filter((v) => !params.has(v));
    const key = `${site}|${vars.join(',')}`;
    let pe = compiled.get(key);
    if (pe === undefined) {
      pe = model.compileProphetic(a.annot!, vars);
      compiled.set(key, pe);
    }
    for (const [k, v] of vars.entries()) {
      const x = n.env[v];
      pe.frame[pe.slots[k]!] = typeof x === 'string' ? BigInt(x) : (x as number);
    }
    const annotatedValue = JSON.stringify(valueToJson(pe.fn(pe.frame)));
    const written = JSON.stringify(n.facts['value']);
    if (annotatedValue !== written) {
      return { line: n.line, col: n.col, location: String(n.facts['location']), written, annotated: annotatedValue, at: vars.map((v) => `${v} = ${n.env[v]}`).join(', ') };
    }
  }
  return null;
}
