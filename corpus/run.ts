// The corpus runner (`sched corpus`, `npm run corpus`): verifies every implementation of every
// .sched file under the paths given, compares each verdict with the file's `// EXPECT` lines, and
// summarises. Files under an `errors/` directory must be rejected as input errors instead. The
// command (cli/commands/corpus.ts) adds progress, formats and corpus/RESULTS.md.

import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { checkProgramFull } from '../core/language/check.ts';
import { SchedInputError } from '../core/language/diagnostics.ts';
import { parseProgram } from '../core/language/parser.ts';
import { readSource, rejectEmpty } from '../core/language/load.ts';
import { verdictAt, verifyImpl } from '../proofs/verifier/verify.ts';
import { VerifyPool } from '../proofs/batch/parallel.ts';
import { expandFiles } from '../cli/args.ts';
import { replayCommand } from '../cli/replay-command.ts';

export interface Expectation {
  readonly verdict: 'valid' | 'invalid' | 'unknown';
  readonly class: string | null;
}

/** `// EXPECT: v [class]` lines in order, and `// EXPECT name: v [class]` lines by impl name. */
export function readExpectations(text: string): { ordered: Expectation[]; named: Map<string, Expectation> } {
  const ordered: Expectation[] = [];
  const named = new Map<string, Expectation>();
  for (const line of text.split('\n')) {
    const m = /^\s*\/\/\s*EXPECT(?:\s+([A-Za-z_][A-Za-z0-9_]*))?\s*:\s*(valid|invalid|unknown)(?:\s+([a-z-]+))?/.exec(line);
    if (!m) continue;
    const e: Expectation = { verdict: m[2] as Expectation['verdict'], class: m[3] ?? null };
    if (m[1]) named.set(m[1], e);
    else ordered.push(e);
  }
  return { ordered, named };
}

export interface Row {
  readonly file: string;
  readonly impl: string;
  readonly expected: string;
  readonly got: string;
  readonly class: string | null;
  readonly ms: number;
  readonly ok: boolean;
  /**
   * Not wrong, only less than expected: `unknown` where a verdict was expected, or the generic
   * `value-mismatch` where replay could not tell output- from annotation-mismatch (kernels
   * whose fixed sizes, e.g. N = 1024, are too large for a concrete run).
   */
  readonly incomplete: boolean;
  /** `valid` where a correct validator must refute: the worst bug this project can have. */
  readonly unsound: boolean;
  readonly reason: string | null;
  /** Where the verdict points (the counterexample's position), for SARIF/JUnit; 1:1 if nowhere. */
  readonly line: number;
  readonly col: number;
  /** The `sched run` command that replays an invalid verdict, or null. */
  readonly replay: string | null;
  /** The class the verdict says its replay shows (`the run shows: …`), or null. */
  readonly replayShows: string | null;
  /** Solver queries a safety net stopped (VerifyResult.netStops), when there were any. */
  readonly netStops?: number;
}

function show(e: Expectation | undefined): string {
  return e === undefined ? '(none)' : e.class ? `${e.verdict} ${e.class}` : e.verdict;
}

function matches(e: Expectation | undefined, verdict: string, cls: string | null): boolean {
  if (e === undefined) return false;
  if (e.verdict !== verdict) return false;
  return e.class === null || e.class === cls;
}

function incompleteFor(e: Expectation | undefined, verdict: string, cls: string | null): boolean {
  if (e === undefined || e.verdict === 'unknown') return false;
  if (verdict === 'unknown') return true;
  return verdict === 'invalid' && e.verdict === 'invalid' && cls === 'value-mismatch' && (e.class === 'annotation-mismatch' || e.class === 'output-mismatch');
}

export interface CorpusOptions {
  readonly filter?: string;
  readonly timeoutMs?: number;
  /** Before each implementation (or malformed file) is verified. */
  readonly starting?: (file: string, impl: string) => void;
  readonly progress?: (r: Row) => void;
  /** Implementations verified at once by worker threads (proofs/batch/parallel.ts); rows still come in
   *  the sequential order. Default 1: in this process. */
  readonly jobs?: number;
}

/** Implementations (and malformed inputs) under `paths`: the number of rows runCorpus gives. */
export function countCases(paths: readonly string[], filter?: string): number {
  let n = 0;
  for (const file of expandFiles(paths)) {
    if (filter && !file.includes(filter)) continue;
    if (file.split(/[\\/]/).includes('errors')) {
      n++;
      continue;
    }
    try {
      n += Math.max(parseProgram(file, readFileSync(file, 'utf8')).impls.length, 0);
    } catch {
      n++;
    }
  }
  return n;
}

export async function runCorpus(paths: readonly string[], opts: CorpusOptions): Promise<Row[]> {
  const jobs = opts.jobs ?? 1;
  const total = jobs > 1 ? countCases(paths, opts.filter) : 1;
  const pool = jobs > 1 && total > 1 ? new VerifyPool(Math.min(jobs, total)) : null;
  // One case after another, each as the file and impl to announce and how to get its row. With a
  // pool, every implementation is submitted as soon as its file is checked, and the rows are
  // taken in this order all the same.
  type Case = { readonly file: string; readonly impl: string; readonly row: () => Promise<Row> };
  async function* cases(): AsyncGenerator<Case> {
    for (const file of expandFiles(paths)) {
      if (opts.filter && !file.includes(opts.filter)) continue;
      const rel = relative(process.cwd(), file);
      const text = readSource(file); // an unreadable path is an input error, located
      if (rel.split(/[\\/]/).includes('errors')) {
        // Malformed inputs: `sched check` must reject them (exit 3).
        yield {
          file: rel,
          impl: '(malformed input)',
          row: async () => {
            const t0 = performance.now();
            let rejected = false;
            try {
              await checkProgramFull(parseProgram(file, text));
            } catch (e) {
              if (!(e instanceof SchedInputError)) throw e;
              rejected = true;
            }
            return { file: rel, impl: '-', expected: 'input error', got: rejected ? 'input error' : 'accepted', class: null, ms: performance.now() - t0, ok: rejected, incomplete: false, unsound: false, reason: null, line: 1, col: 1, replay: null, replayShows: null };
          },
        };
        continue;
      }
      const exp = readExpectations(text);
      const t0 = performance.now();
      let checked;
      try {
        const prog = parseProgram(file, text);
        rejectEmpty(prog, text);
        checked = await checkProgramFull(prog);
      } catch (e) {
        if (!(e instanceof SchedInputError)) throw e;
        const d = e.diagnostics[0];
        const row: Row = { file: rel, impl: '-', expected: 'well-formed', got: 'input error', class: null, ms: performance.now() - t0, ok: false, incomplete: false, unsound: false, reason: e.message.split('\n')[0] ?? null, line: d?.line ?? 1, col: d?.col ?? 1, replay: null, replayShows: null };
        yield { file: rel, impl: '-', row: async () => row };
        continue;
      }
      for (const [k, ci] of checked.impls.entries()) {
        const e = exp.named.get(ci.impl.name) ?? exp.ordered[k];
        const remote = pool && pool.verify({ path: file, name: file, impl: ci.impl.name, timeoutMs: opts.timeoutMs });
        // Read in order, so one failing early must not be reported as unhandled meanwhile.
        remote?.catch(() => undefined);
        const row = async (): Promise<Row> => {
          const r = remote ? await remote : await verifyImpl(ci, { timeoutMs: opts.timeoutMs });
          return {
            file: rel,
            impl: ci.impl.name,
            expected: show(e),
            got: r.class ? `${r.verdict} ${r.class}` : r.verdict,
            class: r.class,
            ms: r.ms,
            ok: matches(e, r.verdict, r.class),
            incomplete: !matches(e, r.verdict, r.class) && incompleteFor(e, r.verdict, r.class),
            unsound: r.verdict === 'valid' && e?.verdict === 'invalid',
            reason: r.reason,
            line: verdictAt(r, ci).line,
            col: verdictAt(r, ci).col,
            replay: r.replay ? replayCommand(rel, ci.impl.name, r.replay) : null,
            replayShows: r.replay?.class ?? null,
            ...(r.netStops ? { netStops: r.netStops } : {}),
          };
        };
        yield { file: rel, impl: ci.impl.name, row };
      }
    }
  }
  const rows: Row[] = [];
  try {
    let all: AsyncIterable<Case> | Case[] = cases();
    if (pool) {
      const list: Case[] = [];
      for await (const c of all) list.push(c);
      all = list;
    }
    for await (const c of all) {
      opts.starting?.(c.file, c.impl);
      const row = await c.row();
      rows.push(row);
      opts.progress?.(row);
    }
  } finally {
    await pool?.close();
  }
  return rows;
}

/** The summary line; its time is the wall time of the run when given (`wallMs`), and the time summed over the cases (which overlap under --jobs). */
export function summarize(rows: readonly Row[], wallMs?: number): string {
  const impls = rows.filter((r) => r.impl !== '-' || r.expected === 'input error');
  const by = (v: string): number => rows.filter((r) => r.got.startsWith(v)).length;
  const ok = rows.filter((r) => r.ok).length;
  const incomplete = rows.filter((r) => r.incomplete).length;
  const unsound = rows.filter((r) => r.unsound).length;
  const wrong = rows.length - ok - incomplete;
  const total = rows.reduce((a, r) => a + r.ms, 0);
  const time = `${wallMs !== undefined ? `${(wallMs / 1000).toFixed(1)} s wall, ` : ''}${(total / 1000).toFixed(1)} s summed over the cases`;
  return `${impls.length} cases: ${ok} as expected, ${incomplete} incomplete, ${wrong} wrong (${unsound} unsound) · verdicts: ${by('valid')} valid, ${by('invalid')} invalid, ${by('unknown')} unknown, ${by('input error')} input errors · ${time}`;
}

/** The summary of corpus/RESULTS.md: summary, counts per expected class, and every row not as expected. */
export function readmeSection(rows: readonly Row[], wallMs?: number): string {
  const impls = rows.filter((r) => r.impl !== '-');
  const classes = new Map<string, number>();
  for (const r of impls) classes.set(r.expected, (classes.get(r.expected) ?? 0) + 1);
  const expUnknownOrInvalid = impls.filter((r) => !r.expected.startsWith('valid')).length;
  const out = [
    summarize(rows, wallMs),
    '',
    `${impls.length} implementations with EXPECT lines (${((100 * expUnknownOrInvalid) / Math.max(impls.length, 1)).toFixed(0)} % expected invalid or unknown), ${rows.length - impls.length} malformed inputs. Expected verdicts:`,
    '',
    '| expected | cases |',
    '| --- | ---: |',
    ...[...classes].sort().map(([c, n]) => `| ${c} | ${n} |`),
    '',
  ];
  const off = rows.filter((r) => !r.ok);
  if (off.length > 0) {
    out.push('Not as expected (less precise than expected, with why):', '');
    for (const r of off) out.push(`- \`${r.file}\` ${r.impl}: expected ${r.expected}, got ${r.got}${r.unsound ? ' — UNSOUND' : r.incomplete ? '' : ' — WRONG'}. ${r.reason ?? ''}`);
    out.push('');
  }
  const unknowns = rows.filter((r) => r.ok && r.got.startsWith('unknown'));
  if (unknowns.length > 0) {
    out.push('Expected `unknown` (outside what the verifier decides; each file says why in its comments):', '');
    for (const r of unknowns) out.push(`- \`${r.file}\` ${r.impl}: ${r.got}. ${r.reason ?? ''}`);
    out.push('');
  }
  return out.join('\n').trimEnd();
}

export function markdownTable(rows: readonly Row[]): string {
  const lines = ['| file | impl | expected | got | time (s) |', '| --- | --- | --- | --- | ---: |'];
  for (const r of rows) lines.push(`| ${r.file} | ${r.impl} | ${r.expected} | ${r.ok ? r.got : r.incomplete ? `*${r.got}* (incomplete)` : `**${r.got}** (WRONG)`} | ${(r.ms / 1000).toFixed(2)} |`);
  return lines.join('\n');
}

/** A replay command as corpus/RESULTS.md lists it: the case, its verdict, what its run must show, and the command. */
export interface ListedReplay {
  readonly file: string;
  readonly impl: string;
  readonly got: string;
  readonly shows: string;
  /** Null: the verdict printed no command (an exact refutation no small run shows, I-ASSUME). */
  readonly command: string | null;
}

const REPLAYS_HEADER = '| file | impl | verdict | the run shows | replay command |';

/** Every replay command the run printed, and every invalid verdict that printed none, as a table (test/corpus-replays.test.ts runs each as printed). */
export function replaysTable(rows: readonly Row[]): string {
  const lines = [REPLAYS_HEADER, '| --- | --- | --- | --- | --- |'];
  for (const r of rows) {
    if (r.replay === null && !r.got.startsWith('invalid')) continue;
    if (r.replay !== null && (r.replay.includes('`') || r.replay.includes('|'))) throw new Error(`a replay command that a Markdown table cannot hold: ${r.replay}`);
    lines.push(`| ${r.file} | ${r.impl} | ${r.got} | ${r.replay === null ? '-' : (r.replayShows ?? r.class ?? '?')} | ${r.replay === null ? '(none)' : `\`${r.replay}\``} |`);
  }
  return lines.join('\n');
}

/** The replay commands listed in a corpus/RESULTS.md page. */
export function parseReplaysTable(page: string): ListedReplay[] {
  const at = page.indexOf(REPLAYS_HEADER);
  if (at < 0) return [];
  const out: ListedReplay[] = [];
  for (const line of page.slice(at).split('\n').slice(2)) {
    const m = /^\| (\S+) \| (\S+) \| ([^|]+) \| (\S+) \| (?:`([^`]+)`|\(none\)) \|$/.exec(line);
    if (!m) break;
    out.push({ file: m[1]!, impl: m[2]!, got: m[3]!.trim(), shows: m[4]!, command: m[5] ?? null });
  }
  return out;
}

/** corpus/RESULTS.md: the summary, every case, and every replay command printed. */
export function resultsPage(rows: readonly Row[], wallMs: number, replaySummary: string | null): string {
  return [
    '# Corpus results',
    '',
    'Generated by `npx sched corpus --all --results` (the whole corpus, every verdict against its file\'s `// EXPECT` line).',
    '',
    '## Summary',
    '',
    readmeSection(rows, wallMs),
    ...(replaySummary ? ['', replaySummary] : []),
    '',
    '## Every case',
    '',
    markdownTable(rows),
    '',
    '## Replay commands',
    '',
    'Every `sched run` command the verdicts printed, as printed, and every `invalid` verdict that printed none (an exact refutation that no run small enough shows); `test/corpus-replays.test.ts` runs each command and checks that it shows what its verdict says.',
    '',
    replaysTable(rows),
    '',
  ].join('\n');
}

/** The cases of corpus/RESULTS.md's table of every case: file, impl, and the verdict got. */
export function parseCasesTable(page: string): { file: string; impl: string; got: string }[] {
  const out: { file: string; impl: string; got: string }[] = [];
  for (const m of page.matchAll(/^\| (\S+) \| (\S+) \| [^|]+ \| \*{0,2}([^|*]+?)\*{0,2}(?: \((?:WRONG|incomplete)\))? \| [\d.]+ \|$/gm)) out.push({ file: m[1]!, impl: m[2]!, got: m[3]!.trim() });
  return out;
}
