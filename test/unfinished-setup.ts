// Set-up for every test file (vitest.config.ts): before each test, the name of the test now
// running is written to a file of its own, synchronously. A test that blocks its worker (a
// synchronous loop, memory exhausted) sends vitest no more events, so only this file can tell
// test/unfinished-reporter.ts which test it was.

import { beforeEach } from 'vitest';
import { runningFile } from './unfinished-files.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

beforeEach((ctx) => {
  const names: string[] = [];
  for (let t: { name: string; suite?: unknown } | undefined = ctx.task; t && t.name; t = t.suite as typeof t) names.unshift(t.name);
  const f = runningFile(process.ppid, ctx.task.file.filepath);
  mkdirSync(dirname(f), { recursive: true });
  writeFileSync(f, `${names.join(' > ')}\n${Date.now()}\n`);
});
