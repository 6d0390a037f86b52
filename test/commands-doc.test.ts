// The command line's contract has one source, the commands' definitions (cli/commands/index.ts):
// `sched help` and docs/commands.md are generated from them, and every command line the
// documentation shows uses only options its command has. Every command is covered, including
// ones added later, since everything here iterates over the registry. Also: every command prints
// the one error document (cli/io.ts) under --json.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS_PAGE, README, regenerate, regenerateReadme } from '../cli/commands-doc.ts';
import { EXIT_CODES } from '../cli/command.ts';
import { loadCommands } from '../cli/commands/index.ts';
import { commandHelp, topHelp } from '../cli/help.ts';
import { shutdownZ3 } from '../smt/z3.ts';
import { schedInProcess } from './in-process.ts';
import { tempDir } from './temp-dirs.ts';

afterAll(shutdownZ3);

const ROOT = join(import.meta.dirname, '..');
const COMMANDS = await loadCommands();
const names = new Set(COMMANDS.map((c) => c.name));
const optionsOf = (cmd: string): Set<string> => new Set([...COMMANDS.find((c) => c.name === cmd)!.options.map((o) => o.name), 'help']);

/** Markdown pages a user reads: the README and docs/. */
function pages(): string[] {
  return ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
}

/**
 * `--name` options of a command line's text (up to a comment, a pipe into another command, or the
 * end); a quoted word is an option's value (`--passes '--affine-loop-tile=tile-size=8'`), not options.
 */
function optionsIn(text: string): string[] {
  return [...text.replace(/\s#\s.*$/, '').replace(/'[^']*'|"[^"]*"/g, "''").matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((m) => m[1]!);
}

describe('the command line and its documentation', () => {
  it('docs/commands.md holds every command with the usage and options of its definition (npm run docs)', () => {
    const page = readFileSync(COMMANDS_PAGE, 'utf8');
    const now = regenerate(page);
    if (now !== page && process.env.SCHED_WRITE_DOCS === '1') writeFileSync(COMMANDS_PAGE, now);
    expect(page, 'docs/commands.md differs from the commands’ definitions: run npm run docs').toBe(now);
    for (const c of COMMANDS) {
      expect(page).toMatch(new RegExp(`^## ${c.name}$`, 'm'));
      for (const o of c.options) expect(page).toContain(`\`--${o.name}`);
    }
    // The README's table of commands too.
    const readme = readFileSync(README, 'utf8');
    expect(readme, 'README.md differs from the commands’ definitions: run npm run docs').toBe(regenerateReadme(readme));
    for (const c of COMMANDS) expect(readme).toContain(`[\`${c.name}\`](docs/commands.md#${c.name})`);
  });

  it('sched help lists every command and every exit code; sched help COMMAND every option', () => {
    const top = topHelp(COMMANDS);
    for (const c of COMMANDS) expect(top).toMatch(new RegExp(`^  ${c.name} +${c.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    for (const [code] of EXIT_CODES) expect(top).toMatch(new RegExp(`^  ${code}  `, 'm'));
    expect(EXIT_CODES.map(([c]) => c)).toEqual([0, 1, 2, 3, 4]);
    // docs/commands.md, JSON output: every command takes --json.
    expect(COMMANDS.filter((c) => !c.options.some((o) => o.name === 'json' && !o.value)).map((c) => c.name)).toEqual([]);
    for (const c of COMMANDS) for (const o of c.options) expect(commandHelp(c)).toMatch(new RegExp(`^  --${o.name}\\b`, 'm'));
  });

  it('every sched command line in the documentation names a command and only options it has', () => {
    const bad: string[] = [];
    for (const page of pages()) {
      const text = readFileSync(join(ROOT, page), 'utf8');
      // Command lines in code blocks and in `code spans`.
      const code = [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n'));
      const spans = [...text.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
      for (const line of [...code, ...spans]) {
        for (const part of line.split(/\|(?!\|)|&&|;/)) {
          // `npx sched CMD …` anywhere, or a part that starts with `sched CMD`.
          const m = /(?:^|\s)npx sched (\S+)(.*)$/.exec(part) ?? /^\s*sched (\S+)(.*)$/.exec(part);
          if (!m) continue;
          const cmd = m[1]!;
          if (cmd === 'help' || cmd === '--version' || /^[A-Z<]/.test(cmd)) continue;
          if (!names.has(cmd)) {
            bad.push(`${page}: unknown command in '${line.trim()}'`);
            continue;
          }
          for (const o of optionsIn(m[2]!)) if (!optionsOf(cmd).has(o)) bad.push(`${page}: sched ${cmd} has no option --${o} ('${line.trim()}')`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it("docs/commands.md names only a command's own options in its section", () => {
    const page = readFileSync(COMMANDS_PAGE, 'utf8');
    const bad: string[] = [];
    for (const c of COMMANDS) {
      const at = page.search(new RegExp(`^## ${c.name}$`, 'm'));
      const rest = page.slice(at + 1);
      const next = rest.search(/^## /m);
      const section = (next < 0 ? rest : rest.slice(0, next)).replace(/```[\s\S]*?```/g, '').replace(/<!-- begin generated[\s\S]*?<!-- end generated[^>]*>/g, '');
      for (const span of section.matchAll(/`([^`\n]+)`/g)) {
        if (/\bsched [a-z]/.test(span[1]!)) continue; // a command line: checked above
        for (const o of optionsIn(span[1]!)) if (!optionsOf(c.name).has(o)) bad.push(`## ${c.name}: \`${span[1]}\` is not an option of sched ${c.name}`);
      }
    }
    expect(bad).toEqual([]);
  });
});

describe('one error document for every command', () => {
  const empty = join(tempDir('sched-empty-'), 'empty.sched');
  writeFileSync(empty, '');

  const isErrorDocument = (out: string, exit: number): Record<string, unknown> => {
    const doc = JSON.parse(out) as Record<string, unknown>;
    expect(doc).toMatchObject({ error: 'input', exit });
    expect(typeof doc.message).toBe('string');
    const ds = doc.diagnostics as { file: string; line: number; col: number; phase: string; message: string }[];
    expect(ds.length).toBeGreaterThan(0);
    for (const d of ds) expect(d).toMatchObject({ file: expect.any(String), line: expect.any(Number), col: expect.any(Number), phase: expect.any(String), message: expect.any(String) });
    return doc;
  };

  it('an unknown option, under --json and --format json, with the column of the argument', async () => {
    for (const c of COMMANDS) {
      const r = await schedInProcess([c.name, '--no-such-option', '--json']);
      expect({ command: c.name, code: r.code }).toEqual({ command: c.name, code: 3 });
      const doc = isErrorDocument(r.out, 3);
      expect((doc.diagnostics as { file: string; col: number; phase: string }[])[0]).toMatchObject({ file: '<command line>', phase: 'usage', col: `sched ${c.name} `.length + 1 });
    }
    const v = await schedInProcess(['verify', 'x.sched', '--format', 'json', '--timeout-ms', 'soon']);
    expect(v.code).toBe(3);
    expect(isErrorDocument(v.out, 3).message).toMatch(/--timeout-ms/);
  });

  it('a file that does not exist, for every command that reads files', async () => {
    for (const c of COMMANDS.filter((x) => /^sched \S+ \[?[A-Z]/.test(x.usage))) {
      const r = await schedInProcess([c.name, '/nonexistent/input.sched', '--json']);
      expect({ command: c.name, code: r.code }).toEqual({ command: c.name, code: 3 });
      isErrorDocument(r.out, 3);
    }
  });

  it('an empty input, for every command that reads programs', async () => {
    for (const c of COMMANDS.filter((x) => x.options.some((o) => o.name === 'spec'))) {
      const r = await schedInProcess([c.name, empty, '--json']);
      expect({ command: c.name, code: r.code }).toEqual({ command: c.name, code: 3 });
      const doc = isErrorDocument(r.out, 3);
      expect(doc.message).toMatch(/empty input/);
    }
  });

  it('nothing to verify or run: a file of specs alone, or a directory of them', async () => {
    const dir = tempDir('sched-specs-');
    writeFileSync(join(dir, 'specs.sched'), 'spec s { param N; input A(i): i32; output B(i): i32 = A(i) where 0 <= i && i < N; }\n');
    for (const argv of [['verify', join(dir, 'specs.sched')], ['verify', dir], ['run', join(dir, 'specs.sched'), '--param', 'N=1']]) {
      const r = await schedInProcess([...argv, '--json']);
      expect({ argv, code: r.code }).toEqual({ argv, code: 3 });
      expect(isErrorDocument(r.out, 3).message).toMatch(/no impl to (verify|run)/);
    }
    // check accepts a file of specs alone.
    expect((await schedInProcess(['check', join(dir, 'specs.sched')])).code).toBe(0);
  });
});
