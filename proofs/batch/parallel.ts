// Implementations verified concurrently (`verify DIR --jobs N`, `corpus --jobs N`): N worker
// threads (proofs/batch/parallel-worker.ts, each with the bin's large stack and its own copy of every
// module's state), each verifying one implementation at a time with one solver process of its
// own, so that symbolic evaluation (JavaScript, one thread) runs on every core too. Callers submit every implementation at once and read the
// results in the order they submitted them, so what they print is what a sequential run prints.
// A worker writes the certificate bundle itself, from a clean slate (proofs/verifier/fresh-state.ts), as
// the sequential command does: the bundle's bytes are the same.

import { Worker as Thread } from 'node:worker_threads';
import type { VerifyResult } from '../verifier/verify.ts';
import type { FloatMode } from '../verifier/smt-values.ts';
import { solverLimits } from '../../smt/limits.ts';

export interface ImplJob {
  /** The file to read, and the name its program is parsed under (diagnostics, reasons). */
  readonly path: string;
  readonly name: string;
  /** `--spec FILE` (then the file is loaded as `sched verify` loads it). */
  readonly spec?: string;
  readonly impl: string;
  readonly float?: FloatMode;
  readonly timeoutMs?: number;
  /** VerifyOptions.runsFirst. */
  readonly runsFirst?: boolean | 'small';
  /** Write the certificate bundle here (bundle's input name and directory). */
  readonly bundle?: { readonly dir: string; readonly input: string };
}

/** A verification's result without its obligations (scripts stay in the worker). */
export type RemoteResult = Omit<VerifyResult, 'outcomes'> & { readonly outcomes: readonly [] };

type Reply = { readonly id: number; readonly result: RemoteResult } | { readonly id: number; readonly error: string };

// Compiled (dist/, see cli/thread.js) or the sources, which the thread loads through tsx.
const COMPILED = import.meta.url.endsWith('.js');
const WORKER = new URL(COMPILED ? './parallel-worker.js' : './parallel-worker.ts', import.meta.url);
const STACK_MB = 512;

interface Worker {
  readonly thread: Thread;
  busy: boolean;
}

export class VerifyPool {
  private readonly workers: Worker[] = [];
  private readonly queue: { job: ImplJob; resolve: (r: RemoteResult) => void; reject: (e: Error) => void }[] = [];
  private nextId = 1;

  constructor(private readonly size: number) {}

  /** Verify one implementation on the next free worker. */
  verify(job: ImplJob): Promise<RemoteResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.pump();
    });
  }

  private spawn(): Worker {
    const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(WORKER.href)}); })`;
    const thread = new Thread(COMPILED ? WORKER : boot, {
      eval: !COMPILED,
      // One solver process per worker: the workers are the parallelism. Budgets are enforced as
      // in this thread (--budget or --timeout-ms: smt/limits.ts).
      env: { ...process.env, SCHED_JOBS: '1', SCHED_SOLVER_LIMIT: solverLimits() },
      resourceLimits: { stackSizeMb: STACK_MB },
      stdout: false,
      stderr: false,
    });
    const w: Worker = { thread, busy: false };
    this.workers.push(w);
    return w;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let w = this.workers.find((x) => !x.busy);
      if (w === undefined) {
        if (this.workers.length >= this.size) return;
        w = this.spawn();
      }
      const { job, resolve, reject } = this.queue.shift()!;
      const worker = w;
      worker.busy = true;
      const id = this.nextId++;
      const onMessage = (m: Reply): void => {
        if (m.id !== id) return;
        finish();
        if ('error' in m) reject(new Error(m.error));
        else resolve(m.result);
      };
      const onError = (e: Error): void => {
        finish();
        this.workers.splice(this.workers.indexOf(worker), 1);
        reject(e);
      };
      const onExit = (code: number): void => onError(new Error(`the verification thread for ${job.name}: ${job.impl} ended (exit ${code})`));
      const finish = (): void => {
        worker.thread.off('message', onMessage);
        worker.thread.off('error', onError);
        worker.thread.off('exit', onExit);
        worker.busy = false;
        queueMicrotask(() => this.pump());
      };
      worker.thread.on('message', onMessage);
      worker.thread.on('error', onError);
      worker.thread.on('exit', onExit);
      worker.thread.postMessage({ id, job });
    }
  }

  /** Ends the workers, each once its solver processes have stopped. */
  async close(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((w) => new Promise<void>((resolve) => {
      w.thread.removeAllListeners();
      w.thread.once('exit', () => resolve());
      w.thread.postMessage({ close: true });
    })));
  }
}
