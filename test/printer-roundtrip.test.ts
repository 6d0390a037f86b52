// The printer round trip: for random well-typed programs (proofs/metatheory/gen/syntax.ts), and for every
// corpus file that parses, `parseProgram(printProgram(ast))` equals `ast` up to positions and
// types, and printing is a fixpoint. The generator is tested too: its programs type-check, and
// its counterexamples shrink to small programs.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Cmd, Program } from '../core/language/ast.ts';
import { SchedInputError } from '../core/language/diagnostics.ts';
import { parseProgram } from '../core/language/parser.ts';
import { printExpr, printProgram } from '../core/language/printer.ts';
import { typecheckProgram } from '../core/language/typecheck.ts';
import { condExprArb, forEachExpr, indexExprArb, programArb, type Scope, stripPositions, valueExprArb } from '../proofs/metatheory/gen/syntax.ts';
import { cases } from './tier.ts';

const RUNS = Number(process.env.SCHED_ROUNDTRIP_RUNS ?? cases(500, 2000));

function roundTrip(p: Program): void {
  const text = printProgram(p);
  const q = parseProgram(p.file, text);
  expect(stripPositions(q)).toEqual(stripPositions(p));
  expect(printProgram(q)).toBe(text);
}

describe('random well-typed programs', () => {
  it(`type-check, with a type on every expression (${RUNS} cases)`, () => {
    fc.assert(
      fc.property(programArb(), (p) => {
        typecheckProgram(p);
        forEachExpr(p, (e) => {
          if (e.ty === undefined) throw new Error(`untyped ${e.kind} expression`);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it(`print and parse back to themselves (${RUNS} cases)`, () => {
    fc.assert(fc.property(programArb(), roundTrip), { numRuns: RUNS });
  });

  it('cover every command and expression form', () => {
    const kinds = new Set<string>();
    const cmd = (c: Cmd, inSeq: boolean): void => {
      kinds.add(c.kind === 'if' ? (c.else ? 'if-else' : 'if') : c.kind === 'assign' ? (c.accum ? 'accumulate' : c.annot ? 'assign-annotated' : 'assign') : c.kind);
      if (c.kind === 'seq') {
        if (inSeq) kinds.add('nested-seq');
        c.cmds.forEach((x) => cmd(x, true));
      } else if (c.kind === 'if') {
        cmd(c.then, false);
        if (c.else) cmd(c.else, false);
      } else if ('body' in c) cmd(c.body, false);
    };
    for (const p of fc.sample(programArb(), { numRuns: 500, seed: 7 })) {
      for (const m of p.impls) cmd(m.body, false);
      forEachExpr(p, (e) => {
        kinds.add(e.kind === 'binary' || e.kind === 'unary' ? `${e.kind} ${e.op}` : e.kind === 'call' ? `call ${e.fn}` : e.kind);
        if ((e.kind === 'int' && e.value < 0n) || (e.kind === 'float' && e.value < 0)) kinds.add(`negative ${e.kind}`);
      });
      for (const s of p.specs) for (const q of s.equations) kinds.add(q.inline ? 'inline equation' : q.where ? 'equation where' : 'equation');
      for (const m of p.impls) for (const d of m.decls) kinds.add(`${d.role}${d.vars === null && d.role !== 'array' ? ' shorthand' : ''}${d.where ? ' where' : ''}`);
    }
    const want = [
      'skip', 'seq', 'nested-seq', 'assign', 'assign-annotated', 'accumulate', 'if', 'if-else', 'let', 'allocate', 'for', 'par',
      'int', 'negative int', 'float', 'negative float', 'bool', 'var', 'array', 'tensor', 'select', 'let',
      ...['+', '-', '*', '/', '%', '==', '!=', '<', '<=', '>', '>=', '&&', '||'].map((o) => `binary ${o}`),
      'unary -', 'unary !',
      ...['min', 'max', 'abs', 'sqrt', 'exp', 'log', 'pow', 'floor', 'ceil'].map((f) => `call ${f}`),
      ...['bool', 'i8', 'i16', 'i32', 'i64', 'u8', 'u16', 'u32', 'u64', 'f32', 'f64'].map((t) => `call ${t}`),
      'inline equation', 'equation', 'equation where', 'input', 'input shorthand', 'output where', 'output shorthand', 'array',
    ];
    expect(want.filter((k) => !kinds.has(k))).toEqual([]);
  });

  it('shrink a counterexample to a small program', () => {
    // A deliberately false property: "no parallel loop allocates an array".
    const allocInPar = (c: Cmd, inPar: boolean): boolean => {
      if (c.kind === 'allocate' && inPar) return true;
      if (c.kind === 'seq') return c.cmds.some((x) => allocInPar(x, inPar));
      if (c.kind === 'if') return allocInPar(c.then, inPar) || (c.else !== null && allocInPar(c.else, inPar));
      if ('body' in c) return allocInPar(c.body, inPar || c.kind === 'par');
      return false;
    };
    const r = fc.check(fc.property(programArb(), (p) => !p.impls.some((m) => allocInPar(m.body, false))), { numRuns: 5000, seed: 2024 });
    expect(r.failed).toBe(true);
    const text = printProgram(r.counterexample![0]);
    // What is left is one spec and one impl whose body is the parallel loop and its allocation.
    expect(text.length).toBeLessThan(200);
    expect(text).toMatch(/par \w+ < [^\n]* do\s*\n\s*allocate \w+: \w+\[[^\]]*\] in/);
  });
});

describe('corpus files', () => {
  const root = join(import.meta.dirname, '..', 'corpus');
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.sched')).sort();
  it.each(files)('%s prints and parses back to itself (when it parses)', (f) => {
    let p: Program;
    try {
      p = parseProgram(f, readFileSync(join(root, f), 'utf8'));
    } catch (e) {
      if (e instanceof SchedInputError) return; // corpus/errors: syntax errors
      throw e;
    }
    roundTrip(p);
  });
});

describe('expression arbitraries', () => {
  it('give index, condition and value expressions of the wanted type in a given scope', () => {
    const prog = parseProgram('t', 'spec s { param N; input A(i): f64; output C(i): f64 = A(i) where 0 <= i && i < N; }\nimpl m of s { input a: f64[N] = A; output c: f64[N] = C; skip }');
    const scope: Scope = { vars: new Map([['N', 'index'], ['i', 'index']]), arrays: [{ name: 'a', elem: 'f64', rank: 1 }], tensors: prog.specs[0]!.tensors, mode: 'semantic' };
    const outside: Scope = { ...scope, vars: new Map([['N', 'index']]) }; // the loop bound
    const arb = fc.tuple(indexExprArb(outside), condExprArb(scope), valueExprArb(scope, 'f64'), valueExprArb({ ...scope, mode: 'prophetic' }, 'f64'));
    fc.assert(
      fc.property(arb, ([ix, cond, val, annot]) => {
        const text = printExpr;
        const impl = `for i < ${text(ix)} do if ${text(cond)} then c[0] {${text(annot)}} := ${text(val)}`;
        const q = parseProgram('t', printProgram(prog).replace(/skip\n}\n$/, `${impl}\n}\n`));
        typecheckProgram(q);
      }),
      { numRuns: 300 },
    );
  });
});
