// The tutorial's transcripts are what sched prints: every `$ npx sched …` block of
// docs/tutorial.md is run on blur3.sched in the state the text describes (as written, with the
// shift dropped, with the tap moved), and its output must equal the page's modulo timings (the
// page may end a block early with `…`).

import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { tempDir } from './temp-dirs.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'cli', 'sched.js');
const KERNEL = join(ROOT, 'corpus', 'examples', 'tutorial_blur3.sched');

/** The edits the tutorial asks for, by the section its block is in. */
const EDITS: Record<string, (s: string) => string> = {
  'Break it': (s) => s.replace('min(8 * t, N - 8)', '8 * t'),
};
const TAP = (s: string): string => s.replace('src[x0 + xi + 2]', 'src[x0 + xi + 1]');

interface Transcript {
  readonly section: string;
  readonly command: string;
  readonly output: string[];
  readonly tap: boolean;
}

function transcripts(page: string): Transcript[] {
  const out: Transcript[] = [];
  let section = '';
  let tap = false;
  const lines = page.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const h = /^## \d+\. (.*)$/.exec(l);
    if (h) {
      section = h[1]!;
      tap = false;
    }
    if (/Put the tap at/.test(l)) tap = true;
    if (l === '```' && lines[i + 1]?.startsWith('$ npx sched ')) {
      const command = lines[i + 1]!.slice(2);
      const output: string[] = [];
      for (i += 2; lines[i] !== '```'; i++) output.push(lines[i]!);
      out.push({ section, command, output, tap });
    }
  }
  return out;
}

const normal = (s: string): string => s.replace(/\d+(\.\d+)? ms/g, 'T ms').trimEnd();

describe('docs/tutorial.md', () => {
  const all = transcripts(readFileSync(join(ROOT, 'docs', 'tutorial.md'), 'utf8'));
  it('has the transcripts this test knows how to replay', () => {
    expect(all.map((t) => t.section)).toEqual(['Verify it', 'Break it', 'Replay it', 'Replay it', 'Watch the rules fire']);
  });
  for (const t of all) {
    it(`${t.section}: ${t.command}${t.tap ? ' (tap moved)' : ''}`, () => {
      const dir = tempDir('tutorial-');
      copyFileSync(KERNEL, join(dir, 'blur3.sched'));
      let text = readFileSync(join(dir, 'blur3.sched'), 'utf8');
      // The replay of section 5 runs the kernel broken in section 4.
      const edit = EDITS[t.section] ?? (t.section === 'Replay it' && !t.tap ? EDITS['Break it'] : undefined);
      if (edit) text = edit(text);
      if (t.tap) text = TAP(text);
      writeFileSync(join(dir, 'blur3.sched'), text);
      const args = t.command.split(' ').slice(2);
      let printed: string;
      try {
        printed = execFileSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8' });
      } catch (e) {
        printed = (e as { stdout: string }).stdout;
      }
      const got = printed.split('\n').map(normal);
      const want = t.output.map(normal);
      const shown = want[want.length - 1] === '…' ? want.slice(0, -1) : want;
      expect(got.slice(0, shown.length)).toEqual(shown);
      if (shown.length === want.length) expect(got.filter((l) => l !== '').length).toBe(shown.length);
    });
  }
});
