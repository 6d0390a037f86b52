// One process or one per file: the same verdicts (the soundness issue's state criterion). Reads
// the JSON of a one-process corpus run (`sched corpus --all --json > ONE.json`), verifies every
// file again in a fresh `sched verify FILE --json` process, and lists every implementation whose
// verdict or class differs. Usage: tsx bench/corpus-processes.ts ONE.json [--certs DIR]
// [--certs DIR] also writes every file's certificate bundles (for `sched recheck DIR --solver all`).
// Exit 0 when every verdict agrees, 1 otherwise.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface OneRow { file: string; impl: string; got: string }
interface VerifyResult { impl: string; verdict: string; class: string | null }

const one = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { rows: OneRow[] };
const certs = process.argv[3] === '--certs' ? process.argv[4] : undefined;
const bin = join(import.meta.dirname, '..', 'cli', 'sched.js');
const byFile = new Map<string, OneRow[]>();
for (const r of one.rows) if (r.impl !== '-') byFile.set(r.file, [...(byFile.get(r.file) ?? []), r]);

let same = 0;
const differ: string[] = [];
const t0 = performance.now();
for (const [file, rows] of byFile) {
  let out: string;
  try {
    out = execFileSync(process.execPath, [bin, 'verify', file, '--json', ...(certs ? ['--certs', certs] : [])], { encoding: 'utf8', maxBuffer: 1 << 28 });
  } catch (e) {
    out = (e as { stdout: string }).stdout;
  }
  const results = (JSON.parse(out) as { results: VerifyResult[] }).results;
  for (const r of rows) {
    const f = results.find((x) => x.impl === r.impl);
    const got = f ? (f.class ? `${f.verdict} ${f.class}` : f.verdict) : '(missing)';
    if (got === r.got) same++;
    else differ.push(`${file} ${r.impl}: one process ${r.got}, own process ${got}`);
  }
}
for (const d of differ) console.log(`DIFFER ${d}`);
console.log(`${same + differ.length} implementations in ${byFile.size} files: ${same} same verdict in one process and per file, ${differ.length} differ (${((performance.now() - t0) / 1000).toFixed(0)} s per-file)`);
process.exit(differ.length === 0 ? 0 : 1);
