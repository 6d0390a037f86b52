// `sched serve` is one process that stops when asked: by its own PID (the one it prints), and,
// when npm started it (`npx sched serve`, `npm run serve`: npm's PID is the one a user has, and
// npm runs the bin through `sh -c`), when npm or that shell is gone (cli/sched.js).

import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/** Start `sched serve` under `sh -c` with npm's environment, as `npx sched serve` does; its process id once it serves. */
async function serveUnderShell(): Promise<{ shell: ChildProcess; pid: number }> {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_command: 'exec' };
  // `; true` keeps the shell between, as npm's `sh -c` is.
  const shell = spawn('sh', ['-c', `${JSON.stringify(process.execPath)} cli/sched.js serve --port 0; true`], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const pid = await new Promise<number>((resolve, reject) => {
    shell.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /sched playground: http:\/\/\S+ \(process (\d+): stop it with Ctrl-C or kill \1\)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    shell.on('exit', () => reject(new Error(`sched serve stopped before serving: ${out}`)));
  });
  return { shell, pid };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('sched serve as a process', () => {
  it('stops when the npm process (or the shell) that started it is gone, and prints the PID that stops it', async () => {
    const viaNpm = await serveUnderShell();
    expect(viaNpm.pid).not.toBe(viaNpm.shell.pid);
    // The parent is killed outright: nothing is forwarded to the server.
    viaNpm.shell.kill('SIGKILL');
    await expect.poll(() => alive(viaNpm.pid), { timeout: 60_000, interval: 200 }).toBe(false);
  }, 120_000);
});
