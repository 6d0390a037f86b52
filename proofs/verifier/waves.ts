// Tasks whose solver queries run concurrently while everything else they do runs in an order
// that does not depend on when answers arrive (nor on how many solver processes there are).
//
// The verifier's tasks (one per obligation) interleave JavaScript work that touches the
// process's shared state — fresh variable numbering, the Presburger caches, the elimination log
// that a certificate bundle records — with solver queries. Run naively in parallel, that work
// would run in whatever order answers come back, and two runs of one verification could write
// different (if equally valid) certificates. Here the tasks advance in waves: every task runs,
// one after another in their given order, until it asks the solver (`ask`) or ends; then the
// questions of the wave are put to the solver pool all at once; then every task that asked is
// resumed, one after another in order, with its answer. The order of the JavaScript work depends
// only on the answers, so the results are byte-identical to a run with one solver process; a
// query is a function of the solver alone (a script in, an answer out).
//
// Batches (`ask.batch`: independent scripts, each in its own push/pop scope) asked in one wave are
// put together, in task order, into batches of at most BATCH scripts: one solver call costs far
// more than a small query (a fresh context, parsing), so a wave of many small batches becomes a few
// calls. What a call holds depends on the wave alone, never on the number of solver processes.

import { checkSatBatch, type SolverAnswer } from '../../smt/z3.ts';

/** The most scripts in one solver call when a wave's batches are put together. */
export const BATCH = 64;

/** Puts one question to the solver (within a wave), or runs it at once outside waves. */
export interface Ask {
  <R>(query: () => Promise<R>): Promise<R>;
  /** `check-sat` of independent scripts (smt/z3.ts checkSatBatch), batched with the wave's others. */
  batch(scripts: readonly string[], timeoutMs: number): Promise<SolverAnswer[]>;
}

/** Outside waves: a question is asked and awaited at once. */
export const askNow: Ask = Object.assign(<R>(query: () => Promise<R>) => query(), {
  batch: (scripts: readonly string[], timeoutMs: number) => checkSatBatch(scripts, { timeoutMs }),
});

type Answer = { ok: true; value: unknown } | { ok: false; error: unknown };

interface Parked {
  readonly query: (() => Promise<unknown>) | { readonly scripts: readonly string[]; readonly timeoutMs: number };
  readonly resume: (answer: Answer) => void;
}

/** The answers of a wave: queries run as they are; batches put together by time limit, in order. */
async function answerWave(wave: readonly Parked[]): Promise<Answer[]> {
  const answers: (Answer | null)[] = wave.map(() => null);
  const calls: Promise<void>[] = [];
  const groups = new Map<number, { i: number; scripts: readonly string[] }[]>();
  for (const [i, p] of wave.entries()) {
    const q = p.query;
    if (typeof q === 'function') {
      calls.push(q().then((value) => void (answers[i] = { ok: true, value }), (error: unknown) => void (answers[i] = { ok: false, error })));
    } else {
      const g = groups.get(q.timeoutMs) ?? [];
      g.push({ i, scripts: q.scripts });
      groups.set(q.timeoutMs, g);
    }
  }
  for (const [timeoutMs, asks] of groups) {
    const all = asks.flatMap((a) => a.scripts);
    const parts: SolverAnswer[][] = [];
    for (let c = 0; c * BATCH < all.length; c++) parts.push([]);
    calls.push(
      Promise.all(parts.map((_, c) => checkSatBatch(all.slice(c * BATCH, (c + 1) * BATCH), { timeoutMs }))).then(
        (chunks) => {
          const flat = chunks.flat();
          let at = 0;
          for (const a of asks) {
            answers[a.i] = { ok: true, value: flat.slice(at, at + a.scripts.length) };
            at += a.scripts.length;
          }
        },
        (error: unknown) => {
          for (const a of asks) answers[a.i] = { ok: false, error };
        },
      ),
    );
  }
  await Promise.all(calls);
  return answers as Answer[];
}

export async function inWaves<T>(items: readonly T[], task: (item: T, ask: Ask) => Promise<void>): Promise<void> {
  const parked: (Parked | null)[] = items.map(() => null);
  const errors: { k: number; error: unknown }[] = [];
  // Called by the one task that is running when it parks on a question or ends.
  let yielded: (() => void) | null = null;
  const settle = (): void => {
    const y = yielded;
    yielded = null;
    y?.();
  };
  const park = <R>(k: number, query: Parked['query']): Promise<R> =>
    new Promise<R>((resolve, reject) => {
      if (parked[k] !== null) throw new Error('a task asked the solver twice at once (inWaves tasks ask one question at a time)');
      parked[k] = { query, resume: (a) => (a.ok ? resolve(a.value as R) : reject(a.error)) };
      settle();
    });
  const askFor = (k: number): Ask => Object.assign(<R>(query: () => Promise<R>) => park<R>(k, query), {
    batch: (scripts: readonly string[], timeoutMs: number) => park<SolverAnswer[]>(k, { scripts, timeoutMs }),
  });
  /** Runs `step` (which lets task k go on) and waits until task k parks again or ends. */
  const advance = (step: () => void): Promise<void> =>
    new Promise<void>((resolve) => {
      yielded = resolve;
      step();
    });
  for (const [k, item] of items.entries()) {
    await advance(() => {
      void task(item, askFor(k)).then(settle, (error: unknown) => {
        errors.push({ k, error });
        settle();
      });
    });
  }
  for (;;) {
    const wave = parked.flatMap((p, k) => (p === null ? [] : [{ k, p }]));
    if (wave.length === 0) break;
    const answers = await answerWave(wave.map(({ p }) => p));
    for (const [i, { k, p }] of wave.entries()) {
      parked[k] = null;
      await advance(() => p.resume(answers[i]!));
    }
  }
  // As a sequential loop would: the first task (in order) that failed.
  if (errors.length > 0) throw errors.sort((a, b) => a.k - b.k)[0]!.error;
}
