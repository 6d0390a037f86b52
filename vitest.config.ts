import { defineConfig } from 'vitest/config';

// z3-solver runs WASM worker threads; forks keep each test file in its own process so
// that solver threads never leak between files.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The default reporter, then the names of files and tests a dead worker left unfinished.
    reporters: ['default', './test/unfinished-reporter.ts'],
    setupFiles: ['./test/unfinished-setup.ts'],
  },
});
