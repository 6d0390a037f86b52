// The order test files start in: the longest first, so that on a few workers the last file to
// finish is a short one. Vitest orders by the durations of its cache of earlier runs, which a
// fresh checkout (CI) does not have: it then runs the largest files first, and a short file with
// a long property run (props-reductions: 22 lines, 90 s) started last, on one worker, while the
// other idled (355 s against 290 s with the cache). test/durations.json holds the durations of a
// whole run on the 2-core machine for that case (`npm run test:durations` writes it again from
// the cache of the last run). A file known to neither starts first, as vitest does; a file that
// failed last time too.

import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

function recorded(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = recorded();
    const root = this.ctx.config.root;
    const key = (f: TestSpecification): number => {
      const file = relative(root, f.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${f.project.name}:${file}`);
      if (cached?.failed) return Number.POSITIVE_INFINITY;
      return cached?.duration ?? durations[file] ?? Number.POSITIVE_INFINITY;
    };
    const keyed = files.map((f) => ({ f, d: key(f) }));
    return keyed.sort((a, b) => (b.d === a.d ? 0 : b.d > a.d ? 1 : -1)).map(({ f }) => f);
  }
}
