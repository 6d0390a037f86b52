// The worker thread of the `sched` bin (cli/sched.js). When dist/ holds the compiled sources as
// they are now (`npm run build`, run by `npm ci`; cli/freshness.js decides), it runs them: no
// TypeScript compilation at start-up. Otherwise, or with SCHED_FROM_SOURCE=1, the TypeScript
// sources through tsx. `serve` always runs from the sources (it bundles web/page, which dist/
// does not hold).
import { workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { staleness } from './freshness.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const why = workerData?.fromSource ? 'serve runs from the sources' : process.env.SCHED_FROM_SOURCE ? 'SCHED_FROM_SOURCE is set' : staleness(ROOT);
if (process.env.SCHED_DEBUG) process.stderr.write(`sched: running ${why === null ? 'dist/ (compiled)' : `the sources through tsx: ${why}`}\n`);
if (why === null) {
  await import('../dist/cli/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./main.ts');
}
