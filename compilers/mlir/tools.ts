// Debian's MLIR 16 on this machine: where `mlir-opt`, `mlir-cpu-runner` and the runner's support
// libraries are, what is missing (naming the packages), and how a tool is run: under a CPU-time
// limit (RLIMIT_CPU through prlimit, counted in the child's own CPU seconds) with a wall-clock
// safety net, so a pass that never ends (affine-pipeline-data-transfer can) is killed and reported.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const MLIR_PACKAGES = 'mlir-16-tools libmlir-16';
export const INSTALL_HINT = `apt-get install -y ${MLIR_PACKAGES}`;

export interface MlirTools {
  readonly opt: string;
  readonly runner: string;
  /** libmlir_c_runner_utils and libmlir_runner_utils, for `--shared-libs`. */
  readonly sharedLibs: readonly string[];
}

const BIN_DIR = '/usr/lib/llvm-16/bin';
const LIB_DIR = '/usr/lib/llvm-16/lib';

function candidates(): { opt: string[]; runner: string[]; libDir: string } {
  const bin = process.env['SCHED_MLIR_BIN_DIR'];
  const lib = process.env['SCHED_MLIR_LIB_DIR'];
  return {
    opt: bin ? [`${bin}/mlir-opt`] : [`${BIN_DIR}/mlir-opt`, '/usr/bin/mlir-opt-16'],
    runner: bin ? [`${bin}/mlir-cpu-runner`] : [`${BIN_DIR}/mlir-cpu-runner`, '/usr/bin/mlir-cpu-runner-16'],
    libDir: lib ?? LIB_DIR,
  };
}

let found: MlirTools | string | undefined;

function locate(): MlirTools | string {
  const c = candidates();
  const opt = c.opt.find((p) => existsSync(p));
  const runner = c.runner.find((p) => existsSync(p));
  const libs = ['libmlir_c_runner_utils.so.16', 'libmlir_runner_utils.so.16'].map((l) => `${c.libDir}/${l}`);
  const missing: string[] = [];
  if (opt === undefined) missing.push(`mlir-opt (${c.opt.join(' or ')}; package mlir-16-tools)`);
  if (runner === undefined) missing.push(`mlir-cpu-runner (${c.runner.join(' or ')}; package mlir-16-tools)`);
  for (const l of libs) if (!existsSync(l)) missing.push(`${l} (package libmlir-16)`);
  if (missing.length > 0) return `MLIR 16 is not installed: missing ${missing.join(', ')}; install the Debian packages ${MLIR_PACKAGES} (${INSTALL_HINT})`;
  const v = spawnSync(opt!, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  if (v.error || v.status !== 0) return `${opt} does not run (${v.error?.message ?? `exit ${v.status}`}); reinstall ${MLIR_PACKAGES}`;
  if (!/version 16\./.test(v.stdout)) return `${opt} is not MLIR 16 (${v.stdout.trim().split('\n').find((l) => /version/.test(l)) ?? 'unknown version'}); the MLIR path needs ${MLIR_PACKAGES}`;
  return { opt: opt!, runner: runner!, sharedLibs: libs };
}

/** null when MLIR 16 is usable; otherwise what is missing and which packages to install. */
export function mlirMissing(): string | null {
  if (found === undefined) found = locate();
  return typeof found === 'string' ? found : null;
}

/** The tools (throws MlirRunError 'missing' when they are absent). */
export function mlirTools(): MlirTools {
  if (found === undefined) found = locate();
  if (typeof found === 'string') throw new MlirRunError('missing', found);
  return found;
}

/** Why a tool run gave no usable answer (the input's own errors are MlirInputError instead). */
export type MlirFailure =
  /** MLIR 16 is not installed. */
  | 'missing'
  /** The CPU-time limit or the wall-clock safety net was hit (which one is in the message). */
  | 'limit'
  /** mlir-opt or mlir-cpu-runner crashed (a signal, LLVM's crash banner): a compiler bug, not the input's. */
  | 'crash'
  /** A pass reported an error on an input that parses and verifies. */
  | 'pass-failed'
  /** The module could not be lowered to the LLVM dialect for the runner (e.g. DMA ops). */
  | 'lowering'
  /** The lowered program failed while running (a signal in JIT code: out-of-bounds access, division by zero). */
  | 'runtime';

export class MlirRunError extends Error {
  constructor(
    readonly kind: MlirFailure,
    message: string,
    readonly stderr = '',
  ) {
    super(message);
    this.name = 'MlirRunError';
  }
}

export interface ToolLimits {
  /** CPU-time limit of the child, in milliseconds (rounded up to whole seconds: RLIMIT_CPU's unit). */
  readonly limitMs?: number;
}

export const DEFAULT_LIMIT_MS = 20_000;
/** Address-space limit: a runaway pass or program must not take the shared machine's memory. */
const ADDRESS_SPACE = 4 * 1024 * 1024 * 1024;

export interface ToolRun {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall-clock milliseconds (a measurement for reports, never part of a result). */
  readonly ms: number;
  /** Which limit stopped the child, if one did. */
  readonly limited: 'cpu' | 'wall' | null;
}

let prlimit: boolean | undefined;

/** Run BIN ARGS with INPUT on stdin under the limits. */
export function runTool(bin: string, args: readonly string[], input: string, limits: ToolLimits = {}): ToolRun {
  const limitMs = limits.limitMs ?? DEFAULT_LIMIT_MS;
  const cpuSeconds = Math.max(1, Math.ceil(limitMs / 1000));
  if (prlimit === undefined) prlimit = existsSync('/usr/bin/prlimit');
  const [cmd, argv] = prlimit
    ? ['/usr/bin/prlimit', [`--cpu=${cpuSeconds}`, `--as=${ADDRESS_SPACE}`, '--', bin, ...args]]
    : [bin, [...args]];
  // The wall-clock net is far beyond the CPU limit: on a loaded machine the CPU limit decides.
  const wallMs = prlimit ? 4 * cpuSeconds * 1000 + 10_000 : limitMs;
  const t0 = performance.now();
  const r = spawnSync(cmd, argv, { input, encoding: 'utf8', timeout: wallMs, killSignal: 'SIGKILL', maxBuffer: 1 << 30 });
  const ms = performance.now() - t0;
  if (r.error && (r.error as NodeJS.ErrnoException).code !== 'ETIMEDOUT') throw new MlirRunError('missing', `${bin} did not start: ${r.error.message}`);
  const timedOut = r.error !== undefined && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT';
  const limited = timedOut ? 'wall' : r.signal === 'SIGXCPU' || (r.signal === 'SIGKILL' && prlimit) ? 'cpu' : null;
  return { status: r.status, signal: r.signal, stdout: r.stdout ?? '', stderr: r.stderr ?? '', ms, limited };
}

/** The limit message of a run that a limit stopped. */
export function limitMessage(what: string, run: ToolRun, limits: ToolLimits): string {
  const limitMs = limits.limitMs ?? DEFAULT_LIMIT_MS;
  return run.limited === 'cpu'
    ? `${what} exceeded its CPU-time limit of ${Math.ceil(limitMs / 1000)} s and was killed (a safety net, not a result)`
    : `${what} exceeded the wall-clock safety net after ${Math.round(run.ms)} ms and was killed (not a result)`;
}

/** LLVM's crash banner or a fatal signal other than a limit's. */
export function crashed(run: ToolRun): boolean {
  if (run.limited !== null) return false;
  return (run.signal !== null && run.signal !== 'SIGXCPU') || /PLEASE submit a bug report|Stack dump:/.test(run.stderr);
}
