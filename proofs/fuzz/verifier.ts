// The verify oracle in a child process: a generated program can make the symbolic evaluator
// exhaust memory or run for minutes (exponential Presburger formulas), which must not take the
// fuzzer down. One long-lived worker holds the solver; a request that exceeds its time budget,
// or a worker that dies (out of memory), gives an `unknown` verdict of class `budget` / `crash`,
// and the next request starts a fresh worker.

import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { solverLimits, WALL_FACTOR } from '../../smt/limits.ts';
import { treeCpuMs } from './cpu-time.ts';

export interface WorkerVerdict {
  readonly verdict: 'valid' | 'invalid' | 'unknown';
  readonly class: string | null;
  readonly reason: string | null;
  /** The counterexample's values (parameters and loop variables), if any. */
  readonly values: Record<string, string> | null;
  readonly ms: number;
}

interface Request {
  readonly id: number;
  readonly text: string;
  readonly timeoutMs: number;
}

type Reply = { readonly id: number; readonly result: WorkerVerdict } | { readonly id: number; readonly error: string };

export interface VerifierOptions {
  /** Budget of one verification (default 180 s): CPU time of the worker and its solvers under
   *  resource limits (smt/limits.ts), else wall-clock time. */
  readonly budgetMs?: number;
  /** Heap limit of the worker in MB (default 2048). */
  readonly heapMb?: number;
}

// Compiled (dist/, see cli/thread.js) or the sources through tsx: the worker in the same form.
const COMPILED = import.meta.url.endsWith('.js');
const WORKER = fileURLToPath(new URL(COMPILED ? './verifier-worker.js' : './verifier-worker.ts', import.meta.url));

let worker: ChildProcess | null = null;
let nextId = 1;
let stderrTail = '';

function start(heapMb: number): ChildProcess {
  // The worker enforces solver budgets as this process does (smt/limits.ts).
  const env = { ...process.env, SCHED_SOLVER_LIMIT: solverLimits() };
  const w = fork(WORKER, [], { execArgv: [...(COMPILED ? [] : ['--import', 'tsx']), `--max-old-space-size=${heapMb}`], stdio: ['ignore', 'ignore', 'pipe', 'ipc'], env });
  stderrTail = '';
  w.stderr?.on('data', (d: Buffer) => {
    stderrTail = (stderrTail + d.toString()).slice(-2000);
  });
  return w;
}

function stop(): void {
  if (worker !== null) {
    worker.removeAllListeners();
    worker.kill('SIGKILL');
    worker = null;
  }
}

/** Verify the (single) implementation of a `.sched` text in the worker. */
export function verifyInWorker(text: string, timeoutMs: number, opts: VerifierOptions = {}): Promise<WorkerVerdict> {
  const budget = opts.budgetMs ?? 180_000;
  worker ??= start(opts.heapMb ?? 2048);
  const w = worker;
  const id = nextId++;
  const t0 = performance.now();
  return new Promise((resolve) => {
    const done = (r: WorkerVerdict): void => {
      clearTimeout(timer);
      clearInterval(poll);
      w.off('message', onMessage);
      w.off('exit', onExit);
      resolve(r);
    };
    const unknown = (cls: string, reason: string): WorkerVerdict => ({ verdict: 'unknown', class: cls, reason, values: null, ms: performance.now() - t0 });
    const onMessage = (m: Reply): void => {
      if (m.id !== id) return;
      if ('error' in m) done(unknown('crash', `the verifier threw: ${m.error}`));
      else done(m.result);
    };
    const onExit = (code: number | null, signal: string | null): void => {
      worker = null;
      const oom = /heap out of memory|Allocation failed/.test(stderrTail);
      done(unknown('crash', `the verifier process died (${oom ? 'out of memory' : signal ?? `exit ${code}`})`));
    };
    // Under resource limits the budget is CPU time, the worker's and its solvers' (load does not
    // change it), checked every second; the wall clock stops the request only at WALL_FACTOR
    // times the budget. Under time limits, or without /proc, it is wall-clock time.
    const cpu0 = solverLimits() === 'rlimit' && w.pid !== undefined ? treeCpuMs(w.pid) : null;
    const over = (what: string): void => {
      stop();
      done(unknown('budget', `no verdict within ${Math.round(budget / 1000)} s${what}`));
    };
    const timer = setTimeout(() => over(cpu0 === null ? '' : ` (wall clock, ${WALL_FACTOR} times the CPU budget)`), cpu0 === null ? budget : budget * WALL_FACTOR);
    const poll = cpu0 === null ? undefined : setInterval(() => {
      const used = w.pid === undefined ? null : treeCpuMs(w.pid);
      if (used !== null && used - cpu0 >= budget) over(' of CPU time');
    }, 1000);
    w.on('message', onMessage);
    w.on('exit', onExit);
    const req: Request = { id, text, timeoutMs };
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
