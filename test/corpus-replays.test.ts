// The corpus's counterexamples replay as printed (corpus/replays.ts, `sched corpus --replays`):
// each invalid verdict's `sched run` command, run in a fresh process, shows what the verdict says.
import { describe, expect, it } from 'vitest';
import { checkReplay, checkReplays, shellWords } from '../corpus/replays.ts';
import { runCorpus, type Row } from '../corpus/run.ts';

describe('corpus replays', () => {
  it('splits the printed commands as a shell would', () => {
    expect(shellWords(`npx sched run a.sched --impl x --input 'A(0,1)=-3' --input 'B(2)=it'\\''s'`)).toEqual(['npx', 'sched', 'run', 'a.sched', '--impl', 'x', '--input', 'A(0,1)=-3', '--input', "B(2)=it's"]);
  });

  it('every invalid verdict of the race and cast probes replays with its printed command', async () => {
    const rows = await runCorpus(['corpus/soundness/races.sched', 'corpus/soundness/casts.sched'], {});
    const checks = await checkReplays(rows);
    expect(checks.length).toBeGreaterThanOrEqual(5);
    for (const c of checks) expect({ impl: c.row.impl, shows: c.shows, ok: c.ok }).toEqual({ impl: c.row.impl, shows: c.row.replayShows, ok: true });
  });

  it('kernels too large to run replay their faults as slices, with the printed command', async () => {
    const rows = await runCorpus(['corpus/bugs/sliced_replays.sched'], {});
    expect(rows.map((r) => [r.impl, r.got])).toEqual([
      ['rowsum_ok', 'valid'],
      ['rowsum_uninitialized', 'invalid uninitialized-read'],
      ['rowsum_out_of_bounds', 'invalid out-of-bounds'],
      ['rowsum_shared_accumulator', 'invalid race'],
    ]);
    const checks = await checkReplays(rows);
    expect(checks.map((c) => [c.row.impl, c.shows, c.ok, /--slice '?\d+:i=\d+/.test(c.row.replay!)])).toEqual([
      ['rowsum_uninitialized', 'uninitialized-read', true, true],
      ['rowsum_out_of_bounds', 'out-of-bounds', true, true],
      ['rowsum_shared_accumulator', 'race', true, true],
    ]);
    // The out-of-bounds read is at k = 1023: the slice runs k = 0 … 1022 whole first.
    expect(rows[2]!.replay).toMatch(/--slice '\d+:i=\d+,j=\d+,k=1023'/);
  });

  it('a command that does not show the fault is reported, not accepted', async () => {
    const rows = await runCorpus(['corpus/soundness/races.sched'], { filter: 'races' });
    const good = rows.find((r) => r.impl === 'benign_same_value')!;
    expect(good.got).toBe('valid');
    // A forged row: the verdict claims a race, the command runs a correct implementation.
    const forged: Row = { ...good, got: 'invalid race', class: 'race', replay: 'npx sched run corpus/soundness/races.sched --impl benign_same_value --param N=3', replayShows: 'race' };
    const c = await checkReplay(forged);
    expect(c).toMatchObject({ ok: false, shows: 'match' });
  });
});
