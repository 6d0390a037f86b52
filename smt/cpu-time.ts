// CPU time of one process (Linux /proc), which, unlike wall-clock time, does not grow when other
// work shares the machine. Under resource limits (smt/limits.ts) it is what the safety net of a
// query measures (the Z3 process's time, smt/z3.ts), and what the fuzzer's per-case budget counts
// of the verifier worker's own computation (proofs/fuzz/verifier.ts; its Z3 processes are not
// counted there, nor the time the kernel adds to a parent for its reaped children: their work is
// counted in resource units), or, for the MLIR fuzzer, of the worker and its Z3 processes together
// (treeCpuMs), as a runaway guard.

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let tickMs: number | null = null;

function msPerTick(): number {
  if (tickMs === null) {
    const hz = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim());
    tickMs = 1000 / (Number.isInteger(hz) && hz > 0 ? hz : 100);
  }
  return tickMs;
}

/** The clock ticks of /proc/PID/stat: utime, stime, cutime, cstime (fields 14–17), or null. */
function statTicks(pid: number): readonly number[] | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state, ppid, …
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return [Number(f[11]), Number(f[12]), Number(f[13]), Number(f[14])];
  } catch {
    return null;
  }
}

/** Milliseconds of CPU (user and system) used by the process itself, or null without /proc. */
export function processCpuMs(pid: number): number | null {
  if (process.platform !== 'linux') return null;
  const t = statTicks(pid);
  return t === null ? null : (t[0]! + t[1]!) * msPerTick();
}

/** The processes below `pid` (children, their children, …), from /proc; [] without it. */
export function descendantPids(pid: number): number[] {
  if (process.platform !== 'linux') return [];
  const out: number[] = [];
  const todo = [pid];
  while (todo.length > 0) {
    const p = todo.pop()!;
    let kids: number[] = [];
    try {
      kids = readdirSync(`/proc/${p}/task`).flatMap((t) => {
        try {
          return readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').split(' ').filter((x) => x.trim() !== '').map(Number);
        } catch {
          return [];
        }
      });
    } catch {
      // ended
    }
    for (const k of kids) {
      out.push(k);
      todo.push(k);
    }
  }
  return out;
}

/**
 * Milliseconds of CPU used by the process and everything below it: itself, the children it
 * reaped (cutime, cstime), and those still running; or null without /proc. A child that ends
 * between two readings moves from the second term to the first once reaped (a Z3 process
 * restarted after its safety net fired), so the total only grows.
 */
export function treeCpuMs(pid: number): number | null {
  if (process.platform !== 'linux') return null;
  const own = statTicks(pid);
  if (own === null) return null;
  let ticks = own.reduce((a, b) => a + b, 0);
  for (const d of descendantPids(pid)) ticks += statTicks(d)?.reduce((a, b) => a + b, 0) ?? 0;
  return ticks * msPerTick();
}
