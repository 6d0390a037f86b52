// Robustness of `sched check` on broken input (issue 2): valid corpus files are mutated (tokens,
// characters, lines, truncation, lines spliced from other files) and the in-process equivalent of
// `sched check` must end either in success or in a SchedInputError (exit code 0 or 3) whose
// diagnostics are located and say what was expected and what was found. Accepted mutants must
// also survive the printer round trip.
//
// Z3 cost: answers of identical batches and queries are remembered (smt/z3.ts), so a mutant whose
// specs are unchanged asks the solver nothing; a spec may make at most SOLVER_CALLS calls to Z3
// (a batch of queries each, QUERY_MS per query, remembered or not); past that it gets the "could
// not check within the solver budget" diagnostic, which is an input error as well.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { checkSource } from '../core/language/check.ts';
import { SchedInputError } from '../core/language/diagnostics.ts';
import { parseProgram } from '../core/language/parser.ts';
import { printProgram } from '../core/language/printer.ts';
import { typecheckProgram } from '../core/language/typecheck.ts';
import { mutantArb, mutate } from '../proofs/metatheory/gen/mutate.ts';
import { stripPositions } from '../proofs/metatheory/gen/syntax.ts';
import { shutdownZ3, z3Stats } from '../smt/z3.ts';
import { cases } from './tier.ts';

afterAll(shutdownZ3);

const RUNS = Number(process.env.SCHED_MUTATION_RUNS ?? cases(2_000, 10_000));
const SOLVER_CALLS = 8;
const QUERY_MS = 2000;

const CORPUS = join(import.meta.dirname, '..', 'corpus');
function texts(dir: string): string[] {
  const d = join(CORPUS, dir);
  if (!existsSync(d)) return [];
  return readdirSync(d)
    .filter((f) => f.endsWith('.sched'))
    .sort()
    .map((f) => readFileSync(join(d, f), 'utf8'));
}
/** Files to mutate: the examples and the (small) thesis ports, those that check cleanly. */
const CANDIDATES = [...texts('examples'), ...texts('thesis')];
const SOURCES: string[] = [];
/** Lines to splice in come from the whole corpus, errors included. */
const LINES = [...CANDIDATES, ...texts('halide'), ...texts('errors')].flatMap((s) => s.split('\n'));

type Outcome = 'ok' | 'syntax' | 'type' | 'scope' | 'spec' | 'io';

/** The in-process `sched check` of one text: its outcome, or an exception that is a bug. */
async function check(text: string): Promise<Outcome> {
  try {
    const checked = await checkSource('mutant.sched', text, { maxSolverCalls: SOLVER_CALLS, queryMs: QUERY_MS });
    // An accepted program prints and parses back to itself, and still type-checks.
    const again = parseProgram('mutant.sched', printProgram(checked.program));
    expect(stripPositions(again)).toEqual(stripPositions(checked.program));
    typecheckProgram(again);
    return 'ok';
  } catch (e) {
    if (!(e instanceof SchedInputError)) throw e;
    expect(e.diagnostics.length).toBeGreaterThan(0);
    for (const d of e.diagnostics) {
      expect(d.file).toBe('mutant.sched');
      expect(d.line).toBeGreaterThanOrEqual(1);
      expect(d.col).toBeGreaterThanOrEqual(1);
      expect(d.message.length).toBeGreaterThan(0);
      expect(d.expected).toBeTruthy();
      expect(d.found).toBeTruthy();
    }
    return e.diagnostics[0]!.phase;
  }
}

it('finds the sources that check cleanly (with the budget of the mutants)', async () => {
  // This also fills the cache of solver answers: mutants that leave a spec alone reuse them.
  for (const s of CANDIDATES) {
    try {
      await checkSource('source.sched', s, { queryMs: QUERY_MS });
      SOURCES.push(s);
    } catch (e) {
      if (!(e instanceof SchedInputError)) throw e;
    }
  }
  expect(SOURCES.length).toBeGreaterThanOrEqual(texts('examples').length);
});

it(`mutated corpus files end in success or an input error (${RUNS} cases)`, async () => {
  const counts = new Map<Outcome, number>();
  const z0 = z3Stats();
  const t0 = performance.now();
  await fc.assert(
    fc.asyncProperty(mutantArb(Math.max(1, SOURCES.length)), async ({ src, muts }) => {
      const outcome = await check(mutate(SOURCES[src]!, muts, LINES));
      counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
    }),
    { numRuns: RUNS },
  );
  const z = z3Stats();
  console.log(
    `mutation property: ${RUNS} cases in ${((performance.now() - t0) / 1000).toFixed(1)} s; outcomes ${JSON.stringify(Object.fromEntries(counts))}; ` +
      `Z3: ${z.calls - z0.calls} calls, ${((z.ms - z0.ms) / 1000).toFixed(1)} s`,
  );
  expect([...counts.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(RUNS);
});
