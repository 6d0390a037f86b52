// Annotations checked on a concrete run: every U-ASSIGN of a big-step derivation wrote the value
// its prophetic annotation denotes in the spec's model at that instance (the hypothesis of thesis
// Thm 5.3.1). A run whose outputs are right but where this fails is an `annotation-mismatch`: the
// program is right on that input, the proof it carries is not.

import type { Assign, Cmd } from '../core/language/ast.ts';
import type { CheckedImpl } from '../core/language/typecheck.ts';
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

/**
 * A checker fed U-ASSIGN nodes in derivation order (from a tree, or one by one as a run makes them:
 * `runImpl`'s `checkAnnotations`); `first` is the first whose written value differs from its
 * annotation.
 */
export class AnnotationChecker {
  first: AnnotationMismatch | null = null;
  private readonly annotated: Map<string, Assign>;
  private readonly params: Set<string>;
  private readonly compiled = new Map<string, ReturnType<SpecModel['compileProphetic']>>();

  constructor(
    ci: CheckedImpl,
    private readonly model: SpecModel,
  ) {
    this.annotated = annotatedAssignments(ci.impl.body);
    this.params = new Set(ci.spec.params);
  }

  readonly visit = (n: DerivationNode): void => {
    if (this.first !== null || n.rule !== 'U-ASSIGN') return;
    const site = `${n.line}:${n.col}`;
    const a = this.annotated.get(site);
    if (!a) return;
    const vars = Object.keys(n.env).filter((v) => !this.params.has(v));
    const key = `${site}|${vars.join(',')}`;
    let pe = this.compiled.get(key);
    if (pe === undefined) {
      pe = this.model.compileProphetic(a.annot!, vars);
      this.compiled.set(key, pe);
    }
    for (const [k, v] of vars.entries()) {
      const x = n.env[v];
      pe.frame[pe.slots[k]!] = typeof x === 'string' ? BigInt(x) : (x as number);
    }
    const annotatedValue = JSON.stringify(valueToJson(pe.fn(pe.frame)));
    const written = JSON.stringify(n.facts['value']);
    if (annotatedValue !== written) {
      this.first = { line: n.line, col: n.col, location: String(n.facts['location']), written, annotated: annotatedValue, at: vars.map((v) => `${v} = ${n.env[v]}`).join(', ') };
    }
  };
}

/** The first assignment (in derivation order) whose written value differs from its annotation. */
export function annotationMismatch(ci: CheckedImpl, root: DerivationNode, model: SpecModel): AnnotationMismatch | null {
  const checker = new AnnotationChecker(ci, model);
  // Iteratively, in order: derivations of long loops are deep.
  const stack: DerivationNode[] = [root];
  while (stack.length > 0 && checker.first === null) {
    const n = stack.pop()!;
    for (let k = n.premises.length - 1; k >= 0; k--) stack.push(n.premises[k]!);
    checker.visit(n);
  }
  return checker.first;
}
