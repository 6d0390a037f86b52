// A vitest reporter that names what never finished. When a test worker dies (out of memory, a
// crash in a native child), vitest reports only "Worker exited unexpectedly": it does not say
// which file or test was running. This reporter prints, after the summary (so that the tail of a
// CI log shows it), every file that started without a result and its tests that were started
// without one, with how long they had been running. A run where everything finished prints nothing.

import { readFileSync, rmSync } from 'node:fs';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { runningDir, runningFile } from './unfinished-files.ts';

const seconds = (ms: number): string => `${(ms / 1000).toFixed(0)} s`;

export default class UnfinishedReporter implements Reporter {
  private readonly moduleStart = new Map<string, number>();
  private readonly caseStart = new Map<string, number>();

  onTestModuleStart(m: TestModule): void {
    this.moduleStart.set(m.moduleId, Date.now());
  }

  onTestCaseReady(t: TestCase): void {
    this.caseStart.set(t.id, Date.now());
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const now = Date.now();
    const lines: string[] = [];
    for (const m of modules) {
      const state = m.state();
      if (state === 'passed' || state === 'failed' || state === 'skipped') continue;
      const started = this.moduleStart.get(m.moduleId);
      lines.push(`unfinished file: ${m.relativeModuleId} (${state}${started ? `, started ${seconds(now - started)} before the end` : ', never started'})`);
      // What the worker itself last recorded (test/unfinished-setup.ts): it names the test even
      // when a synchronous block kept the worker from reporting anything.
      try {
        const [name, at] = readFileSync(runningFile(process.pid, m.moduleId), 'utf8').split('\n');
        lines.push(`  last test started by its worker: ${name} (${seconds(now - Number(at))} before the end)`);
      } catch { /* the worker started no test */ }
      for (const t of m.children.allTests()) {
        const r = t.result().state;
        if (r !== 'pending') continue;
        const s = this.caseStart.get(t.id);
        if (s !== undefined) lines.push(`  unfinished test: ${t.fullName} (started ${seconds(now - s)} before the end)`);
      }
    }
    rmSync(runningDir(process.pid), { recursive: true, force: true });
    if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}
