// Set-up for every test file (vitest.config.ts): before each test, the name of the test now
// running is written to a file of its own, synchronously. A test that blocks its worker (a
// synchronous loop, memory exhausted) sends vitest no more events, so only this file can tell
// test/unfinished-reporter.ts which test it was.

import { afterAll, beforeEach } from 'vitest';
import { runningFile } from './unfinished-files.ts';
import { mkdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

let record: string | null = null;

beforeEach((ctx) => {
  const names: string[] = [];
  for (let t: { name: string; suite?: unknown } | undefined = ctx.task; t && t.name; t = t.suite as typeof t) names.unshift(t.name);
  record = runningFile(process.ppid, ctx.task.file.filepath);
  mkdirSync(dirname(record), { recursive: true });
  writeFileSync(record, `${names.join(' > ')}\n${Date.now()}\n`);
});

// A file that ends needs no record; removing it here also leaves nothing behind when another
// reporter (`--reporter=dot`) replaces the one that would clean up.
afterAll(() => {
  if (record === null) return;
  rmSync(record, { force: true });
  try { rmdirSync(dirname(record)); } catch { /* other files still running */ }
});
