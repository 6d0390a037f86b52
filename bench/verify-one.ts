// One timed verification in a fresh process (no warm caches from other kernels): prints a JSON
// line {verdict, class, ms, vcs, timings}. The solver processes (--jobs N, default 1) are started
// before the clock starts; SCHED_SOLVER (auto, z3 or wasm) picks the solver (smt/z3.ts).
//
//   npx tsx bench/verify-one.ts FILE IMPL [--jobs N]   (or: FILE with the spec's text on stdin via --stdin)

import { readFileSync } from 'node:fs';
import { checkProgramFull } from '../core/language/check.ts';
import { parseProgram } from '../core/language/parser.ts';
import { verifyImpl } from '../proofs/verifier/verify.ts';
import { runZ3, setSolverJobs, shutdownZ3 } from '../smt/z3.ts';

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
const ji = process.argv.indexOf('--jobs');
const jobs = ji > 0 ? Number(process.argv[ji + 1]) : 1;
setSolverJobs(jobs);
// WASM start-up and first-call costs are not the kernel's (one query per process of the pool).
await Promise.all(Array.from({ length: jobs }, () => runZ3('(check-sat)')));
const r = await verifyImpl(ci);
process.stdout.write(JSON.stringify({ verdict: r.verdict, class: r.class, ms: r.ms, vcs: r.vcs, timings: r.timings }) + '\n');
await shutdownZ3();
