// The in-process Z3 (z3-solver, WASM). Every solver call of the toolkit goes through `runZ3`:
// z3-solver allows one async call at a time and throws on a second, so calls are queued here
// (ARCHITECTURE decision 4). Scripts are SMT-LIB 2.6 text, so what is checked in-process is
// exactly what a certificate bundle exports.

import { init, killThreads } from 'z3-solver';

export type SatStatus = 'sat' | 'unsat' | 'unknown';

export interface SolverAnswer {
  /** Answer of the first `(check-sat)` of the script, `unknown` on error or timeout. */
  readonly status: SatStatus;
  /** Everything Z3 printed (models, `get-value`, tactic output). */
  readonly output: string;
  readonly ms: number;
  /** Why the answer is `unknown` (timeout, solver error, reason-unknown), else null. */
  readonly reason: string | null;
}

export interface RunOptions {
  /** Wall-clock budget; the call is interrupted and answers `unknown` past it. */
  readonly timeoutMs?: number;
}

type Api = Awaited<ReturnType<typeof init>>;

/** The parts of z3-solver's Emscripten module used to pass a script safely (see evalScript). */
interface Emscripten {
  _malloc(n: number): number;
  _free(p: number): void;
  HEAPU8: Uint8Array;
  _async_Z3_eval_smtlib2_string: unknown;
  async_call(f: unknown, ...args: number[]): Promise<string>;
}

const encoder = new TextEncoder();

/**
 * z3-solver's own `eval_smtlib2_string` passes the script through Emscripten's `ccall`, which puts
 * the string on the WASM stack and pops it when `ccall` returns, while the worker thread may
 * still be reading it: we saw scripts arrive corrupted ("invalid command" at random places). A
 * corrupted script could also parse into a *different* valid script, so we copy the script into
 * heap memory that stays allocated until the call has finished.
 */
async function evalScript(a: Api, ctx: unknown, script: string): Promise<string> {
  const em = a.em as unknown as Emscripten;
  const bytes = encoder.encode(script);
  const ptr = em._malloc(bytes.length + 1);
  try {
    em.HEAPU8.set(bytes, ptr);
    em.HEAPU8[ptr + bytes.length] = 0;
    return await em.async_call(em._async_Z3_eval_smtlib2_string, ctx as number, ptr);
  } finally {
    em._free(ptr);
  }
}

let apiPromise: Promise<Api> | null = null;
let queue: Promise<unknown> = Promise.resolve();
let calls = 0;
let totalMs = 0;

/**
 * Z3's own memory cap (MB). The WASM heap cannot grow past 2 GiB and an allocation failure
 * there aborts the whole process; Z3 gives up cleanly (an error, hence `unknown`) below it.
 */
const MEMORY_MAX_MB = '1400';

function api(): Promise<Api> {
  apiPromise ??= init().then((a) => {
    a.Z3.global_param_set('memory_max_size', MEMORY_MAX_MB);
    return a;
  });
  return apiPromise;
}

/** Default per-query budget; `verify --timeout-ms` overrides it. */
export const DEFAULT_TIMEOUT_MS = 10_000;

function firstStatus(output: string): SatStatus | null {
  for (const raw of output.split('\n')) {
    const line = raw.trim();
    if (line === 'sat' || line === 'unsat' || line === 'unknown') return line;
  }
  return null;
}

function errorOf(output: string): string | null {
  for (const m of output.matchAll(/\(error "([^"]*)"\)/g)) {
    // Z3 checks `(set-info :status …)` and complains when the answer differs: that is a
    // refutation of the expected status (a certificate's `unsat`), not a malformed script.
    if (/check annotation that says/.test(m[1]!)) continue;
    return m[1]!;
  }
  return null;
}

async function runNow(script: string, timeoutMs: number): Promise<SolverAnswer> {
  const a = await api();
  const { Z3 } = a;
  const cfg = Z3.mk_config();
  const ctx = Z3.mk_context_rc(cfg);
  Z3.del_config(cfg);
  const t0 = performance.now();
  let timedOut = false;
  // Z3's own :timeout covers the SMT core; the timer also stops tactics (qe) that ignore it.
  const timer = setTimeout(() => {
    timedOut = true;
    Z3.interrupt(ctx);
  }, timeoutMs + 250);
  let output = '';
  try {
    output = await evalScript(a, ctx, `(set-option :timeout ${timeoutMs})\n${script}`);
  } catch (e) {
    output = `(error "${String((e as Error).message ?? e).replace(/"/g, "'")}")`;
  } finally {
    clearTimeout(timer);
    Z3.del_context(ctx);
  }
  const ms = performance.now() - t0;
  calls++;
  totalMs += ms;
  const err = errorOf(output);
  const st = firstStatus(output);
  if (timedOut) return { status: 'unknown', output, ms, reason: `timeout after ${timeoutMs} ms` };
  if (st === null) return { status: 'unknown', output, ms, reason: err ? `solver error: ${err}` : 'no answer' };
  if (err !== null && st !== 'unknown') {
    // An error anywhere in the script makes the answer untrustworthy: never report it.
    return { status: 'unknown', output, ms, reason: `solver error: ${err}` };
  }
  let reason: string | null = null;
  if (st === 'unknown') {
    const m = /:reason-unknown\s+"?([^")]*)"?/.exec(output);
    reason = m ? m[1]!.trim() : ms >= timeoutMs ? `timeout after ${timeoutMs} ms` : 'solver answered unknown';
  }
  return { status: st, output, ms, reason };
}

/** Run one SMT-LIB script in a fresh Z3 context, after every call queued before it. */
export function runZ3(script: string, opts: RunOptions = {}): Promise<SolverAnswer> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const next = queue.then(() => runNow(script, timeoutMs));
  queue = next.catch(() => undefined);
  return next;
}

/**
 * `check-sat` on a script (without its own check-sat); when the answer is sat and a model is
 * wanted, the script is run again with `(get-model)` (asking for a model after an unsat answer is
 * an error, which would make the whole answer untrustworthy).
 */
export async function checkSat(script: string, opts: RunOptions & { model?: boolean } = {}): Promise<SolverAnswer> {
  const r = await runZ3(`${script}\n(check-sat)`, opts);
  if (r.status !== 'sat' || !opts.model) return r;
  const m = await runZ3(`${script}\n(check-sat)\n(get-model)`, opts);
  return m.status === 'sat' ? m : r;
}

const MARK = 'sched-batch-boundary';

/**
 * `check-sat` of many independent scripts in one Z3 call, each in its own `push`/`pop` scope with
 * its own timeout: a call costs far more than a small query (context, threads, parsing), so small
 * Presburger obligations are decided in batches. `set-logic`/`set-info` lines are dropped from the
 * scripts (one `set-logic ALL` leads the batch). No models: ask `checkSat` for the refuted ones.
 */
export async function checkSatBatch(scripts: readonly string[], opts: RunOptions = {}): Promise<SolverAnswer[]> {
  if (scripts.length === 0) return [];
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const body = scripts
    .map((sc) => {
      const clean = sc.replace(/^\(set-logic [^)]*\)\s*$/gm, '').replace(/^\(set-info :status [a-z]+\)\s*$/gm, '');
      return `(push 1)\n(set-option :timeout ${timeoutMs})\n${clean}\n(check-sat)\n(pop 1)\n(echo "${MARK}")`;
    })
    .join('\n');
  const all = await runZ3(`(set-logic ALL)\n${body}`, { timeoutMs: timeoutMs * scripts.length });
  const parts = all.output.split(MARK);
  const per = all.ms / scripts.length;
  return scripts.map((_, k) => {
    const out = parts[k] ?? '';
    const err = errorOf(out);
    const st = firstStatus(out);
    if (st === null || (err !== null && st !== 'unknown')) {
      return { status: 'unknown', output: out, ms: per, reason: all.reason ?? (err ? `solver error: ${err}` : 'no answer') };
    }
    return { status: st, output: out, ms: per, reason: st === 'unknown' ? 'solver answered unknown' : null };
  });
}

/** Calls and total solver milliseconds since start (for `--stats` and benchmarks). */
export function z3Stats(): { calls: number; ms: number } {
  return { calls, ms: totalMs };
}

/** Stop Z3's worker threads so that the process can exit by itself. Safe to call twice. */
export async function shutdownZ3(): Promise<void> {
  if (apiPromise === null) return;
  const p = apiPromise;
  apiPromise = null;
  await queue.catch(() => undefined);
  const a = await p;
  await killThreads(a.em);
}
