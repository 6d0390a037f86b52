// Z3 for the whole toolkit. Every solver call goes through `runZ3`. z3-solver allows one async
// call at a time (ARCHITECTURE decision 4), so a process answers one query at a time, and a pool
// of processes (one per core by default, `--jobs N`) answers several at once. Scripts are SMT-LIB
// 2.6 text, so what is checked here is exactly what a certificate bundle exports.
//
// Two builds of Z3 answer (SCHED_SOLVER, see `Mode`): by default the command line when it is
// installed, with the WASM build asked again on what it leaves undecided; else the WASM build.
// Z3 (WASM, z3-solver) runs in child processes, smt/z3-server.mjs: its heap cannot grow past
// 2 GiB, and running out of it ends the process that hosts it. In a child, a query that does so
// answers `unknown` ("solver crashed") and the next query starts a fresh solver; the hard time
// limit is enforced the same way, by ending the child.

import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { processCpuMs } from './cpu-time.ts';
import { type Build, CPU_FACTOR, cpuNetMs, limitOptions, limitSuffix, resetSolverLimits, rlimitOf, solverLimits, splitLimitInfo, unitsToWorkMs, wallMs } from './limits.ts';

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
  /** This query's answer is remembered (as inside withRememberedAnswers): its caller asks the
   *  same script again and again. */
  readonly remember?: boolean;
}

interface Reply {
  readonly output: string;
  readonly ms: number;
  readonly timedOut: boolean;
  /** Set when the solver process ended before answering. */
  readonly crashed?: string;
  /** Under a resource limit (smt/limits.ts): the last check-sat was unknown because it ran out. */
  readonly limitReached?: boolean;
  /** Under a resource limit, the work the script cost: see Work. */
  readonly work?: Work;
  /** A timed-out reply was stopped by the CPU-time net (resource limits), not the wall clock. */
  readonly cpuNet?: boolean;
}

/**
 * The safety net of a query in flight on process `pid` (see smt/limits.ts): the wall clock past
 * wallMs plus 15 s and, under resource limits, the CPU time of the process past CPU_FACTOR times
 * the budget, which a loaded machine does not reach sooner. `fire(byCpu)` is called at most once;
 * the returned function disarms the net. With `keepAlive`, the pending query keeps the toolkit
 * alive (its wall-clock timer stays referenced).
 */
function safetyNet(pid: number | undefined, timeoutMs: number, fire: (byCpu: boolean) => void, keepAlive = false): () => void {
  let poll: ReturnType<typeof setInterval> | undefined;
  const disarm = (): void => {
    clearTimeout(wall);
    if (poll) clearInterval(poll);
  };
  const wall = setTimeout(() => {
    disarm();
    fire(false);
  }, wallMs(timeoutMs) + 15_000);
  if (!keepAlive) wall.unref();
  const c0 = solverLimits() === 'rlimit' && pid !== undefined ? processCpuMs(pid) : null;
  if (c0 !== null) {
    poll = setInterval(() => {
      const c = processCpuMs(pid!);
      if (c !== null && c - c0 > cpuNetMs(timeoutMs)) {
        disarm();
        fire(true);
      }
    }, 500);
    poll.unref();
  }
  return disarm;
}

/**
 * What queries cost under a resource limit: the units they used on each build. Integers, summed
 * exactly: a verification's total is a function of the queries it asked (see workMs).
 */
export interface Work {
  readonly native: number;
  readonly wasm: number;
}

const NO_WORK: Work = { native: 0, wasm: 0 };

function addWork(a: Work, b: Work | undefined): Work {
  return b === undefined ? a : { native: a.native + b.native, wasm: a.wasm + b.wasm };
}

/** The work of the queries answered since `z3Stats().work` was `w0`. */
export function workSince(w0: Work): Work {
  return { native: totalWork.native - w0.native, wasm: totalWork.wasm - w0.wasm };
}

/** Work in milliseconds of solver budget (units over each build's rate, smt/limits.ts). */
export function workMs(w: Work): number {
  return unitsToWorkMs(w.native, 'native') + unitsToWorkMs(w.wasm, 'wasm');
}

/**
 * A reply's output with what was asked under a resource limit (see limitSuffix) taken out, and
 * its work. A query of one check-sat stopped by a limit is charged its whole resource limit, and
 * so is one that crashed or was stopped by its safety net (safetyNet): the units used when a
 * clock stopped it depend on the load (z3 4.8.12 does not even stop some nonlinear queries at
 * either of Z3's limits: only the net ends them), and one that ran out used its limit and the
 * step it was in. A batch's scopes are charged what they used (one that reached Z3's own
 * wall-clock `:timeout`, thirty times its budget, would count fewer units on a loaded machine).
 */
function withLimitInfo(r: Reply, build: Build, script: string, timeoutMs: number): Reply {
  if (solverLimits() !== 'rlimit') return r;
  const whole: Work = { ...NO_WORK, [build]: rlimitOf(timeoutMs, build) };
  if (r.timedOut) netStops++;
  if (r.crashed || r.timedOut) return { ...r, work: whole };
  const { output, limitReached, interrupted, units } = splitLimitInfo(r.output);
  // Stopped by Z3's own wall-clock :timeout (WALL_FACTOR times the budget), not its resource limit.
  if (interrupted && !limitReached) netStops++;
  const single = script.split('(check-sat)').length === 2;
  const work = units === null || (single && interrupted) ? whole : { ...NO_WORK, [build]: units };
  return { ...r, output, limitReached, work };
}

const SERVER = fileURLToPath(new URL('./z3-server.mjs', import.meta.url));

/** Asks a process to end (`ask`), and kills it if it has not within 2 s. */
function endProcess(c: ChildProcess, ask: () => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const force = setTimeout(() => {
      c.kill('SIGKILL');
      resolve();
    }, 2000);
    c.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    ask();
  });
}

/**
 * One solver process of the pool: one query at a time. A process that ends (out of memory, or
 * ended past the hard time limit) answers its query as crashed; the next query on the slot
 * starts a fresh one.
 */
class SolverProcess {
  private child: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  /** The queries of the current child (each child has its own: see start). */
  private waiting = new Map<number, (r: Reply) => void>();
  /** A query is under way (set by the pool). */
  busy = false;

  private start(): Promise<void> {
    if (this.ready) return this.ready;
    // Plain JavaScript: no loader flags of the parent (tsx) to load.
    const c = fork(SERVER, [], { execArgv: [], stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'advanced' });
    this.child = c;
    // This child's queries only: when a child ended past the hard time limit exits, the next
    // child may already be answering a query, which must not be answered as crashed.
    const waiting = new Map<number, (r: Reply) => void>();
    this.waiting = waiting;
    const ready = new Promise<void>((resolve, reject) => {
      c.once('message', () => resolve());
      c.once('exit', (code) => reject(new Error(`the Z3 process ended at start-up (exit ${code})`)));
    });
    this.ready = ready;
    c.on('message', (m: { id?: number } & Reply) => {
      if (m.id === undefined) return;
      const k = waiting.get(m.id);
      waiting.delete(m.id);
      this.idle();
      k?.(m);
    });
    c.on('exit', (code, signal) => {
      if (this.child === c) {
        this.child = null;
        this.ready = null;
      }
      for (const [id, k] of waiting) {
        waiting.delete(id);
        k({ output: '', ms: 0, timedOut: false, crashed: `the solver process ended (${signal ?? `exit ${code}`}), probably out of memory` });
      }
    });
    // The solver keeps the toolkit alive only while a query is under way (see ref/idle).
    c.unref();
    c.channel?.ref();
    void ready.then(() => this.idle(), () => undefined);
    return ready;
  }

  private idle(): void {
    if (this.waiting.size === 0) this.child?.channel?.unref();
  }

  private stop(): void {
    const c = this.child;
    this.child = null;
    this.ready = null;
    c?.kill('SIGKILL');
  }

  async ask(script: string, timeoutMs: number): Promise<Reply> {
    return withLimitInfo(await this.send(script, timeoutMs), 'wasm', script, timeoutMs);
  }

  private async send(script: string, timeoutMs: number): Promise<Reply> {
    const t0 = performance.now();
    try {
      await this.start();
    } catch (e) {
      return { output: '', ms: performance.now() - t0, timedOut: false, crashed: String((e as Error).message) };
    }
    const c = this.child!;
    const id = nextId++;
    return new Promise<Reply>((resolve) => {
      // Past Z3's own interruption, or past the CPU-time net, the process is ended: a query may
      // not hold the toolkit.
      const disarm = safetyNet(c.pid, timeoutMs, (cpuNet) => {
        this.waiting.delete(id);
        this.stop();
        resolve({ output: '', ms: performance.now() - t0, timedOut: true, cpuNet });
      });
      this.waiting.set(id, (r) => {
        disarm();
        resolve(r);
      });
      c.channel?.ref();
      c.send({ id, script: script + limitSuffix(), timeoutMs: wallMs(timeoutMs), options: limitOptions(timeoutMs, 'wasm') });
    });
  }

  /** Ends the process once its query (if any) is answered. */
  async shutdown(): Promise<void> {
    const c = this.child;
    if (!c) return;
    this.child = null;
    this.ready = null;
    if (c.exitCode !== null || c.signalCode !== null) return;
    // Waiting for the exit must hold the event loop (the child is unref'd while idle): otherwise
    // Node ends the process with an unsettled top-level await (exit 13).
    c.ref();
    await endProcess(c, () => {
      if (c.connected) c.disconnect();
      else c.kill('SIGKILL');
    });
  }
}

/**
 * The Z3 command line (`z3 -in`, Debian's package): one long-lived process per slot of the pool,
 * each script preceded by `(reset)` and the default of every option the toolkit sets (a fresh
 * state, as the WASM server's fresh context), followed by an end marker; past the hard time limit
 * the process is ended and the next query starts another. An order of magnitude less CPU per
 * query than the WASM build (docs/performance.md). Another Z3 version may answer `unknown`
 * differently near a time limit or on quantified value obligations (never sat against unsat):
 * hence the WASM fallback of the default mode (FallbackSolver).
 */
class NativeSolver {
  busy = false;
  private child: ReturnType<typeof spawn> | null = null;
  private out = '';
  private pending: { marker: string; resolve: (output: string | null) => void } | null = null;

  private start(): ReturnType<typeof spawn> {
    if (this.child) return this.child;
    const c = spawn('z3', ['-in', '-smt2'], { stdio: ['pipe', 'pipe', 'ignore'] });
    this.child = c;
    this.out = '';
    c.stdout!.setEncoding('utf8');
    c.stdout!.on('data', (d: string) => {
      this.out += d;
      const p = this.pending;
      if (p === null) return;
      const k = this.out.indexOf(p.marker);
      if (k < 0) return;
      const output = this.out.slice(0, k);
      this.out = this.out.slice(k + p.marker.length).replace(/^\r?\n/, '');
      this.pending = null;
      p.resolve(output);
    });
    const gone = (): void => {
      if (this.child === c) this.child = null;
      const p = this.pending;
      this.pending = null;
      p?.resolve(null);
    };
    c.on('error', gone);
    c.on('close', gone);
    c.stdin!.on('error', () => undefined);
    // Idle, the process keeps nothing alive (a pending query's timer does).
    c.unref();
    for (const h of [c.stdin, c.stdout] as unknown as { unref?: () => void }[]) h.unref?.();
    return c;
  }

  private stop(): void {
    const c = this.child;
    this.child = null;
    c?.kill('SIGKILL');
  }

  async ask(script: string, timeoutMs: number): Promise<Reply> {
    return withLimitInfo(await this.send(script, timeoutMs), 'native', script, timeoutMs);
  }

  private send(script: string, timeoutMs: number): Promise<Reply> {
    const t0 = performance.now();
    const c = this.start();
    const marker = `sched-native-end-${nextId++}`;
    return new Promise<Reply>((resolve) => {
      // A pending query keeps the toolkit alive (the process and its pipes do not).
      const disarm = safetyNet(c.pid, timeoutMs, (cpuNet) => {
        this.pending = null;
        this.stop();
        resolve({ output: '', ms: performance.now() - t0, timedOut: true, cpuNet });
      }, true);
      this.pending = {
        marker,
        resolve: (output) => {
          disarm();
          const ms = performance.now() - t0;
          resolve(output === null ? { output: '', ms, timedOut: false, crashed: 'the z3 command ended' } : { output, ms, timedOut: false });
        },
      };
      // The process is long-lived, and z3 4.8.12's `(reset)` keeps options and the expected status
      // of an earlier script: a resource limit is lifted explicitly, and a `(set-info :status
      // unsat)` of a certificate script would make every later `sat` an error ("check annotation
      // that says unsat"), which sent the well-formedness check's batches of the next fuzz case
      // to be asked again one query at a time.
      const limit = solverLimits() === 'time' ? `(set-option :rlimit 0)\n${limitOptions(timeoutMs, 'native')}` : limitOptions(timeoutMs, 'native');
      c.stdin!.write(`(reset)\n(set-info :status unknown)\n(set-option :smt.mbqi true)\n${limit}\n${script}${limitSuffix()}\n(echo "${marker}")\n`);
    });
  }

  async shutdown(): Promise<void> {
    const c = this.child;
    this.child = null;
    if (!c || c.exitCode !== null) return;
    c.ref();
    await endProcess(c, () => c.stdin!.end('(exit)\n'));
  }
}

/** Which solver of an `auto` slot a query goes to: the command line then, if it leaves the query
 *  undecided, the WASM build (`fallback`); or only one of them (batches split their fallback). */
type Route = 'fallback' | 'native' | 'wasm';

/**
 * A reply that settles the query: a sat or unsat for every check-sat, no error, no crash; for a
 * script without check-sat (a tactic applied: Z3's qe), its output within its limit.
 */
function decided(r: Reply, script: string): boolean {
  if (r.timedOut || r.crashed || errorOf(r.output) !== null) return false;
  if (!script.includes('(check-sat)')) return r.output.trim() !== '' && r.limitReached === false;
  const answers = r.output.split('\n').map((l) => l.trim()).filter((l) => l === 'sat' || l === 'unsat' || l === 'unknown');
  return answers.length > 0 && !answers.includes('unknown');
}

/**
 * A slot of the `auto` pool: a `z3 -in` process, and a WASM process started the first time the
 * command line leaves a query undecided. Both answer in a fresh context, so the second is asked
 * exactly the same script. The command line gets half of the budget (an order of magnitude
 * faster, it answers in half the budget what the WASM build answers in several times the whole),
 * the WASM build the whole budget: every query the WASM build alone decides is still decided, and
 * one that neither decides costs 1.5 times the budget. Z3 4.8.12 does not decide some value
 * obligations at all that z3-solver's newer Z3 decides in under a second.
 */
class FallbackSolver {
  busy = false;
  private readonly native = new NativeSolver();
  private wasm: SolverProcess | null = null;

  async ask(script: string, timeoutMs: number, route: Route): Promise<Reply> {
    if (route === 'native') return this.native.ask(script, timeoutMs);
    this.wasm ??= new SolverProcess();
    if (route === 'wasm') return this.wasm.ask(script, timeoutMs);
    const first = await this.native.ask(script, Math.max(1, Math.round(timeoutMs / 2)));
    if (decided(first, script)) return first;
    const second = await this.wasm.ask(script, timeoutMs);
    return { ...second, ms: first.ms + second.ms, work: addWork(first.work ?? NO_WORK, second.work) };
  }

  async shutdown(): Promise<void> {
    await Promise.all([this.native.shutdown(), this.wasm?.shutdown()]);
  }
}

/**
 * Which solver answers (SCHED_SOLVER): `wasm`, z3-solver only; `z3`, the command line only;
 * `auto` (the default), the command line when it is installed, and the WASM build on whatever it
 * leaves undecided (a timeout, `unknown`, an error, a crash). Debian's z3 4.8.12 answers most
 * queries with an order of magnitude less CPU, but leaves undecided a few value obligations that
 * z3-solver's newer Z3 decides (docs/performance.md; bench/RESULTS.md, *Two Z3 builds*): the fallback keeps every
 * verdict the WASM build alone reaches within its budget. Without the command line, `auto` is `wasm`.
 */
type Mode = 'wasm' | 'z3' | 'auto';
let mode: Mode | null = null;

function currentMode(): Mode {
  if (mode !== null) return mode;
  const env = process.env.SCHED_SOLVER;
  if (env === 'z3' || env === 'wasm') mode = env;
  else {
    if (env !== undefined && env !== '' && env !== 'auto') process.stderr.write(`sched: SCHED_SOLVER=${env} is not one of auto, z3, wasm; using auto\n`);
    mode = nativeSolverInstalled() ? 'auto' : 'wasm';
  }
  return mode;
}

/** Which solver answers: `z3-wasm` (z3-solver, in child processes), `z3` (the command line) or
 *  `z3, z3-wasm` (the command line, the WASM build where it leaves a query undecided). */
export function solverName(): string {
  const m = currentMode();
  return m === 'wasm' ? 'z3-wasm' : m === 'z3' ? 'z3' : 'z3, z3-wasm';
}

let installed: boolean | null = null;

/** The Z3 command line is on the PATH. */
export function nativeSolverInstalled(): boolean {
  installed ??= spawnSync('z3', ['-version'], { stdio: 'ignore' }).status === 0;
  return installed;
}

/**
 * The Z3 command line alone from now on when it is installed, unless SCHED_SOLVER names the
 * WASM build, for callers that only need answers fast — property runs, whose checks accept any
 * verdict the solver's answers lead to (no second opinion on what it leaves undecided). Only
 * before the first query (a pool is of one kind). Returns the solver that answers.
 */
export function preferNativeSolver(): string {
  if (pool.length === 0 && process.env.SCHED_SOLVER !== 'wasm' && nativeSolverInstalled()) mode = 'z3';
  return solverName();
}

/** Inside withSecondSolver: queries of the `auto` mode go to the WASM build directly. */
let secondDepth = 0;

/**
 * Runs `f` with every query asked of the WASM build alone, when the default mode has two solvers
 * (else returns null without running it): a second model, for a refutation whose first model no
 * concrete run reproduced. Another Z3 picks other values, and the replay search starts from them.
 * Queries that other callers of this process ask meanwhile go there too: that changes which
 * solver answers them, never what an answer means.
 */
export async function withSecondSolver<T>(f: () => Promise<T>): Promise<T | null> {
  if (currentMode() !== 'auto') return null;
  secondDepth++;
  try {
    return await f();
  } finally {
    secondDepth--;
  }
}

/**
 * Answers remembered by script (and time limit), for callers that ask the same questions many
 * times in one process (a property run: random programs of one shape share most of their
 * obligations and replay searches). A query is a function of its script — a fresh context each
 * time — so a remembered sat or unsat is what asking again answers; anything undecided (a
 * timeout, a crash, an `unknown` anywhere in a batch) is asked again. Off by default: `recheck`
 * must ask the solvers itself, and timings must measure solver work.
 */
const remembered = new Map<string, SolverAnswer>();
let remembering = false;
let rememberedHits = 0;
const REMEMBER_LIMIT = 50_000;

/** Forget the remembered answers (a fuzz case asks its own queries: proofs/verifier/fresh-state.ts). */
export function forgetRememberedAnswers(): void {
  remembered.clear();
}

/** Runs `f` with remembered answers (kept for the next such call). */
export async function withRememberedAnswers<T>(f: () => Promise<T>): Promise<T> {
  const outer = remembering;
  remembering = true;
  try {
    return await f();
  } finally {
    remembering = outer;
  }
}

let nextId = 0;
let calls = 0;
/** Queries stopped by a safety net under resource limits (CPU time, the wall clock), not by
 *  their resource limit: each is an answer that may depend on the machine (see smt/limits.ts). */
let netStops = 0;
let totalMs = 0;
let totalWork = NO_WORK;

/**
 * The solver pool: up to `jobs` processes answer queries concurrently, in the order they were
 * asked (first come, first served). A process is started only when a query finds every running
 * one busy, so a caller that asks one query at a time keeps a single process. Each query runs in
 * a fresh Z3 context, so its answer does not depend on which process answers it nor on what the
 * others do: concurrency changes when an answer comes, never what it is.
 */
const pool: (SolverProcess | NativeSolver | FallbackSolver)[] = [];
const queue: { script: string; timeoutMs: number; route: Route; resolve: (r: Reply) => void }[] = [];
let jobs = defaultJobs();
let inFlight = 0;
let drained: (() => void)[] = [];

function defaultJobs(): number {
  const env = Number(process.env.SCHED_JOBS);
  return Number.isInteger(env) && env >= 1 ? env : Math.max(1, availableParallelism());
}

/**
 * The solver settings as a fresh process has them: the mode from SCHED_SOLVER (a property run's
 * preferNativeSolver undone), the number of jobs from SCHED_JOBS or the cores, the limits from
 * SCHED_SOLVER_LIMIT. For one process that runs several independent jobs one after another (the
 * test files, test/fresh-file-state.ts); only between jobs, with no solver running.
 */
export function resetSolverSettings(): void {
  mode = null;
  jobs = defaultJobs();
  resetSolverLimits();
}

/** The number of solver processes (`--jobs N`; default: SCHED_JOBS or the cores). */
export function setSolverJobs(n: number): void {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`solver jobs must be a positive integer, got ${n}`);
  jobs = n;
  pump();
}

export function solverJobs(): number {
  return jobs;
}

function pump(): void {
  while (queue.length > 0) {
    if (inFlight >= jobs) return;
    let p = pool.find((x) => !x.busy);
    if (p === undefined) {
      const m = currentMode();
      p = m === 'auto' ? new FallbackSolver() : m === 'z3' ? new NativeSolver() : new SolverProcess();
      pool.push(p);
    }
    const job = queue.shift()!;
    const slot = p;
    slot.busy = true;
    inFlight++;
    void slot.ask(job.script, job.timeoutMs, job.route).then((r) => {
      slot.busy = false;
      inFlight--;
      job.resolve(r);
      pump();
      if (inFlight === 0 && queue.length === 0) for (const k of drained.splice(0)) k();
    });
  }
}

function ask(script: string, timeoutMs: number, route: Route): Promise<Reply> {
  if (secondDepth > 0) route = 'wasm';
  return new Promise<Reply>((resolve) => {
    queue.push({ script, timeoutMs, route, resolve });
    pump();
  });
}

export const DEFAULT_TIMEOUT_MS = 10_000;
const TRACE = process.env.SCHED_Z3_TRACE === '1';

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
    if (noModelAfterAnswer(output, m.index, m[1]!)) continue;
    return m[1]!;
  }
  return null;
}

/**
 * A `(get-model)` after a check-sat that answered unsat or unknown: Z3 says the model is not
 * available, which is the answer, not a malformed script (checkSat asks for the model in the
 * same run as the answer).
 */
function noModelAfterAnswer(output: string, at: number, message: string): boolean {
  if (!/model is not available/.test(message)) return false;
  const before = output.slice(0, at).split('\n').map((l) => l.trim()).filter((l) => l === 'sat' || l === 'unsat' || l === 'unknown');
  const last = before[before.length - 1];
  return last === 'unsat' || last === 'unknown';
}

async function runNow(script: string, timeoutMs: number, route: Route = 'fallback', remember = false): Promise<SolverAnswer> {
  if (!remembering && !remember) return runSolver(script, timeoutMs, route);
  // Keyed by who answers too: the second solver picks other models, on purpose.
  const key = `${solverName()}${secondDepth > 0 ? ' (second)' : ''} ${route} ${solverLimits()} ${timeoutMs}\n${script}`;
  const hit = remembered.get(key);
  if (hit !== undefined) {
    rememberedHits++;
    return hit;
  }
  const a = await runSolver(script, timeoutMs, route);
  const decided = a.status !== 'unknown' && a.reason === null && !a.output.split('\n').some((l) => l.trim() === 'unknown');
  if (decided) {
    if (remembered.size >= REMEMBER_LIMIT) remembered.clear();
    remembered.set(key, a);
  }
  return a;
}

async function runSolver(script: string, timeoutMs: number, route: Route): Promise<SolverAnswer> {
  const r = await ask(script, timeoutMs, route);
  calls++;
  totalMs += r.ms;
  totalWork = addWork(totalWork, r.work);
  // Profiling aid: one line per query (time, size, scopes, first answer) on stderr.
  if (TRACE) process.stderr.write(`z3: ${r.ms.toFixed(0)} ms, ${script.length} chars, ${script.split('(push 1)').length - 1} scopes, ${firstStatus(r.output) ?? '-'}${r.work ? `, ${r.work.native} native + ${r.work.wasm} wasm units` : ''}${r.limitReached ? `, resource limit of ${timeoutMs} ms reached` : ''}${netStops > 0 ? `, ${netStops} safety-net stops so far` : ''}${process.env.SCHED_Z3_TRACE_SCRIPTS ? `\n${script}\n` : ''}\n`);
  const { output, ms, timedOut } = r;
  if (r.crashed) return { status: 'unknown', output, ms, reason: r.crashed };
  const err = errorOf(output);
  const st = firstStatus(output);
  if (timedOut) return { status: 'unknown', output, ms, reason: r.cpuNet ? `timeout: the solver used ${CPU_FACTOR} times the budget of ${timeoutMs} ms in CPU time (the safety net of SCHED_SOLVER_LIMIT=rlimit)` : `timeout after ${wallMs(timeoutMs)} ms` };
  if (st === null) return { status: 'unknown', output, ms, reason: err ? `solver error: ${err}` : 'no answer' };
  if (err !== null && st !== 'unknown') {
    // An error anywhere in the script makes the answer untrustworthy: never report it.
    return { status: 'unknown', output, ms, reason: `solver error: ${err}` };
  }
  let reason: string | null = null;
  if (st === 'unknown') {
    const m = /:reason-unknown\s+"?([^")]*)"?/.exec(output);
    // Under a resource limit the reason never depends on how long the query took.
    if (r.limitReached) reason = `timeout: Z3's resource limit for a budget of ${timeoutMs} ms ran out (SCHED_SOLVER_LIMIT=rlimit)`;
    else reason = m ? m[1]!.trim() : solverLimits() === 'time' && ms >= timeoutMs ? `timeout after ${timeoutMs} ms` : 'solver answered unknown';
  }
  return { status: st, output, ms, reason };
}

/**
 * Run one SMT-LIB script in a fresh Z3 context: on a free process of the pool, or after the
 * calls queued before it.
 */
export function runZ3(script: string, opts: RunOptions = {}): Promise<SolverAnswer> {
  return runNow(script, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'fallback', opts.remember === true);
}

/**
 * `check-sat` on a script (without its own check-sat); with a model wanted, `(get-model)` follows
 * in the same run. After unsat or unknown Z3 answers that no model is available (errorOf knows
 * that this is no error): one query, where asking again for the model of a sat answer cost a
 * second context (about 9 ms of z3 4.8.12's CPU for each `(reset)` and first check-sat, most of a
 * small query's cost).
 */
export async function checkSat(script: string, opts: RunOptions & { model?: boolean } = {}): Promise<SolverAnswer> {
  return runZ3(`${script}\n(check-sat)${opts.model ? '\n(get-model)' : ''}`, opts);
}

const MARK = 'sched-batch-boundary';

/**
 * `check-sat` of many independent scripts in one Z3 call, each in its own `push`/`pop` scope with
 * its own timeout: a call costs far more than a small query (context, threads, parsing), so small
 * Presburger obligations are decided in batches. `set-logic`/`set-info` lines are dropped from the
 * scripts (one `set-logic ALL` leads the batch). No models: ask `checkSat` for the refuted ones.
 */
export async function checkSatBatch(scripts: readonly string[], opts: RunOptions = {}): Promise<SolverAnswer[]> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const remember = opts.remember === true;
  if (currentMode() !== 'auto' || secondDepth > 0) return batchOn(scripts, timeoutMs, 'fallback', remember);
  // The command line answers the batch; only the scripts it leaves undecided go to the WASM
  // build, in one batch of their own (asking the whole batch again would redo the decided ones).
  const first = await batchOn(scripts, timeoutMs, 'native', remember);
  const open = first.flatMap((a, k) => (a.status === 'unknown' ? [k] : []));
  if (open.length === 0) return first;
  const second = await batchOn(open.map((k) => scripts[k]!), timeoutMs, 'wasm', remember);
  return first.map((a, k) => {
    const j = open.indexOf(k);
    return j < 0 ? a : { ...second[j]!, ms: a.ms + second[j]!.ms };
  });
}

async function batchOn(scripts: readonly string[], timeoutMs: number, route: Route, remember = false): Promise<SolverAnswer[]> {
  if (scripts.length === 0) return [];
  // Which build answers (a resource limit is per build): a `fallback` batch is asked only outside
  // the auto mode, or as a second opinion (the WASM build, see `ask`).
  const build: Build = route === 'native' || (route === 'fallback' && currentMode() === 'z3' && secondDepth === 0) ? 'native' : 'wasm';
  const body = scripts
    .map((sc) => {
      const clean = sc.replace(/^\(set-logic [^)]*\)\s*$/gm, '').replace(/^\(set-info :status [a-z]+\)\s*$/gm, '');
      return `(push 1)\n${limitOptions(timeoutMs, build)}\n${clean}\n(check-sat)\n(pop 1)\n(echo "${MARK}")`;
    })
    .join('\n');
  const all = await runNow(`(set-logic ALL)\n${body}`, timeoutMs * scripts.length, route, remember);
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

/** Calls and total solver milliseconds since start (for `--stats` and benchmarks), the queries
 *  answered from remembered answers (`rememberAnswers`) instead, and the solver work since start
 *  under a resource limit (Work; none under time limits). */
export function z3Stats(): { calls: number; ms: number; remembered: number; work: Work; netStops: number } {
  return { calls, ms: totalMs, remembered: rememberedHits, work: totalWork, netStops };
}

/** Stop the solver processes once every query is answered (the toolkit exits by itself anyway:
 *  the children are unreferenced while idle). */
export async function shutdownZ3(): Promise<void> {
  if (inFlight > 0 || queue.length > 0) await new Promise<void>((k) => drained.push(k));
  await Promise.all(pool.splice(0).map((p) => p.shutdown()));
}
