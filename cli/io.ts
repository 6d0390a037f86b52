// Reading inputs for commands: a file that cannot be read is an input error with a location.

import { readFileSync } from 'node:fs';
import type { Program } from '../core/ast.ts';
import { diag, SchedInputError } from '../core/diagnostics.ts';
import { parseProgram } from '../core/parser.ts';

export function readSource(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    const what = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory' : code;
    throw new SchedInputError([diag(file, { line: 1, col: 1 }, 'io', 'cannot read file', 'a readable .sched file', what)]);
  }
}

export function loadProgram(file: string): Program {
  return parseProgram(file, readSource(file));
}

/** Print JSON with bigints as numbers when safe, else as strings. */
export function toJson(x: unknown): string {
  return JSON.stringify(
    x,
    (_k, v: unknown) => (typeof v === 'bigint' ? (v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString()) : v),
    2,
  );
}
