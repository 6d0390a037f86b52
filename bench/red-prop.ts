// Where a case of `red-soundness` (proofs/metatheory/properties/reductions.ts) spends its time: the same
// cases (fast-check sample, fixed seed) compiled, verified and run, each phase timed, with the
// verifier's own split (symbolic, Presburger, solver, replay) and the solver calls per case.
//
//   npx tsx bench/red-prop.ts [cases] [seed] [--native] [--remember]
//
// --native: the Z3 command line when installed (as the property does; SCHED_SOLVER=z3 forces it);
// --remember: answers remembered across cases (as the property does); --timeout MS: the solver's
// time limit (the property's: 4000); --verdicts FILE: one line per case (verdict, class, program).

import fc from 'fast-check';
import { reductionArb } from '../proofs/metatheory/properties/reductions.ts';
import { compile } from '../proofs/metatheory/properties/harness.ts';
import { verifyImpl } from '../proofs/verifier/verify.ts';
import { runImpl } from '../semantics/run.ts';
import { preferNativeSolver, shutdownZ3, solverName, withRememberedAnswers, z3Stats } from '../smt/z3.ts';
import { loadavg } from 'node:os';

const pos = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !['--timeout', '--verdicts'].includes(all[i - 1]!));
const n = Number(pos[0] ?? 40);
const seed = Number(pos[1] ?? 1);
if (process.argv.includes('--native')) preferNativeSolver();
const remember = process.argv.includes('--remember');
const option = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const timeoutMs = Number(option('--timeout') ?? 4000);
const verdictLines: string[] = [];
const cases = fc.sample(reductionArb(), { numRuns: n, seed });
const t = { gen: 0, compile: 0, verify: 0, symbolic: 0, presburger: 0, smt: 0, replay: 0, runs: 0, calls: 0, hits: 0 };
const verdicts = new Map<string, number>();
const g0 = performance.now();
fc.sample(reductionArb(), { numRuns: n, seed });
t.gen = performance.now() - g0;
const w0 = performance.now();
const slow: [number, string, string][] = [];
for (const c of cases) {
  const c0 = performance.now();
  let a = performance.now();
  const ci = compile(c.src);
  t.compile += performance.now() - a;
  const z0 = z3Stats().calls;
  const h0 = z3Stats().remembered;
  a = performance.now();
  const v = remember ? await withRememberedAnswers(() => verifyImpl(ci, { timeoutMs, runsFirst: false })) : await verifyImpl(ci, { timeoutMs, runsFirst: false });
  verdictLines.push(`${v.verdict} ${v.class ?? '-'} ${JSON.stringify(c.src)}`);
  t.verify += performance.now() - a;
  t.calls += z3Stats().calls - z0;
  t.hits += z3Stats().remembered - h0;
  t.symbolic += v.timings.symbolic;
  t.presburger += v.timings.presburger;
  t.smt += v.timings.smt;
  t.replay += v.timings.replay;
  const key = `${c.mutations.length ? 'mutant' : 'correct'} ${v.verdict}`;
  verdicts.set(key, (verdicts.get(key) ?? 0) + 1);
  a = performance.now();
  for (let k = 1n; k <= 9n; k++) for (const s of [0, 1, 2]) runImpl(ci, new Map([['N', k]]), { seed: s });
  t.runs += performance.now() - a;
  slow.push([performance.now() - c0, `${c.mutations.join(', ') || 'correct'}: ${v.verdict}${v.class ? ` (${v.class})` : ''}`, c.src]);
}
const wall = performance.now() - w0;
const per = (x: number): string => `${(x / n).toFixed(0)} ms`;
console.log(`${n} cases, seed ${seed}, solver ${solverName()}, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
console.log(`wall ${(wall / 1000).toFixed(1)} s = ${per(wall)}/case; generation ${per(t.gen)}; compile ${per(t.compile)}; verify ${per(t.verify)} (symbolic ${per(t.symbolic)}, of which Presburger ${per(t.presburger)}; solver ${per(t.smt)} summed; replay ${per(t.replay)}); solver calls ${(t.calls / n).toFixed(1)}/case (and ${(t.hits / n).toFixed(1)} remembered); concrete runs ${per(t.runs)}`);
slow.sort((x, y) => y[0] - x[0]);
const top = slow.slice(0, Number(process.env.SLOW ?? 0));
for (const [ms, what, src] of top) console.log(`--- ${ms.toFixed(0)} ms, ${what}\n${src}`);
console.log(`slowest tenth of the cases: ${((slow.slice(0, Math.ceil(n / 10)).reduce((x, y) => x + y[0], 0) / wall) * 100).toFixed(0)}% of the wall time`);
console.log([...verdicts].map(([k, v]) => `${k} ${v}`).join(', '));
const out = option('--verdicts');
if (out !== undefined) (await import('node:fs')).writeFileSync(out, `${verdictLines.join('\n')}\n`);
const cpu = process.cpuUsage();
console.log(`this process: ${((cpu.user + cpu.system) / 1000 / n).toFixed(0)} ms CPU/case, heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB (the solver processes' CPU: run under /usr/bin/time, they are waited for)`);
await shutdownZ3();
process.exit(0);
