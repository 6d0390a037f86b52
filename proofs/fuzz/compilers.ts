// Compilers under test: the reference compiler (compilers/reference), with or without an injected bug, and
// external compilers run as commands (the JSON protocol of proofs/fuzz/README.md).

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Expr, Impl } from '../../core/language/ast.ts';
import { SchedInputError } from '../../core/language/diagnostics.ts';
import { parseProgram } from '../../core/language/parser.ts';
import { printProgram, printSpec } from '../../core/language/printer.ts';
import { type Algorithm, checkAlgorithm, LowerError } from '../../compilers/algorithm/algorithm.ts';
import type { BugName } from '../../compilers/reference/bugs.ts';
import { lower } from '../../compilers/reference/lower.ts';
import { algorithmToSpec } from '../../compilers/algorithm/sare.ts';
import type { Schedule } from '../../compilers/algorithm/schedule.ts';
import { termToExpr } from '../../compilers/algorithm/terms.ts';
import type { FuzzCase } from './gen.ts';
import type { NativeOracle } from './oracles.ts';

export type CompileResult =
  | {
      readonly ok: true;
      readonly text: string;
      /** The compiler runs its own output (Halide's JIT): the `jit` oracle. */
      readonly native?: NativeOracle;
      /** Extra files for a bundle (the Halide script, the translation), by file name. */
      readonly artifacts?: Readonly<Record<string, string>>;
    }
  /** rejected: the compiler declined the case (unsupported or illegal schedule): not a bug. */
  | { readonly ok: false; readonly rejected: boolean; readonly error: string };

export interface Compiler {
  readonly name: string;
  compile(c: FuzzCase): Promise<CompileResult>;
  /** Release what compile() kept for the oracles (files of the last case), once the run is over. */
  close?(): void;
}

export const SPEC_NAME = 'fz';
export const IMPL_NAME = 'fz_impl';

export function referenceCompiler(bug?: BugName): Compiler {
  return {
    name: bug ? `reference --inject ${bug}` : 'reference',
    async compile(c) {
      try {
        return { ok: true, text: lower(c.alg, c.sched, { bugs: bug ? [bug] : [], specName: SPEC_NAME, implName: IMPL_NAME }).text };
      } catch (e) {
        if (e instanceof LowerError) return { ok: false, rejected: true, error: e.message };
        throw e;
      }
    },
  };
}

/** Does the reference compiler (no bug) accept the case? The fuzzer only keeps such cases. */
export function legal(c: FuzzCase): string | null {
  try {
    lower(c.alg, c.sched, { specName: SPEC_NAME, implName: IMPL_NAME });
    return null;
  } catch (e) {
    if (e instanceof LowerError) return e.message;
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// The external protocol

/** An expression as JSON for compilers written in other languages. */
export type ExprJson =
  | { readonly int: string }
  | { readonly float: number }
  | { readonly bool: boolean }
  | { readonly var: string }
  | { readonly read: string; readonly args: readonly ExprJson[] }
  | { readonly op: string; readonly args: readonly ExprJson[] }
  | { readonly call: string; readonly args: readonly ExprJson[] }
  | { readonly select: readonly [ExprJson, ExprJson, ExprJson] };

export function exprJson(e: Expr): ExprJson {
  switch (e.kind) {
    case 'int':
      return { int: e.value.toString() };
    case 'float':
      return { float: e.value };
    case 'bool':
      return { bool: e.value };
    case 'var':
      return { var: e.name };
    case 'tensor':
    case 'array':
      return { read: e.name, args: e.indices.map(exprJson) };
    case 'call':
      return { call: e.fn, args: e.args.map(exprJson) };
    case 'unary':
      return { op: e.op === '-' ? 'neg' : '!', args: [exprJson(e.arg)] };
    case 'binary':
      return { op: e.op, args: [exprJson(e.left), exprJson(e.right)] };
    case 'select':
      return { select: [exprJson(e.cond), exprJson(e.then), exprJson(e.else)] };
    case 'let':
      throw new Error('let expressions are not part of the algorithm language');
  }
}

/** The request an external compiler reads on stdin (and from $SCHED_FUZZ_REQUEST). */
export function request(alg: Algorithm, sched: Schedule): unknown {
  const a = checkAlgorithm(alg);
  return {
    protocol: 'sched-lower/1',
    algorithm: alg,
    schedule: sched,
    specName: SPEC_NAME,
    implName: IMPL_NAME,
    spec: printSpec(algorithmToSpec(a, SPEC_NAME)),
    ast: {
      assumes: a.assumes.map(exprJson),
      funcs: a.funcs.map((f) => ({
        name: f.name,
        pure: exprJson(f.pure),
        updates: f.updates.map((u) => ({
          lhs: u.lhs.map(exprJson),
          rhs: exprJson(u.rhs),
          where: u.where ? exprJson(u.where) : null,
          rdom: u.rvars.map((r) => ({ var: r.name, min: exprJson(termToExpr(r.min)), extent: exprJson(termToExpr(r.extent)) })),
        })),
      })),
      outputExtents: a.output.extentExprs.map(exprJson),
    },
  };
}

function runCommand(cmd: string, input: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', cmd], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/**
 * The program a compiler under test is judged by: its implementation (named IMPL_NAME) against the
 * reference SARE of the algorithm (SPEC_NAME), whatever spec the compiler printed itself.
 */
export function withReferenceSpec(alg: Algorithm, impl: Impl): string {
  const spec = algorithmToSpec(checkAlgorithm(alg), SPEC_NAME);
  return printProgram({ file: 'fz.sched', specs: [spec], impls: [{ ...impl, name: IMPL_NAME, spec: SPEC_NAME }] });
}

/**
 * An external compiler: `sh -c CMD`, the request as JSON on stdin (and in the file named by
 * $SCHED_FUZZ_REQUEST). Exit 0 with a `.sched` text on stdout (its impl is kept; any spec in it is
 * replaced by the reference SARE, which is the contract); exit 2: the case is not supported;
 * anything else is a compiler failure.
 */
export function externalCompiler(cmd: string, timeoutMs = 60_000): Compiler {
  return {
    name: cmd,
    async compile(c) {
      const dir = mkdtempSync(join(tmpdir(), 'sched-fuzz-'));
      try {
        const req = JSON.stringify(request(c.alg, c.sched), null, 2);
        const file = join(dir, 'request.json');
        writeFileSync(file, req);
        const r = await runCommand(cmd, req, { ...process.env, SCHED_FUZZ_REQUEST: file }, timeoutMs);
        if (r.timedOut) return { ok: false, rejected: false, error: `timed out after ${timeoutMs} ms` };
        if (r.code === 2) return { ok: false, rejected: true, error: r.stderr.trim() || 'not supported' };
        if (r.code !== 0) return { ok: false, rejected: false, error: `exit code ${r.code}: ${r.stderr.trim().slice(0, 500)}` };
        let prog;
        try {
          prog = parseProgram('compiler-output.sched', r.stdout);
        } catch (e) {
          if (e instanceof SchedInputError) return { ok: false, rejected: false, error: `output does not parse: ${e.diagnostics[0]?.message ?? ''}` };
          throw e;
        }
        if (prog.impls.length !== 1) return { ok: false, rejected: false, error: `output has ${prog.impls.length} impl blocks, expected 1` };
        return { ok: true, text: withReferenceSpec(c.alg, prog.impls[0]!) };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
