// The child process of proofs/fuzz/verifier.ts: verifies the implementation of each `.sched` text
// it is sent and replies with the verdict.

import { checkSource } from '../../core/check.ts';
import { verifyImpl } from '../verify.ts';
import type { WorkerVerdict } from './verifier.ts';

process.on('message', async (m: { id: number; text: string; timeoutMs: number }) => {
  try {
    const ci = (await checkSource('case.sched', m.text)).impls[0];
    if (ci === undefined) throw new Error('no implementation');
    const r = await verifyImpl(ci, { timeoutMs: m.timeoutMs });
    const result: WorkerVerdict = { verdict: r.verdict, class: r.class, reason: r.reason, values: r.counterexample?.values ?? null, ms: r.ms };
    process.send?.({ id: m.id, result });
  } catch (e) {
    process.send?.({ id: m.id, error: (e as Error).stack ?? String(e) });
  }
});
process.on('disconnect', () => process.exit(0));
