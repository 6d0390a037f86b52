// Evidence for the Int32 class of `sched fuzz --compiler halide` (README, "Fuzzing real Halide"):
// Halide 14 simplifies Int(32) arithmetic as if it never overflowed (`max(a*2, b*2)` into
// `max(a, b)*2`), which SCHED's wrapping i32 refutes. If a bundle's output mismatch comes from
// that alone, the program's outputs match the spec whenever no intermediate value overflows.
//
//   npx tsx proofs/fuzz/small-inputs.ts REPRO_DIR…
//
// For every bundle under the directories whose verdict is an `output-mismatch`, the translated
// program (program.sched) runs at the parameters its README lists, on 8 seeds of the default
// inputs and on the same seeds of the `small` family (semantics/inputs.ts: every integer input
// folded into [-3, 3], [0, 6] unsigned; small enough that the fuzzer's shallow expressions cannot
// overflow). A line per bundle: the mismatches of each.
// Evidence, not proof: a mismatch-free small run does not show that overflow is the only cause.
// Other classes are listed with their class. Exit 1 if some small-input run mismatches.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkSource } from '../../core/language/check.ts';
import { runImpl } from '../../semantics/run.ts';

const SEEDS = 8;

async function bundle(dir: string): Promise<{ line: string; smallMismatch: boolean }> {
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  const cls = /verify invalid \(([a-z-]+)\)/.exec(readme)?.[1] ?? /Outcome: ([^;\n]+)/.exec(readme)?.[1] ?? '?';
  const index = /case (\d+), profile/.exec(readme)?.[1] ?? '?';
  const head = `${dir} (case ${index}): ${cls}`;
  if (cls !== 'output-mismatch') return { line: head, smallMismatch: false };
  const file = join(dir, 'program.sched');
  const prog = await checkSource(file, readFileSync(file, 'utf8'));
  const sets = [...readme.matchAll(/sched run \S+ ((?:--param \S+ ?)+)/g)].map((m) => new Map([...m[1]!.matchAll(/--param (\w+)=(-?\d+)/g)].map((x) => [x[1]!, BigInt(x[2]!)] as const)));
  const count = { runs: 0, wide: 0, small: 0, other: 0 };
  for (const ci of prog.impls) {
    for (const ps of sets) {
      for (let s = 0; s < SEEDS; s++) {
        count.runs++;
        const wide = runImpl(ci, ps, { seed: s }).report.outcome;
        const small = runImpl(ci, ps, { seed: s, family: 'small' }).report.outcome;
        if (wide === 'mismatch') count.wide++;
        if (small === 'mismatch') count.small++;
        if (wide !== 'mismatch' && wide !== 'match') count.other++;
        if (small !== 'mismatch' && small !== 'match') count.other++;
      }
    }
  }
  return { line: `${head}: default inputs ${count.wide}/${count.runs} runs mismatch, inputs in [-3, 3] ${count.small}/${count.runs}${count.other ? `, ${count.other} runs stopped on an error` : ''}`, smallMismatch: count.small > 0 };
}

async function main(): Promise<number> {
  const roots = process.argv.slice(2);
  if (roots.length === 0) {
    process.stderr.write('usage: npx tsx proofs/fuzz/small-inputs.ts REPRO_DIR…\n');
    return 2;
  }
  let bad = false;
  for (const root of roots) {
    for (const d of readdirSync(root).sort()) {
      const dir = join(root, d);
      if (!existsSync(join(dir, 'README.md')) || !existsSync(join(dir, 'program.sched'))) continue;
      const r = await bundle(dir);
      bad ||= r.smallMismatch;
      process.stdout.write(`${r.line}\n`);
    }
  }
  return bad ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main();
