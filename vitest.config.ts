import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirst from './test/sequencer.ts';
import { SAFETY_NET_MS } from './test/safety-net.ts';
import { DEEP } from './test/tier.ts';

// The deep tier (`npm run test:deep`, test/tier.ts) runs again only the files whose counts or
// samples depend on the tier: those that import test/tier.ts or test/props-helpers.ts.
function tiered(): string[] {
  return readdirSync('test')
    .filter((f) => f.endsWith('.test.ts'))
    .filter((f) => /from '\.\/(tier|props-helpers)\.ts'/.test(readFileSync(`test/${f}`, 'utf8')))
    .map((f) => `test/${f}`);
}

// z3-solver runs WASM worker threads; forks keep them in the worker processes, out of vitest's
// own, and each file's afterAll(shutdownZ3) ends them before the next file of that worker.
export default defineConfig({
  test: {
    include: DEEP ? tiered() : ['test/**/*.test.ts'],
    pool: 'forks',
    // The files share their workers' module registries (each module is loaded once per worker, not
    // once per file: about a minute less of `npm test` on 2 cores), and each file starts from a
    // fresh process's state all the same (test/fresh-file-state.ts).
    isolate: false,
    // One test file per core. Vitest's default in run mode is the cores minus one, which on a
    // 2-core machine is a single worker: the suite ran its files one after the other (806 s of
    // test time in 831 s of wall time, 760 s of CPU).
    maxWorkers: Math.max(1, availableParallelism()),
    // Longest files first, from durations recorded in the repository when vitest has none cached.
    sequence: { sequencer: LongestFirst },
    // Wall-clock limits are safety nets only (test/safety-net.ts): no test's outcome may depend on
    // how long it ran on a loaded machine. Tests set no timeouts of their own.
    testTimeout: SAFETY_NET_MS,
    hookTimeout: SAFETY_NET_MS,
    // The default reporter, then the names of files and tests a dead worker left unfinished.
    reporters: ['default', './test/unfinished-reporter.ts'],
    setupFiles: ['./test/unfinished-setup.ts', './test/fresh-file-state.ts'],
  },
});
