// proofs/fuzz/cpu-time.ts: the CPU time of a process tree, which the fuzzer's verification budget
// counts under resource limits (proofs/fuzz/verifier.ts). A grandchild's work counts, while it
// runs and after it ended; a process that does not exist has none.

import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { treeCpuMs } from '../proofs/fuzz/cpu-time.ts';

const linux = process.platform === 'linux';

// A child that starts a grandchild burning 600 ms of CPU (whatever the load), waits for it, then idles.
const PARENT = `
const { spawnSync } = require('node:child_process');
spawnSync(process.execPath, ['-e', 'while (process.cpuUsage().user < 600000) {}']);
process.stdout.write('done\\n');
setTimeout(() => {}, 60000);
`;

describe.skipIf(!linux)('CPU time of a process tree', () => {
  it('counts a grandchild that ended, and nothing for a process that does not exist', async () => {
    const c = spawn(process.execPath, ['-e', PARENT], { stdio: ['ignore', 'pipe', 'ignore'] });
    const before = treeCpuMs(c.pid!);
    expect(before).not.toBeNull();
    await new Promise<void>((resolve) => c.stdout!.once('data', () => resolve()));
    const after = treeCpuMs(c.pid!)!;
    c.kill();
    expect(after - before!).toBeGreaterThanOrEqual(500);
    expect(treeCpuMs(2 ** 22 + 12345)).toBeNull();
  }, 30_000);
});
if (!linux) it('(not Linux: no /proc, the verifier budget stays wall-clock time)', () => undefined);
