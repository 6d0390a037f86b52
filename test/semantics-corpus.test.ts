// Runs the `// RUN[ impl]: ARGS => OUTCOME [KIND]` and `// EXPLORE[ impl]: ARGS => OUTCOME` lines
// of corpus/thesis and corpus/runtime: the concrete behaviour each example claims (the `EXPECT`
// lines are for verifiers). ARGS: `--param N=4`, `--seed S`, `--omega`.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explore, smallSetup } from '../semantics/explore.ts';
import { runImpl, specModel } from '../semantics/run.ts';
import { compile } from './semantics-helpers.ts';

interface Line {
  readonly kind: 'RUN' | 'EXPLORE';
  readonly impl: string | null;
  readonly params: Map<string, bigint>;
  readonly seed: number;
  readonly omega: boolean;
  readonly outcome: string;
  readonly detail: string | null;
  readonly text: string;
}

function parseLines(text: string): Line[] {
  const out: Line[] = [];
  for (const raw of text.split('\n')) {
    const m = /^\/\/ (RUN|EXPLORE)(?: ([A-Za-z_][A-Za-z0-9_]*))?: (.*?)=> (\S+)(?: (\S+))?\s*$/.exec(raw);
    if (!m) continue;
    const params = new Map<string, bigint>();
    let seed = 0;
    let omega = false;
    const args = m[3]!.trim().split(/\s+/).filter(Boolean);
    for (let i = 0; i < args.length; i++) {
      if (args[i] === '--param') {
        const [k, v] = args[++i]!.split('=');
        params.set(k!, BigInt(v!));
      } else if (args[i] === '--seed') seed = Number(args[++i]);
      else if (args[i] === '--omega') omega = true;
      else throw new Error(`unknown argument ${args[i]} in '${raw}'`);
    }
    out.push({ kind: m[1] as Line['kind'], impl: m[2] ?? null, params, seed, omega, outcome: m[4]!, detail: m[5] ?? null, text: raw });
  }
  return out;
}

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
            const r = runImpl(ci, l.params, { seed: l.seed, omega: l.omega, file }).report;
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
