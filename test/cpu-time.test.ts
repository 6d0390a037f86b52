// smt/cpu-time.ts: the CPU time of one process, which the fuzzer's verification budget
// counts for the verifier worker itself under resource limits (proofs/fuzz/verifier.ts; its
// solvers are counted in resource units instead). The process's own work counts, a child's does
// not, while it runs or after it ended; a process that does not exist has none.

import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processCpuMs } from '../smt/cpu-time.ts';

const linux = process.platform === 'linux';

// Burns 400 ms of CPU itself, then has a child burn 400 ms, waits for it, and idles.
const PARENT = `
const { spawnSync } = require('node:child_process');
while (process.cpuUsage().user < 400000) {}
process.stdout.write('burnt\\n');
spawnSync(process.execPath, ['-e', 'while (process.cpuUsage().user < 400000) {}']);
process.stdout.write('child done\\n');
setTimeout(() => {}, 60000);
`;

describe.skipIf(!linux)('CPU time of a process', () => {
  it('counts the process\'s own work, not its child\'s, and nothing for a process that does not exist', async () => {
    const c = spawn(process.execPath, ['-e', PARENT], { stdio: ['ignore', 'pipe', 'ignore'] });
    const before = processCpuMs(c.pid!);
    expect(before).not.toBeNull();
    const lines: string[] = [];
    const line = (): Promise<void> => new Promise<void>((resolve) => c.stdout!.once('data', (d: Buffer) => { lines.push(...d.toString().trim().split('\n')); resolve(); }));
    await line();
    const burnt = processCpuMs(c.pid!)!;
    if (!lines.includes('child done')) await line();
    const after = processCpuMs(c.pid!)!;
    c.kill();
    expect(burnt - before!).toBeGreaterThanOrEqual(300);
    // Its child's 400 ms are not its own (start-up and the wait cost it a little).
    expect(after - burnt).toBeLessThan(200);
    expect(processCpuMs(2 ** 22 + 12345)).toBeNull();
  });
});
if (!linux) it('(not Linux: no /proc, the verifier budget stays wall-clock time)', () => undefined);
