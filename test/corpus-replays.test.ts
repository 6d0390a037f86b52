// The corpus's counterexamples replay as printed (corpus/replays.ts, `sched corpus --replays`):
// each invalid verdict's `sched run` command shows what the verdict says. Every command that
// `sched corpus --all` printed (corpus/RESULTS.md, `--results`) is run here as printed, in this
// process (cli/dispatch.ts, as the bin runs it); the corpus runs of the tests check that the
// commands they print are the ones listed (test/listed-replays.ts).
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { checkReplay, checkReplays, shellWords, shownClass, showsWhatWasSaid } from '../corpus/replays.ts';
import { parseCasesTable, parseReplaysTable, runCorpus, type Row } from '../corpus/run.ts';
import { shutdownZ3 } from '../smt/z3.ts';
import { schedInProcess } from './in-process.ts';
import { expectListedReplays } from './listed-replays.ts';
import { cases, sample } from './tier.ts';

afterAll(shutdownZ3);

describe('every replay command of the whole corpus (corpus/RESULTS.md)', () => {
  const page = readFileSync('corpus/RESULTS.md', 'utf8');
  const listed = parseReplaysTable(page);

  it('lists every invalid verdict of the corpus, each with its command or none', () => {
    const invalid = parseCasesTable(page).filter((c) => c.got.startsWith('invalid')).map((c) => `${c.file} ${c.impl}`);
    expect(invalid.length).toBeGreaterThan(100);
    expect(listed.filter((l) => l.got.startsWith('invalid')).map((l) => `${l.file} ${l.impl}`)).toEqual(invalid);
    // A verdict without a command is the exception (an exact refutation no small run shows).
    expect(listed.filter((l) => l.command === null).length).toBeLessThan(invalid.length / 20);
  });

  it('runs each command as printed and sees what its verdict says (a sixth of them in the quick tier)', async () => {
    const failed: string[] = [];
    let ran = 0;
    const commands = listed.filter((l) => l.command !== null);
    const run = new Set(sample(commands, 6));
    for (const l of commands) {
      const words = shellWords(l.command!);
      if (words.slice(0, 3).join(' ') !== 'npx sched run') {
        failed.push(`${l.file} ${l.impl}: not a sched run command: ${l.command}`);
        continue;
      }
      if (!run.has(l)) continue;
      // The printed command, and --json to read what it shows.
      const r = await schedInProcess([...words.slice(2), '--json']);
      ran++;
      let shows: string;
      try {
        shows = shownClass(JSON.parse(r.out) as Parameters<typeof shownClass>[0]);
      } catch {
        shows = `exit ${r.code}, no JSON report: ${r.err.trim().split('\n')[0]}`;
      }
      if (!showsWhatWasSaid(l.shows, r.code, shows)) failed.push(`${l.file} ${l.impl}: ${l.got}, its run shows ${shows} (exit ${r.code}): ${l.command}`);
    }
    expect(failed).toEqual([]);
    expect(ran).toBe(run.size);
    expect(ran).toBeGreaterThan(cases(45, 100));
  }, 900_000); // a guard against a hang only: about 45 s of CPU on the 2-core machine (all commands)
});

describe('corpus replays', () => {
  it('splits the printed commands as a shell would', () => {
    expect(shellWords(`npx sched run a.sched --impl x --input 'A(0,1)=-3' --input 'B(2)=it'\\''s'`)).toEqual(['npx', 'sched', 'run', 'a.sched', '--impl', 'x', '--input', 'A(0,1)=-3', '--input', "B(2)=it's"]);
  });

  it('every invalid verdict of the race and cast probes replays with its printed command', async () => {
    const rows = await runCorpus(['corpus/soundness/races.sched', 'corpus/soundness/casts.sched'], {});
    expectListedReplays(rows);
    const checks = await checkReplays(rows);
    expect(checks.length).toBeGreaterThanOrEqual(5);
    for (const c of checks) expect({ impl: c.row.impl, shows: c.shows, ok: c.ok }).toEqual({ impl: c.row.impl, shows: c.row.replayShows, ok: true });
  });

  it('kernels too large to run replay their faults as slices, with the printed command', async () => {
    const rows = await runCorpus(['corpus/bugs/sliced_replays.sched'], {});
    expectListedReplays(rows);
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
