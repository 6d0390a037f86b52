// Named properties: a theorem of the thesis, an arbitrary of cases, and a check that throws a
// `Falsified` error with an explanation when a case contradicts the theorem. Running one gives a
// report with the number of cases, the time, tallies of what the cases exercised (how many were
// vacuous, raced, were explored exhaustively…) and, on failure, fast-check's report with the seed,
// the shrink path and the counterexample (printed as a program).

import fc from 'fast-check';

/** Counters of what the cases exercised ("vacuous", "race", "explored", …). */
export class Stats {
  private readonly m = new Map<string, number>();
  note(label: string, n = 1): void {
    this.m.set(label, (this.m.get(label) ?? 0) + n);
  }
  get(label: string): number {
    return this.m.get(label) ?? 0;
  }
  entries(): [string, number][] {
    return [...this.m].sort((a, b) => a[0].localeCompare(b[0]));
  }
  text(): string {
    return this.entries()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  }
}

/** Thrown by a check: the case contradicts the property. */
export class Falsified extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Falsified';
  }
}

export function falsified(message: string): never {
  throw new Falsified(message);
}

export interface PropertyDef<T> {
  /** Short id for the command line (`thm-4.3.7`). */
  readonly id: string;
  /** The name, with the number of the result (`Thm 4.3.7 (determinism)`). */
  readonly name: string;
  /** The statement checked, in one sentence. */
  readonly statement: string;
  /** Cases run by `npm test`. */
  readonly ciRuns: number;
  readonly arb: () => fc.Arbitrary<T>;
  readonly check: (t: T, stats: Stats) => void | Promise<void>;
}

export interface RunOptions {
  readonly numRuns?: number;
  readonly seed?: number;
  /** Skip shrinking (mutation testing only needs to know that a counterexample exists). */
  readonly endOnFailure?: boolean;
  /** Stop after this many milliseconds (the report says how many cases ran). */
  readonly timeLimitMs?: number;
}

export interface PropertyReport {
  readonly id: string;
  readonly name: string;
  readonly ok: boolean;
  readonly runs: number;
  readonly ms: number;
  readonly seed: number;
  readonly stats: [string, number][];
  /** fast-check's report (seed, path, counterexample, error) on failure. */
  readonly message: string | null;
  /** The first line of the error of the counterexample. */
  readonly error: string | null;
  /** The counterexample contradicts the property (rather than crashing the check). */
  readonly falsified: boolean;
}

/** A property with its case type hidden (for lists of properties). */
export interface NamedProperty {
  readonly id: string;
  readonly name: string;
  readonly statement: string;
  readonly ciRuns: number;
  run(opts?: RunOptions): Promise<PropertyReport>;
}

export function defineProperty<T>(p: PropertyDef<T>): NamedProperty {
  return {
    id: p.id,
    name: p.name,
    statement: p.statement,
    ciRuns: p.ciRuns,
    async run(opts: RunOptions = {}): Promise<PropertyReport> {
      const stats = new Stats();
      const seed = opts.seed ?? Date.now() ^ (Math.random() * 0x7fffffff);
      const t0 = performance.now();
      const prop = fc.asyncProperty(p.arb(), async (t) => {
        await p.check(t, stats);
      });
      const details = await fc.check(prop, {
        numRuns: opts.numRuns ?? p.ciRuns,
        seed,
        endOnFailure: opts.endOnFailure ?? false,
        interruptAfterTimeLimit: opts.timeLimitMs,
        markInterruptAsFailure: false,
        includeErrorInReport: true,
      });
      const ms = performance.now() - t0;
      const message = details.failed ? fc.defaultReportMessage(details) ?? 'failed' : null;
      const err = details.errorInstance as Error | null | undefined;
      return {
        id: p.id,
        name: p.name,
        ok: !details.failed,
        runs: details.numRuns,
        ms,
        seed,
        stats: stats.entries(),
        message: message === null ? null : `${p.name}: ${message}`,
        error: err ? String(err.message).split('\n')[0]! : null,
        falsified: err instanceof Falsified,
      };
    },
  };
}
