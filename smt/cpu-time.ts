// CPU time of one process (Linux /proc), which, unlike wall-clock time, does not grow when other
// work shares the machine. Under resource limits (smt/limits.ts) it is what the safety net of a
// query measures (the Z3 process's time, smt/z3.ts), and what the fuzzer's per-case budget counts
// of the verifier worker's own computation (proofs/fuzz/verifier.ts; its Z3 processes are not
// counted there, nor the time the kernel adds to a parent for its reaped children: their work is
// counted in resource units).

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let tickMs: number | null = null;

function msPerTick(): number {
  if (tickMs === null) {
    const hz = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim());
    tickMs = 1000 / (Number.isInteger(hz) && hz > 0 ? hz : 100);
  }
  return tickMs;
}

/** Milliseconds of CPU (user and system) used by the process itself, or null without /proc. */
export function processCpuMs(pid: number): number | null {
  if (process.platform !== 'linux') return null;
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state, ppid, …; utime and stime are
    // fields 14 and 15 of the whole line.
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * msPerTick();
  } catch {
    return null;
  }
}
