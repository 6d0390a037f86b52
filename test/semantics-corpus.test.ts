// Runs the `// RUN[ impl]: ARGS => OUTCOME [KIND]` and `// EXPLORE[ impl]: ARGS => OUTCOME` lines
// of corpus/thesis and corpus/runtime (corpus/soundness's are run by test/soundness.test.ts): the concrete behaviour each example claims (the `EXPECT`
// lines are for verifiers). The line format: test/corpus-lines.ts.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explore, smallSetup } from '../semantics/explore.ts';
import { specModel } from '../semantics/run.ts';
import { compile } from './semantics-helpers.ts';
import { parseRunLines as parseLines, runLine } from './corpus-lines.ts';

const files = ['corpus/thesis', 'corpus/runtime'].flatMap((d) =>
  readdirSync(d)
    .filter((f) => f.endsWith('.sched'))
    .sort()
    .map((f) => join(d, f)),
);

describe('corpus RUN and EXPLORE lines', () => {
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const lines = parseLines(text);
    if (lines.length === 0) continue;
    it(file, () => {
      const prog = compile(text, file);
      for (const l of lines) {
        const impls = l.impl === null ? prog.impls : prog.impls.filter((i) => i.impl.name === l.impl);
        expect(impls.length, l.text).toBeGreaterThan(0);
        for (const ci of impls) {
          if (l.kind === 'RUN') {
            const r = runLine(ci, l, file);
            expect(r.outcome, `${l.text} (${ci.impl.name}): ${r.error?.message ?? ''}`).toBe(l.outcome);
            if (l.detail !== null) expect(r.error?.kind, l.text).toBe(l.detail);
          } else {
            const model = specModel(ci, new Map([...l.params].map(([k, v]) => [k, Number(v)])), { seed: l.seed, file });
            const s = smallSetup(ci, l.params, model, { mutable: false, file });
            const r = explore(s.prog, s.space, s.init, s.globals, { maxStates: 200_000 });
            expect(r.outcome, `${l.text} (${ci.impl.name})`).toBe(l.outcome);
          }
        }
      }
    });
  }
  it('covers every run error kind', () => {
    const kinds = new Set(files.flatMap((f) => parseLines(readFileSync(f, 'utf8')).filter((l) => l.kind === 'RUN' && l.outcome === 'error').map((l) => l.detail)));
    for (const k of ['race', 'out-of-bounds', 'uninitialized']) expect(kinds.has(k)).toBe(true);
  });
});
