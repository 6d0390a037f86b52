// The verify oracle in a child process: a generated program can make the symbolic evaluator
// exhaust memory or run for minutes (exponential Presburger formulas), which must not take the
// fuzzer down. One long-lived worker holds the solver; a request that exceeds its budget, or a
// worker that dies (out of memory), gives an `unknown` verdict of class `budget` / `crash`, and
// the next request starts a fresh worker.
//
// Under resource limits (smt/limits.ts) the budget is counted so that every run of a case spends
// it alike, whatever the load and however the campaign is split: the solver's work in resource
// units (smt/z3.ts, Work), and the worker's own CPU time. A case is judged over its budget from
// the work it reports, as it goes and with its verdict, never from when the verdict came.

import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { solverLimits } from '../../smt/limits.ts';
import { descendantPids, processCpuMs, treeCpuMs } from '../../smt/cpu-time.ts';
import type { VerifyResult } from '../verifier/verify.ts';

export interface WorkerVerdict {
  readonly verdict: 'valid' | 'invalid' | 'unknown';
  readonly class: string | null;
  readonly reason: string | null;
  /** The counterexample's values (parameters and loop variables), if any. */
  readonly values: Record<string, string> | null;
  readonly ms: number;
  /** Solver work of the verification in ms of budget (resource limits only), if it was reported. */
  readonly workMs: number | null;
  /** CPU time the request cost (ms), counted as the CPU guard counts it, when it was counted (a measurement). */
  readonly cpuMs?: number;
  /** With VerifierOptions.full, the verifier's whole result (its obligations left out), when it gave one. */
  readonly full?: VerifyResult;
}

export interface Request {
  readonly id: number;
  readonly text: string;
  readonly timeoutMs: number;
  readonly pruneMs?: number;
  /** The file name the text is checked under (default case.sched), and the implementation to verify (default the first). */
  readonly file?: string;
  readonly impl?: string;
  readonly full?: boolean;
}

type Reply = { readonly id: number; readonly result: WorkerVerdict } | { readonly id: number; readonly error: string } | { readonly id: number; readonly work: number };

export interface VerifierOptions {
  /** Budget of one verification (default 180 s): under resource limits (smt/limits.ts), solver
   *  work (ms of budget in Z3 resource units) and, apart, CPU time of the worker itself; else
   *  wall-clock time. */
  readonly budgetMs?: number;
  /** Budget of the worker's own CPU time under resource limits (default: budgetMs). */
  readonly cpuBudgetMs?: number;
  /** Heap limit of the worker in MB (default 2048). */
  readonly heapMb?: number;
  /** Budget of the verifier's feasibility queries (VerifyOptions.pruneMs). */
  readonly pruneMs?: number;
  /**
   * Count the CPU time of the worker's solver processes in its CPU budget too (the runaway guard):
   * a query its resource limit does not stop (z3 4.8.12 on some nonlinear obligations) runs to its
   * own safety net, CPU_FACTOR times its budget in CPU, yet is charged its budget in work, so that
   * the work alone bounds a case's cost only to about twenty times itself (MLIR, docs/campaigns.md).
   */
  readonly countSolvers?: boolean;
  /** Check the text under this file name, verify this implementation, reply with the whole result (Request). */
  readonly file?: string;
  readonly impl?: string;
  readonly full?: boolean;
}

// Compiled (dist/, see cli/thread.js) or the sources through tsx: the worker in the same form.
const COMPILED = import.meta.url.endsWith('.js');
const WORKER = fileURLToPath(new URL(COMPILED ? './verifier-worker.js' : './verifier-worker.ts', import.meta.url));

/** Under resource limits, the wall clock stops a case at this many times its budget. */
const CASE_WALL_FACTOR = 10;

let worker: ChildProcess | null = null;
let nextId = 1;
let stderrTail = '';

function start(heapMb: number): ChildProcess {
  // The worker enforces solver budgets as this process does (smt/limits.ts).
  const env = { ...process.env, SCHED_SOLVER_LIMIT: solverLimits() };
  const w = fork(WORKER, [], { execArgv: [...(COMPILED ? [] : ['--import', 'tsx']), `--max-old-space-size=${heapMb}`], stdio: ['ignore', 'ignore', 'pipe', 'ipc'], env });
  stderrTail = '';
  const trace = process.env.SCHED_Z3_TRACE === '1';
  w.stderr?.on('data', (d: Buffer) => {
    // The solver's trace (smt/z3.ts) of the worker's queries goes on to ours: profiles need it.
    if (trace) process.stderr.write(d);
    stderrTail = (stderrTail + d.toString()).slice(-2000);
  });
  return w;
}

function stop(): void {
  if (worker !== null) {
    worker.removeAllListeners();
    // Its solver processes too: killed with the worker alone, a z3 in the middle of a query runs
    // on until its own wall-clock limit (WALL_FACTOR times its budget), an orphan nobody counts.
    const pids = worker.pid === undefined ? [] : descendantPids(worker.pid);
    worker.kill('SIGKILL');
    for (const p of pids) {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        // ended already
      }
    }
    worker = null;
  }
}

/** Verify the (single) implementation of a `.sched` text in the worker. */
export function verifyInWorker(text: string, timeoutMs: number, opts: VerifierOptions = {}): Promise<WorkerVerdict> {
  const budget = opts.budgetMs ?? 180_000;
  const cpuBudget = opts.cpuBudgetMs ?? budget;
  worker ??= start(opts.heapMb ?? 2048);
  const w = worker;
  const id = nextId++;
  const t0 = performance.now();
  return new Promise((resolve) => {
    const done = (r: WorkerVerdict): void => {
      clearTimeout(timer);
      clearInterval(poll);
      const used = cpu0 !== null && w.pid !== undefined ? cpuOf(w.pid) : null;
      if (used !== null) r = { ...r, cpuMs: Math.round(used - cpu0!) };
      w.off('message', onMessage);
      w.off('exit', onExit);
      resolve(r);
    };
    const unknown = (cls: string, reason: string, workMs: number | null = null): WorkerVerdict => ({ verdict: 'unknown', class: cls, reason, values: null, ms: performance.now() - t0, workMs });
    const rlimit = solverLimits() === 'rlimit';
    /** The work the worker last reported: what a case stopped by a clock had cost by then (a measurement). */
    let lastWork: number | null = null;
    const overWork = (workMs: number): WorkerVerdict => unknown('budget', `over the budget of ${Math.round(budget / 1000)} s of solver work (Z3 resource units)`, workMs);
    const onMessage = (m: Reply): void => {
      if (m.id !== id) return;
      if ('error' in m) done(unknown('crash', `the verifier threw: ${m.error}`));
      else if ('work' in m) {
        lastWork = m.work;
        if (rlimit && m.work > budget) {
          stop();
          done(overWork(m.work));
        }
      } else if (rlimit && m.result.workMs !== null && m.result.workMs > budget) done(overWork(m.result.workMs));
      else done(m.result);
    };
    const onExit = (code: number | null, signal: string | null): void => {
      worker = null;
      const oom = /heap out of memory|Allocation failed/.test(stderrTail);
      done(unknown('crash', `the verifier process died (${oom ? 'out of memory' : signal ?? `exit ${code}`})`));
    };
    // Under resource limits the worker's own CPU time (its symbolic evaluation; the solvers are
    // counted in work) is checked every second, and the wall clock stops the request only at
    // CASE_WALL_FACTOR times the budget (and half a minute: a safety net, never the budget of a small
    // one). Under time limits, or without /proc, the budget is wall-clock time.
    const cpuOf = (pid: number): number | null => (opts.countSolvers ? treeCpuMs(pid) : processCpuMs(pid));
    const cpu0 = rlimit && w.pid !== undefined ? cpuOf(w.pid) : null;
    const over = (ms: number, what: string): void => {
      stop();
      done(unknown('budget', `no verdict within ${Math.round(ms / 1000)} s${what}`, lastWork));
    };
    const wallNet = Math.max(budget, cpuBudget) * CASE_WALL_FACTOR;
    const timer = setTimeout(() => over(cpu0 === null ? budget : wallNet, cpu0 === null ? '' : ' (wall clock, a safety net)'), cpu0 === null ? budget : wallNet + 30_000);
    const poll = cpu0 === null ? undefined : setInterval(() => {
      const used = w.pid === undefined ? null : cpuOf(w.pid);
      if (used !== null && used - cpu0 >= cpuBudget) over(cpuBudget, ` of CPU time of the verifier${opts.countSolvers ? ' and its solvers' : ''}`);
    }, 1000);
    w.on('message', onMessage);
    w.on('exit', onExit);
    const req: Request = { id, text, timeoutMs, ...(opts.pruneMs !== undefined ? { pruneMs: opts.pruneMs } : {}), ...(opts.file !== undefined ? { file: opts.file } : {}), ...(opts.impl !== undefined ? { impl: opts.impl } : {}), ...(opts.full ? { full: true } : {}) };
    w.send(req);
  });
}

/** Stop the worker (the process can then exit). */
export function closeVerifier(): void {
  if (worker !== null) {
    worker.removeAllListeners();
    worker.disconnect();
    worker.kill();
    worker = null;
  }
}
