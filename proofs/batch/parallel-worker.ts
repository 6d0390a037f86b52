// A worker thread of proofs/batch/parallel.ts: verifies the implementations it is sent, one at a time,
// as `sched verify` / `sched corpus` would in their own loop, and replies with each result.

import { parentPort } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { checkProgramFull } from '../../core/language/check.ts';
import type { CheckedProgram } from '../../core/language/typecheck.ts';
import { parseProgram } from '../../core/language/parser.ts';
import { loadChecked } from '../../core/language/load.ts';
import { eliminationLog } from '../../core/presburger/elimlog.ts';
import { writeBundle } from '../certificates/certificates.ts';
import { startFromScratch } from '../verifier/fresh-state.ts';
import { verifyImpl } from '../verifier/verify.ts';
import type { ImplJob, RemoteResult } from './parallel.ts';
import { DEFAULT_TIMEOUT_MS, shutdownZ3 } from '../../smt/z3.ts';
import { budgetRecord } from '../../smt/identity.ts';

const port = parentPort!;
/** The last file loaded (a file's implementations tend to come to the same worker in a row). */
let loaded: { key: string; program: Promise<CheckedProgram & { readonly text: string }> } | null = null;

function load(job: ImplJob): Promise<CheckedProgram & { readonly text: string }> {
  const key = JSON.stringify([job.path, job.name, job.spec ?? null]);
  if (loaded?.key !== key) {
    const program = job.spec !== undefined ? loadChecked(job.path, job.spec) : (async () => {
      const text = readFileSync(job.path, 'utf8');
      return { ...(await checkProgramFull(parseProgram(job.name, text))), text };
    })();
    loaded = { key, program };
  }
  return loaded.program;
}

port.on('message', async (m: { id: number; job: ImplJob } | { close: true }) => {
  if ('close' in m) {
    await shutdownZ3();
    port.close();
    return;
  }
  try {
    const { job } = m;
    const prog = await load(job);
    const ci = prog.impls.find((i) => i.impl.name === job.impl);
    if (ci === undefined) throw new Error(`no implementation ${job.impl} in ${job.name}`);
    // A bundle holds exactly this verification's eliminations, byte-identically.
    if (job.bundle) startFromScratch();
    const r = await verifyImpl(ci, { float: job.float, timeoutMs: job.timeoutMs, runsFirst: job.runsFirst });
    if (job.bundle) writeBundle(job.bundle.dir, { name: job.bundle.input, text: prog.text }, r, eliminationLog(), budgetRecord(job.timeoutMs ?? DEFAULT_TIMEOUT_MS));
    const result: RemoteResult = { ...r, outcomes: [] };
    port.postMessage({ id: m.id, result });
  } catch (e) {
    port.postMessage({ id: m.id, error: (e as Error).stack ?? String(e) });
  }
});
