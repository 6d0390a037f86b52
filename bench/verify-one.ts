// One timed verification in a fresh process (no warm caches from other kernels): prints a JSON
// line {verdict, class, ms, vcs, timings}. Z3 is initialised before the clock starts.
//
//   npx tsx bench/verify-one.ts FILE IMPL   (or: FILE with the spec's text on stdin via --stdin)

import { readFileSync } from 'node:fs';
import { checkProgramFull } from '../core/check.ts';
import { parseProgram } from '../core/parser.ts';
import { verifyImpl } from '../proofs/verify.ts';
import { runZ3, shutdownZ3 } from '../smt/z3.ts';

const [file, impl] = process.argv.slice(2);
if (!file || !impl) {
  process.stderr.write('usage: verify-one.ts FILE IMPL [--stdin]\n');
  process.exit(3);
}
const text = process.argv.includes('--stdin') ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
const prog = await checkProgramFull(parseProgram(file, text));
const ci = prog.impls.find((i) => i.impl.name === impl);
if (!ci) {
  process.stderr.write(`no impl ${impl} in ${file}\n`);
  process.exit(3);
}
await runZ3('(check-sat)'); // WASM start-up and first-call costs are not the kernel's
const r = await verifyImpl(ci);
process.stdout.write(JSON.stringify({ verdict: r.verdict, class: r.class, ms: r.ms, vcs: r.vcs, timings: r.timings }) + '\n');
await shutdownZ3();
