// `sched mlir` against the expected verdicts of the MLIR corpus (docs/mlir.md § Corpus files): the
// pipelines listed in corpus/mlir/quick.txt (every known miscompilation that verifies in seconds and
// a correct control beside it) must give their EXPECT line, every invalid one confirmed by
// mlir-cpu-runner. The whole corpus is `npx tsx corpus/mlir/verify.ts corpus/bugs/mlir
// corpus/mlir/polybench` (times in docs/mlir.md; minutes, not a test).

import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { MLIR_PACKAGES, mlirMissing } from '../compilers/mlir/tools.ts';
import { replayFile } from '../corpus/mlir/replay.ts';
import { verifyFile } from '../corpus/mlir/verify.ts';
import { shutdownZ3 } from '../smt/z3.ts';

afterAll(async () => {
  await shutdownZ3();
});

const MISSING = mlirMissing();
if (MISSING !== null) process.stderr.write(`mlir-verdicts.test: skipped: ${MISSING}\n`);

/** `path label` lines, `#` comments. */
function quickList(): { file: string; label: string }[] {
  return readFileSync('corpus/mlir/quick.txt', 'utf8').split('\n').map((l) => l.replace(/#.*/, '').trim()).filter((l) => l !== '').map((l) => {
    const [file, label] = l.split(/\s+/) as [string, string];
    return { file, label };
  });
}

/** Access errors the real execution shows too: a write past a pass's buffer changes its heap guard bytes. */
const SHOWN = new Set(['corpus/bugs/mlir/data_copy_region_overrun.mlir copy']);

describe.skipIf(MISSING !== null)(`the MLIR corpus's expected verdicts (${MLIR_PACKAGES})`, () => {
  const list = quickList();
  const files = [...new Set(list.map((x) => x.file))];
  it.each(files)('%s', async (file) => {
    const labels = new Set(list.filter((x) => x.file === file).map((x) => x.label));
    const rs = await verifyFile(file, { only: (l) => labels.has(l), timeoutMs: 10_000 });
    expect(rs.map((r) => r.label).sort()).toEqual([...labels].sort());
    for (const r of rs) {
      expect(`${r.label}: ${r.seen}`, `${file} ${r.label}`).toBe(r.ok ? `${r.label}: ${r.seen}` : `${r.label}: ${r.expected}`);
      // An output mismatch shows in the real execution; a race or an out-of-bounds read need not.
      if (r.expected.startsWith('invalid output-mismatch') || SHOWN.has(`${file} ${r.label}`)) expect(r.confirmed, `${file} ${r.label}: confirmed by mlir-cpu-runner`).toBe(true);
    }
  });
});

// The command line as a user runs it: `sched mlir … --json` in a fresh process, then the `replay:`
// command exactly as printed, which must fail and show the verdict's class (corpus/mlir/replay.ts
// runs the whole bug corpus so).
describe.skipIf(MISSING !== null)(`sched mlir's printed replay commands (${MLIR_PACKAGES})`, () => {
  it.each([
    ['corpus/bugs/mlir/licm_zero_trip_store.mlir', 'licm', 'output-mismatch'],
    ['corpus/bugs/mlir/data_copy_nonaffine_store.mlir', 'copy', 'uninitialized-read'],
  ])('%s %s', (file, label, cls) => {
    const [r] = replayFile(file, (l) => l === label);
    expect(r!.seen).toBe(`invalid ${cls}`);
    expect(r!.replay).toMatch(/^npx sched run /);
    expect(r!.replayShows, r!.replayOutput).toBe(true);
    expect(r!.confirmed).toBe(true);
  });
});
