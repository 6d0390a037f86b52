// `node:child_process` in the browser build of the engines (web/page-engines/, the static playground
// and the Z3 placement measurement web/bench/placement.ts). In a browser
// smt/z3.ts forks smt/z3-server.mjs and talks to it over IPC; here the
// "child" is z3-solver's browser build on the page (cross-origin isolated: it needs
// SharedArrayBuffer), answering the same protocol with the same script runner
// (smt/z3-eval.mjs). The rest of smt/z3.ts — queue, time limits, batches — runs unchanged.

import { init } from 'z3-solver/build/browser.js';
// @ts-expect-error plain JavaScript module
import { scriptRunner } from '../../smt/z3-eval.mjs';

// smt/z3.ts unrefs its timers (Node's timers are objects); a browser's are numbers.
const browserSetTimeout = globalThis.setTimeout;
globalThis.setTimeout = ((f: () => void, ms?: number) => {
  const id = browserSetTimeout(f, ms);
  return { unref() {}, ref() {}, [Symbol.toPrimitive]: () => id };
}) as unknown as typeof setTimeout;

type Listener = (m: unknown) => void;
type Run = (script: string, timeoutMs: number, options?: string) => Promise<{ output: string; ms: number; timedOut: boolean }>;

let runner: Promise<Run> | null = null;

class BrowserChild {
  private readonly listeners = new Map<string, Listener[]>();
  private chain: Promise<unknown> = Promise.resolve();
  readonly channel = { ref(): void {}, unref(): void {} };
  readonly exitCode = null;
  readonly signalCode = null;
  connected = true;

  constructor() {
    runner ??= (init() as Promise<object>).then((api) => scriptRunner(api) as Run);
    void runner.then(() => this.emit('message', { ready: true }));
  }
  on(event: string, f: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), f]);
    return this;
  }
  once(event: string, f: Listener): this {
    const g: Listener = (m) => {
      this.listeners.set(event, (this.listeners.get(event) ?? []).filter((x) => x !== g));
      f(m);
    };
    return this.on(event, g);
  }
  private emit(event: string, m: unknown): void {
    for (const f of [...(this.listeners.get(event) ?? [])]) f(m);
  }
  send(msg: { id: number; script: string; timeoutMs: number; options?: string }): boolean {
    this.chain = this.chain.then(async () => {
      const r = await (await runner!)(msg.script, msg.timeoutMs, msg.options);
      this.emit('message', { id: msg.id, ...r });
    });
    return true;
  }
  ref(): void {}
  unref(): void {}
  kill(): boolean {
    return true;
  }
  disconnect(): void {
    this.connected = false;
  }
}

export function fork(): BrowserChild {
  return new BrowserChild();
}

/** The Z3 command line (SCHED_SOLVER=z3) does not exist on a page. */
export function spawn(): never {
  throw new Error('the Z3 command line is not available in the browser; the page uses z3-solver');
}

/** No Z3 command line in a browser: `nativeSolverInstalled()` sees a command that did not run. */
export function spawnSync(): { status: null; error: Error } {
  return { status: null, error: new Error('no processes in a browser') };
}
