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

/** Puts one question to the solver (within a wave), or runs it at once outside waves. */
export type Ask = <R>(query: () => Promise<R>) => Promise<R>;

/** Outside waves: a question is asked and awaited at once. */
export const askNow: Ask = (query) => query();

interface Parked {
  readonly query: () => Promise<unknown>;
  readonly resume: (answer: { ok: true; value: unknown } | { ok: false; error: unknown }) => void;
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
  const askFor = (k: number): Ask => <R>(query: () => Promise<R>) =>
    new Promise<R>((resolve, reject) => {
      if (parked[k] !== null) throw new Error('a task asked the solver twice at once (inWaves tasks ask one question at a time)');
      parked[k] = { query, resume: (a) => (a.ok ? resolve(a.value as R) : reject(a.error)) };
      settle();
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
    const answers = await Promise.all(wave.map(({ p }) => p.query().then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }))));
    for (const [i, { k, p }] of wave.entries()) {
      parked[k] = null;
      await advance(() => p.resume(answers[i]!));
    }
  }
  // As a sequential loop would: the first task (in order) that failed.
  if (errors.length > 0) throw errors.sort((a, b) => a.k - b.k)[0]!.error;
}
