import { readFileSync } from 'node:fs';
import { checkSource } from '../core/language/check.ts';
import { verifyImpl } from '../proofs/verifier/verify.ts';
import { shutdownZ3 } from '../smt/z3.ts';
import { parseRunLines, runLine } from '../test/corpus-lines.ts';
async function main() {
  for (const file of process.argv.slice(2)) {
    const text = readFileSync(file, 'utf8');
    const prog = await checkSource(file, text);
    const runs = parseRunLines(text);
    for (const ci of prog.impls) {
      let t = performance.now();
      const r = await verifyImpl(ci, {});
      const v = performance.now() - t;
      const rl: string[] = [];
      for (const l of runs.filter((x) => x.impl === ci.impl.name)) { t = performance.now(); const o = runLine(ci, l, file); rl.push(`${o.outcome} ${Math.round(performance.now() - t)}ms`); }
      console.log(file, ci.impl.name, r.verdict, r.class, `verify ${Math.round(v)}ms`, rl.join(', '));
    }
  }
  await shutdownZ3();
}
void main();
