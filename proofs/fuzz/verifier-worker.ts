// The child process of proofs/fuzz/verifier.ts: verifies the implementation of each `.sched` text
// it is sent and replies with the verdict. Each verification starts from a clean slate (no fresh
// names, memos or solver answers of earlier cases), so that the queries it asks, and the solver
// work it is charged, are those of its case alone; that work is reported as it grows.

import { checkSource } from '../../core/language/check.ts';
import { solverLimits } from '../../smt/limits.ts';
import { type Work, workMs, workSince, z3Stats } from '../../smt/z3.ts';
import { forgetSolverAnswers, startFromScratch } from '../verifier/fresh-state.ts';
import { verifyImpl } from '../verifier/verify.ts';
import type { Request, WorkerVerdict } from './verifier.ts';

/** How often the work done so far is reported (the parent stops a case past its budget). */
const PROGRESS_MS = 250;

function since(w0: Work): number {
  return workMs(workSince(w0));
}

process.on('message', async (m: Request) => {
  startFromScratch();
  forgetSolverAnswers();
  // Work is counted under resource limits only (smt/z3.ts): under time limits it is not reported.
  const counted = solverLimits() === 'rlimit';
  const w0 = z3Stats().work;
  let reported = 0;
  const progress = counted ? setInterval(() => {
    const work = since(w0);
    if (work !== reported) process.send?.({ id: m.id, work });
    reported = work;
  }, PROGRESS_MS) : undefined;
  try {
    const impls = (await checkSource(m.file ?? 'case.sched', m.text)).impls;
    const ci = m.impl === undefined ? impls[0] : impls.find((i) => i.impl.name === m.impl);
    if (ci === undefined) throw new Error(`no implementation${m.impl === undefined ? '' : ` ${m.impl}`}`);
    const r = await verifyImpl(ci, { timeoutMs: m.timeoutMs, ...(m.pruneMs !== undefined ? { pruneMs: m.pruneMs } : {}) });
    // The obligations (their scripts) stay here: a caller that wants the whole result wants its verdict.
    const result: WorkerVerdict = { verdict: r.verdict, class: r.class, reason: r.reason, values: r.counterexample?.values ?? null, ms: r.ms, workMs: counted ? since(w0) : null, ...(m.full ? { full: { ...r, outcomes: [] } } : {}) };
    process.send?.({ id: m.id, result });
  } catch (e) {
    process.send?.({ id: m.id, error: (e as Error).stack ?? String(e) });
  } finally {
    clearInterval(progress);
  }
});
process.on('disconnect', () => process.exit(0));
