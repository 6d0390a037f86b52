// CPU time of a process and of every process below it (Linux /proc), so that the fuzzer's
// per-case verification budget can count work rather than wall-clock time under resource limits
// (smt/limits.ts): a case that takes 80 s on one core and 180 s beside another shard is then
// judged alike. The Z3 processes of the verifier worker are its children: their time counts too,
// and so does that of children already ended (the kernel adds a reaped child's time to its parent).

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

function stat(pid: number): { ppid: number; ticks: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state, ppid, …; utime, stime,
    // cutime, cstime are fields 14–17 of the whole line.
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
  } catch {
    return null;
  }
}

/** Milliseconds of CPU used by `root` and its descendants, or null where /proc is not there. */
export function treeCpuMs(root: number): number | null {
  if (process.platform !== 'linux') return null;
  const info = new Map<number, { ppid: number; ticks: number }>();
  let dirs: string[];
  try {
    dirs = readdirSync('/proc');
  } catch {
    return null;
  }
  for (const d of dirs) {
    if (!/^\d+$/.test(d)) continue;
    const s = stat(Number(d));
    if (s !== null) info.set(Number(d), s);
  }
  if (!info.has(root)) return null;
  const children = new Map<number, number[]>();
  for (const [p, s] of info) {
    const list = children.get(s.ppid);
    if (list) list.push(p);
    else children.set(s.ppid, [p]);
  }
  let ticks = 0;
  const stack = [root];
  while (stack.length > 0) {
    const p = stack.pop()!;
    ticks += info.get(p)!.ticks;
    stack.push(...(children.get(p) ?? []));
  }
  return ticks * msPerTick();
}
