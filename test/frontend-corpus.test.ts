// The front end on the corpus: every example (corpus/examples) checks cleanly; every file of
// corpus/errors is rejected with the diagnostic its `// ERROR: LINE:COL message` line announces,
// located at file:line:col and saying what was expected and what was found.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSource } from '../core/language/check.ts';
import { formatDiagnostic, SchedInputError } from '../core/language/diagnostics.ts';
import { shutdownZ3 } from '../smt/z3.ts';

afterAll(shutdownZ3);

const ROOT = join(import.meta.dirname, '..');
const EXAMPLES = join(ROOT, 'corpus', 'examples');
const ERRORS = join(ROOT, 'corpus', 'errors');

function schedFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sched'))
    .sort();
}

/** Run the in-process `sched check`; the SchedInputError when it fails, null when it succeeds. */
async function rejection(file: string, text: string): Promise<SchedInputError | null> {
  try {
    await checkSource(file, text);
    return null;
  } catch (e) {
    if (e instanceof SchedInputError) return e;
    throw e;
  }
}

describe('corpus/examples check cleanly', () => {
  for (const f of schedFiles(EXAMPLES)) {
    it(f, async () => {
      const path = join('corpus', 'examples', f);
      const text = readFileSync(join(ROOT, path), 'utf8');
      const prog = await checkSource(path, text);
      // EXPECT lines: one per impl in order, or named (docs/language.md §1).
      const expects = [...text.matchAll(/^\/\/ EXPECT(?: ([A-Za-z_][A-Za-z0-9_]*))?: (valid|invalid|unknown)\b/gm)];
      const names = prog.impls.map((m) => m.impl.name);
      expect(expects.length).toBe(names.length);
      const named = expects.filter((m) => m[1] !== undefined).map((m) => m[1]);
      if (named.length > 0) expect(new Set(named)).toEqual(new Set(names));
    });
  }
});

describe('corpus/errors are rejected with their declared diagnostic', () => {
  const files = schedFiles(ERRORS);
  it('holds at least 40 files', () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
  });
  for (const f of files) {
    it(f, async () => {
      const path = join('corpus', 'errors', f);
      const text = readFileSync(join(ROOT, path), 'utf8');
      const m = /^\/\/ ERROR: (\d+):(\d+) (.+)$/m.exec(text);
      expect(m, 'the file declares its error').not.toBeNull();
      const err = await rejection(path, text);
      expect(err, 'the file is rejected').not.toBeNull();
      const d = err!.diagnostics[0]!;
      expect(`${d.line}:${d.col}`).toBe(`${m![1]}:${m![2]}`);
      expect(d.message).toContain(m![3]!.trim());
      expect(d.file).toBe(path);
      expect(d.expected).toBeTruthy();
      expect(d.found).toBeTruthy();
      for (const x of err!.diagnostics) {
        expect(formatDiagnostic(x)).toMatch(new RegExp(`^${path.replace(/[.]/g, '\\.')}:\\d+:\\d+: error: .+ \\(expected .+, found .+\\)$`, 's'));
      }
    });
  }
});

describe('messages that name what is wrong', () => {
  it('A(i) = A(i) + 1 is rejected with a message naming the equation', async () => {
    const text = 'spec s {\n  tensor A(i): f32;\n  A(i) = A(i) + 1.0;\n}\n';
    const err = await rejection('self.sched', text);
    const d = err!.diagnostics[0]!;
    expect([d.line, d.col]).toEqual([3, 3]);
    expect(d.message).toContain("equation 1 of 'A' (line 3)");
    expect(d.message).toContain('not well founded');
  });
  it('overlapping domains are rejected with a message naming both equations and a witness', async () => {
    const text = 'spec s {\n  param N;\n  tensor A(i): f32;\n  A(i) = 0.0 where i <= N;\n  A(i) = 1.0 where i >= N;\n}\n';
    const err = await rejection('overlap.sched', text);
    const d = err!.diagnostics[0]!;
    expect(d.message).toContain("equation 1 of 'A' (line 4)");
    expect(d.message).toContain("equation 2 of 'A' (line 5)");
    expect(d.message).toMatch(/both define A\((-?\d+)\) when N = \1/);
  });
});
