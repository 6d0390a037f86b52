import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirst from './test/sequencer.ts';

// z3-solver runs WASM worker threads; forks keep each test file in its own process so
// that solver threads never leak between files.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // One test file per core. Vitest's default in run mode is the cores minus one, which on a
    // 2-core machine is a single worker: the suite ran its files one after the other (806 s of
    // test time in 831 s of wall time, 760 s of CPU).
    maxWorkers: Math.max(1, availableParallelism()),
    // Longest files first, from durations recorded in the repository when vitest has none cached.
    sequence: { sequencer: LongestFirst },
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The default reporter, then the names of files and tests a dead worker left unfinished.
    reporters: ['default', './test/unfinished-reporter.ts'],
    setupFiles: ['./test/unfinished-setup.ts'],
  },
});
