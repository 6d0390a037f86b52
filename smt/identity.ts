// Which Z3 builds answer, with their versions: a resource limit (smt/limits.ts) gives the same
// answers only with the same builds, so a fuzz campaign's shards record it and merging refuses
// shards answered by other ones. Node only (the browser build of smt/z3.ts does not import it).

import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { solverName } from './z3.ts';

let cached: string | null = null;

/** E.g. "z3 4.8.12, z3-wasm (z3-solver 5.2.0)". */
export function solverIdentity(): string {
  if (cached !== null) return cached;
  const names = solverName().split(', ');
  const out = names.map((n) => {
    if (n === 'z3') {
      const v = /version (\S+)/.exec(spawnSync('z3', ['-version'], { encoding: 'utf8' }).stdout ?? '');
      return `z3 ${v ? v[1] : 'unknown version'}`;
    }
    const pkg = createRequire(import.meta.url)('z3-solver/package.json') as { version: string };
    return `z3-wasm (z3-solver ${pkg.version})`;
  });
  cached = out.join(', ');
  return cached;
}
