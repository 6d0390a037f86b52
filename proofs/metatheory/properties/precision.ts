// How conservative is U-PARLOOP? Among random programs whose big-step run is rejected for a race,
// exhaustive exploration of the small-step semantics tells which are really nondeterministic (two
// schedules reach different memories), which can get stuck under some schedule (a read of ⊥ or
// out of bounds that another order avoids), and which are deterministic all the same (the race
// condition rejected a program whose interleavings all agree: the price of a big-step semantics).

import fc from 'fast-check';
import { explore } from '../../../semantics/explore.ts';
import { memCaseArb } from '../gen/programs.ts';
import { bigStep, compileCase, smallCase } from './harness.ts';

export interface PrecisionReport {
  readonly sampled: number;
  /** Programs the big-step rejects for a race, by kind of race. */
  readonly races: number;
  readonly readWrite: number;
  readonly writeWrite: number;
  /** Exploration outcomes of those. */
  readonly nondeterministic: number;
  readonly stuck: number;
  readonly deterministic: number;
  readonly limit: number;
  /** nondeterministic / (races − limit). */
  readonly fraction: number;
  readonly ms: number;
}

export function measurePrecision(opts: { sample?: number; seed?: number; maxStates?: number } = {}): PrecisionReport {
  const t0 = performance.now();
  const cases = fc.sample(memCaseArb(), { numRuns: opts.sample ?? 2000, seed: opts.seed ?? 1 });
  let races = 0;
  let readWrite = 0;
  let writeWrite = 0;
  let nondeterministic = 0;
  let stuck = 0;
  let deterministic = 0;
  let limit = 0;
  for (const c of cases) {
    const k = compileCase(c);
    const r = bigStep(k, c.pools);
    if (r.ok || r.error!.kind !== 'race') continue;
    races++;
    if (r.error!.detail === 'read-write') readWrite++;
    else writeWrite++;
    const sc = smallCase(k, c.pools, false);
    const ex = explore(sc.prog, sc.space, sc.init, sc.globals, { maxStates: opts.maxStates ?? 20_000, stopAtNondeterminism: true });
    if (ex.outcome === 'nondeterministic') nondeterministic++;
    else if (ex.outcome === 'stuck') stuck++;
    else if (ex.outcome === 'deterministic') deterministic++;
    else limit++;
  }
  const decided = races - limit;
  return { sampled: cases.length, races, readWrite, writeWrite, nondeterministic, stuck, deterministic, limit, fraction: decided > 0 ? nondeterministic / decided : 0, ms: performance.now() - t0 };
}
