// Replay commands run as printed in every workflow (docs/commands.md, Replays): with the specs
// from another file (--spec), and with the program or the specs on standard input (saved to a
// file the command names). The binary is run as a user runs it; the printed command is then run
// as printed (cli/dispatch.ts in this process) and must show the verdict's class.

import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shellWords, shownClass } from '../corpus/replays.ts';
import { shutdownZ3 } from '../smt/z3.ts';
import { schedInProcess } from './in-process.ts';
import { tempDir } from './temp-dirs.ts';

afterAll(shutdownZ3);

const ROOT = join(import.meta.dirname, '..');
const dir = tempDir('sched-replays-');
// The tutorial's kernel with the last tile unshifted, its spec and its impl in two files.
const lines = readFileSync(join(ROOT, 'corpus/examples/tutorial_blur3.sched'), 'utf8').replace('min(8 * t, N - 8)', '8 * t').split('\n');
const spec = join(dir, 'spec.sched');
const impl = join(dir, 'impl.sched');
writeFileSync(spec, lines.slice(2, 8).join('\n') + '\n');
writeFileSync(impl, lines.slice(9).join('\n'));

/** `sched verify ARGS --json` by the binary, `stdin` piped in; the replay command it prints. */
function replayOf(args: string[], stdin?: string): string {
  const r = spawnSync(process.execPath, [join(ROOT, 'cli/sched.js'), 'verify', ...args, '--json'], { cwd: dir, input: stdin, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(1);
  const doc = JSON.parse(r.stdout) as { results: { class: string; replay: { command: string } }[] };
  expect(doc.results[0]!.class).toBe('out-of-bounds');
  return doc.results[0]!.replay.command;
}

async function showsOutOfBounds(command: string): Promise<void> {
  const words = shellWords(command);
  expect(words.slice(0, 3)).toEqual(['npx', 'sched', 'run']);
  const cwd = process.cwd();
  process.chdir(dir); // where the user ran verify, and runs the replay
  try {
    const r = await schedInProcess([...words.slice(2), '--json']);
    expect(r.code, r.err).toBe(1);
    expect(shownClass(JSON.parse(r.out) as Parameters<typeof shownClass>[0])).toBe('out-of-bounds');
  } finally {
    process.chdir(cwd);
  }
}

describe('replay commands run as printed', () => {
  it('with the specs in another file, the program on standard input, the specs on standard input', async () => {
    const fromFiles = replayOf(['impl.sched', '--spec', 'spec.sched']);
    expect(fromFiles).toMatch(/^npx sched run impl\.sched --spec spec\.sched --impl tiled /);
    await showsOutOfBounds(fromFiles);

    const fromStdin = replayOf(['-', '--spec', 'spec.sched'], readFileSync(impl, 'utf8'));
    expect(fromStdin).toMatch(/^npx sched run \S+sched-stdin\/[0-9a-f]{16}\.sched --spec spec\.sched --impl tiled /);
    await showsOutOfBounds(fromStdin);

    const specOnStdin = replayOf(['impl.sched', '--spec', '-'], readFileSync(spec, 'utf8'));
    expect(specOnStdin).toMatch(/^npx sched run impl\.sched --spec \S+sched-stdin\/[0-9a-f]{16}\.sched --impl tiled /);
    await showsOutOfBounds(specOnStdin);
  }, 120_000);
});
