// Z3 for the whole toolkit. Every solver call goes through `runZ3`, one at a time (z3-solver
// allows one async call at a time; ARCHITECTURE decision 4). Scripts are SMT-LIB 2.6 text, so
// what is checked here is exactly what a certificate bundle exports.
//
// Z3 (WASM, z3-solver) runs in a child process, smt/z3-server.mjs: its heap cannot grow past
// 2 GiB, and running out of it ends the process that hosts it. In a child, a query that does so
// answers `unknown` ("solver crashed") and the next query starts a fresh solver; the hard time
// limit is enforced the same way, by ending the child.

import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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

interface Reply {
  readonly output: string;
  readonly ms: number;
  readonly timedOut: boolean;
  /** Set when the solver process ended before answering. */
  readonly crashed?: string;
}

const SERVER = fileURLToPath(new URL('./z3-server.mjs', import.meta.url));

let child: ChildProcess | null = null;
let ready: Promise<void> | null = null;
let nextId = 0;
const waiting = new Map<number, (r: Reply) => void>();
let queue: Promise<unknown> = Promise.resolve();
let calls = 0;
let totalMs = 0;

function start(): Promise<void> {
  if (ready) return ready;
  const c = fork(SERVER, [], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'advanced' });
  child = c;
  ready = new Promise<void>((resolve, reject) => {
    c.once('message', () => resolve());
    c.once('exit', (code) => reject(new Error(`the Z3 process ended at start-up (exit ${code})`)));
  });
  c.on('message', (m: { id?: number } & Reply) => {
    if (m.id === undefined) return;
    const k = waiting.get(m.id);
    waiting.delete(m.id);
    idle();
    k?.(m);
  });
  c.on('exit', (code, signal) => {
    if (child === c) {
      child = null;
      ready = null;
    }
    for (const [id, k] of waiting) {
      waiting.delete(id);
      k({ output: '', ms: 0, timedOut: false, crashed: `the solver process ended (${signal ?? `exit ${code}`}), probably out of memory` });
    }
  });
  // The solver keeps the toolkit alive only while a query is under way (see busy/idle).
  c.unref();
  busy();
  void ready.then(idle, () => undefined);
  return ready;
}

function busy(): void {
  child?.channel?.ref();
}

function idle(): void {
  if (waiting.size === 0) child?.channel?.unref();
}

function stop(): void {
  const c = child;
  child = null;
  ready = null;
  c?.kill('SIGKILL');
}

async function ask(script: string, timeoutMs: number): Promise<Reply> {
  const t0 = performance.now();
  try {
    await start();
  } catch (e) {
    return { output: '', ms: performance.now() - t0, timedOut: false, crashed: String((e as Error).message) };
  }
  const c = child!;
  const id = nextId++;
  return new Promise<Reply>((resolve) => {
    // Past Z3's own interruption, the process is ended: a query may not hold the toolkit.
    const hard = setTimeout(() => {
      waiting.delete(id);
      stop();
      resolve({ output: '', ms: performance.now() - t0, timedOut: true });
    }, timeoutMs + 15_000);
    hard.unref();
    waiting.set(id, (r) => {
      clearTimeout(hard);
      resolve(r);
    });
    busy();
    c.send({ id, script, timeoutMs });
  });
}

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
  const r = await ask(script, timeoutMs);
  calls++;
  totalMs += r.ms;
  const { output, ms, timedOut } = r;
  if (r.crashed) return { status: 'unknown', output, ms, reason: r.crashed };
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

/** Stop the solver process (the toolkit exits by itself anyway: the child is unreferenced). */
export async function shutdownZ3(): Promise<void> {
  await queue.catch(() => undefined);
  const c = child;
  if (!c) return;
  child = null;
  ready = null;
  if (c.exitCode !== null || c.signalCode !== null) return;
  // Waiting for the exit must hold the event loop (the child is unref'd while idle): otherwise
  // Node ends the process with an unsettled top-level await (exit 13).
  c.ref();
  await new Promise<void>((resolve) => {
    const force = setTimeout(() => {
      c.kill('SIGKILL');
      resolve();
    }, 2000);
    c.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    if (c.connected) c.disconnect();
    else c.kill('SIGKILL');
  });
}
