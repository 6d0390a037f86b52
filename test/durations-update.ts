// Writes test/durations.json (see test/sequencer.ts) from vitest's cache of the last runs: run
// the whole suite first (`npm test`), then `npm run test:durations`. Milliseconds, rounded.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const base = 'node_modules/.vite/vitest';
const out: Record<string, number> = {};
for (const d of readdirSync(base)) {
  let results: [string, { duration?: number }][];
  try {
    results = (JSON.parse(readFileSync(join(base, d, 'results.json'), 'utf8')) as { results: [string, { duration?: number }][] }).results;
  } catch {
    continue;
  }
  for (const [k, v] of results) {
    const file = k.slice(k.indexOf(':') + 1);
    if (typeof v.duration === 'number' && file.startsWith('test/')) out[file] = Math.round(v.duration);
  }
}
const sorted = Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync('test/durations.json', `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(sorted).length} files`);
