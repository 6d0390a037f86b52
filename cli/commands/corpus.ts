// `sched corpus [PATH…] [--all]`: verify a corpus and check every verdict against the files'
// `// EXPECT` lines (corpus/run.ts). Without paths, the quick slice listed in corpus/quick.txt (a
// representative minute of the corpus: malformed inputs, thesis examples, run-time errors, known
// bugs, Halide kernels, soundness probes); `--all` is the whole corpus. Progress on a terminal,
// one summary line, and an exit code CI can use: 0 every verdict as expected, 1 a wrong verdict,
// 2 some verdicts only less precise than expected.

import { readFileSync, writeFileSync } from 'node:fs';
import { checkReplays, summarizeReplays, type ReplayCheck } from '../../corpus/replays.ts';
import { countCases, markdownTable, resultsPage, type Row, runCorpus, summarize } from '../../corpus/run.ts';
import { type ParsedArgs, single, UsageError } from '../args.ts';
import { budgetOption, budgetOptions } from '../budget.ts';
import { budgetRecord } from '../../smt/identity.ts';
import { type Command, EXIT_FOUND, EXIT_OK, EXIT_UNKNOWN, JSON_OPTION } from '../command.ts';
import { toJson } from '../io.ts';
import { DEFAULT_TIMEOUT_MS, setSolverJobs } from '../../smt/z3.ts';
import { Progress } from '../progress.ts';
import { junit, type ReportItem, sarif } from '../report.ts';
import { formatOption, JOBS_OPTION, jobsOption } from './verify.ts';

export const QUICK_LIST = 'corpus/quick.txt';
export const RESULTS_PAGE = 'corpus/RESULTS.md';

/** The paths of the quick slice: one per line, `#` comments. */
export function quickSlice(): string[] {
  let text: string;
  try {
    text = readFileSync(QUICK_LIST, 'utf8');
  } catch {
    throw new UsageError(`no ${QUICK_LIST} here: run sched corpus from the repository's root, or give paths`);
  }
  return text.split('\n').map((l) => l.replace(/#.*/, '').trim()).filter(Boolean);
}

function item(r: Row): ReportItem {
  return { file: r.file, impl: r.impl === '-' ? '(file)' : r.impl, verdict: r.got, class: r.class, message: `expected ${r.expected}, got ${r.got}${r.reason ? `: ${r.reason}` : ''}`, line: r.line, col: r.col, ms: r.ms, asExpected: r.ok ? true : false, replay: r.replay };
}

export const corpusCommand: Command = {
  name: 'corpus',
  summary: "Verify a corpus and check each verdict against the files' EXPECT lines (default: the quick slice, about a minute; --all: everything).",
  usage: 'sched corpus [PATH…] [--all] [--filter S] [--budget B | --timeout-ms T] [--jobs N] [--format text|json|sarif|junit] [--markdown FILE] [--replays] [--results]',
  options: [
    { name: 'all', value: false, help: 'the whole corpus/ directory (default without paths: the quick slice of corpus/quick.txt)' },
    { name: 'filter', value: true, metavar: 'S', help: 'only files whose path contains S' },
    ...budgetOptions(DEFAULT_TIMEOUT_MS),
    JOBS_OPTION,
    { name: 'format', value: true, metavar: 'F', help: 'text (default), json, sarif or junit' },
    { name: 'markdown', value: true, metavar: 'FILE', help: 'also write the table of every case as Markdown to FILE' },
    { name: 'replays', value: false, help: 'then re-run the printed `sched run` command of every invalid verdict in a fresh process and check that it shows the verdict\'s class' },
    { name: 'results', value: false, help: 'rewrite corpus/RESULTS.md from this run (with --all): the summary, every case, and every replay command printed' },
    JSON_OPTION,
  ],
  async run(args: ParsedArgs): Promise<number> {
    const t0 = performance.now(); // the wall time of the summary: the whole command, files read and counted
    const format = formatOption(args);
    const text = format === 'text';
    const all = args.flags.has('all');
    if (all && args.positional.length > 0) throw new UsageError('give paths or --all, not both');
    if (args.flags.has('results') && !all) throw new UsageError('--results describes the whole corpus: give --all with it', 'results');
    const paths = all ? ['corpus'] : args.positional.length > 0 ? args.positional : quickSlice();
    const filter = single(args, 'filter');
    const timeoutMs = budgetOption(args, DEFAULT_TIMEOUT_MS);
    const progress = new Progress(countCases(paths, filter), !text);
    const jobs = jobsOption(args);
    setSolverJobs(jobs);
    if (text && !all && args.positional.length === 0) process.stdout.write(`the quick slice (${QUICK_LIST}; --all for the whole corpus)\n`);
    const rows = await runCorpus(paths, {
      filter,
      timeoutMs,
      jobs,
      starting: (file, impl) => progress.start(`${file}: ${impl}`),
      progress: (r) => {
        progress.step();
        if (!text) return;
        const mark = r.ok ? 'ok  ' : r.unsound ? 'UNSOUND' : r.incomplete ? 'INCOMPLETE' : 'WRONG';
        process.stdout.write(`${mark} ${r.file} ${r.impl}: expected ${r.expected}, got ${r.got} (${(r.ms / 1000).toFixed(2)} s)${!r.ok && r.reason ? `\n       ${r.reason}` : ''}\n`);
      },
    });
    progress.end();
    const wallMs = performance.now() - t0;
    let replays: ReplayCheck[] | null = null;
    if (args.flags.has('replays')) {
      const replayProgress = new Progress(rows.filter((r) => r.got.startsWith('invalid') && r.replay !== null).length, !text);
      replays = await checkReplays(rows, (c) => {
        replayProgress.step();
        if (text && !c.ok) process.stdout.write(`REPLAY FAILED ${c.row.file} ${c.row.impl}: verdict ${c.row.got}, the replay shows ${c.shows}\n       ${c.row.replay}\n`);
      }, (r) => replayProgress.start(`replay ${r.file}: ${r.impl}`));
      replayProgress.end();
    }
    const summary = summarize(rows, wallMs) + (replays ? `\n${summarizeReplays(rows, replays)}` : '');
    if (format === 'json') process.stdout.write(toJson({ rows, summary, budget: budgetRecord(timeoutMs), ...(replays ? { replays: replays.map((c) => ({ file: c.row.file, impl: c.row.impl, class: c.row.class, command: c.row.replay, shows: c.shows, ok: c.ok })) } : {}) }) + '\n');
    else if (format === 'sarif') process.stdout.write(sarif(rows.map(item)) + '\n');
    else if (format === 'junit') process.stdout.write(junit(rows.map(item)) + '\n');
    else process.stdout.write(`\n${summary}\n`);
    const markdown = single(args, 'markdown');
    if (markdown) writeFileSync(markdown, `${markdownTable(rows)}\n\n${summary}\n`);
    if (args.flags.has('results')) writeFileSync(RESULTS_PAGE, resultsPage(rows, wallMs, replays ? summarizeReplays(rows, replays) : null));
    if (rows.some((r) => !r.ok && !r.incomplete) || replays?.some((c) => !c.ok)) return EXIT_FOUND;
    if (rows.some((r) => r.incomplete)) return EXIT_UNKNOWN;
    return EXIT_OK;
  },
};
