// Input errors: every parse, type or well-formedness error is one of these, located at
// `file:line:col`, saying what was expected and what was found (exit code 3).

import type { Pos } from './ast.ts';

export type DiagnosticPhase = 'syntax' | 'type' | 'scope' | 'spec' | 'io';

export interface Diagnostic {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly phase: DiagnosticPhase;
  readonly message: string;
  readonly expected: string | null;
  readonly found: string | null;
}

export class SchedInputError extends Error {
  constructor(readonly diagnostics: readonly Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join('\n'));
    this.name = 'SchedInputError';
  }
}

export function diag(
  file: string,
  pos: Pos,
  phase: DiagnosticPhase,
  message: string,
  expected: string | null = null,
  found: string | null = null,
): Diagnostic {
  return { file, line: pos.line, col: pos.col, phase, message, expected, found };
}

export function formatDiagnostic(d: Diagnostic): string {
  let s = `${d.file}:${d.line}:${d.col}: error: ${d.message}`;
  if (d.expected !== null || d.found !== null) {
    const parts: string[] = [];
    if (d.expected !== null) parts.push(`expected ${d.expected}`);
    if (d.found !== null) parts.push(`found ${d.found}`);
    s += ` (${parts.join(', ')})`;
  }
  return s;
}
