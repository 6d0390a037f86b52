// Where test/unfinished-setup.ts records the test each file is running: one small file per test
// file, in a folder of the vitest process (the workers' parent) under the system's temporary folder.

import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const runningDir = (vitestPid: number): string => join(tmpdir(), `sched-vitest-running-${vitestPid}`);

export const runningFile = (vitestPid: number, testFile: string): string =>
  join(runningDir(vitestPid), createHash('sha1').update(testFile).digest('hex').slice(0, 16));
