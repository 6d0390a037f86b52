// The `sched` command line as a function (cli/main.ts runs it; tests run it in their process):
// finds the command (cli/commands/index.ts), parses its options, and turns every way a command can
// stop into an exit code and, under --json or --format, into the one error document
// (cli/io.ts). Nothing here knows a particular command.

import { type Diagnostic, SchedInputError, formatDiagnostic } from '../core/language/diagnostics.ts';
import { didYouMean } from './suggest.ts';
import { type DocDiagnostic, type ErrorDocument, errorDocument, toJson } from './io.ts';
import { parseArgs, UsageError } from './args.ts';
import { type Command, CommandError, EXIT_INPUT, EXIT_INTERNAL } from './command.ts';
import { COMMAND_NAMES, loadCommand, loadCommands } from './commands/index.ts';
import { commandHelp, topHelp } from './help.ts';
import { junit, type ReportItem, sarif } from './report.ts';
import { TOOL_VERSION } from '../core/language/version.ts';

/** The file name of a usage diagnostic: the arguments themselves. */
export const COMMAND_LINE = '<command line>';

/** A usage error as a located diagnostic: the column of the argument it is about in `sched CMD ARGS…`. */
function usageDiagnostic(cmd: string, argv: readonly string[], e: UsageError): DocDiagnostic {
  const words = ['sched', cmd, ...argv];
  let col = 1;
  if (e.arg !== undefined) {
    const at = words.findIndex((w, i) => i >= 2 && (w === e.arg || w === `--${e.arg}` || w.startsWith(`--${e.arg}=`)));
    if (at >= 0) col = words.slice(0, at).reduce((n, w) => n + w.length + 1, 1);
  }
  return { file: COMMAND_LINE, line: 1, col, phase: 'usage', message: e.message, expected: null, found: null };
}

/** The format an error document is printed in: json (--json, --format json), sarif, junit or none. */
function errorFormat(argv: readonly string[]): 'json' | 'sarif' | 'junit' | null {
  if (argv.includes('--json')) return 'json';
  for (let i = 0; i < argv.length; i++) {
    const f = argv[i] === '--format' ? argv[i + 1] : argv[i]!.startsWith('--format=') ? argv[i]!.slice('--format='.length) : undefined;
    if (f === 'json' || f === 'sarif' || f === 'junit') return f;
  }
  return null;
}

/** An error document in the output format asked for (SARIF and JUnit carry it as results). */
export function printErrorDocument(doc: ErrorDocument, format: 'json' | 'sarif' | 'junit'): void {
  if (format === 'json') {
    process.stdout.write(toJson(doc) + '\n');
    return;
  }
  const items: ReportItem[] = doc.diagnostics.map((d) => ({ file: d.file, impl: `(${doc.error})`, verdict: `${doc.error} error`, class: d.phase, message: d.message, line: d.line, col: d.col, ms: 0, asExpected: null, replay: null }));
  if (items.length === 0) items.push({ file: COMMAND_LINE, impl: `(${doc.error})`, verdict: `${doc.error} error`, class: null, message: doc.message, line: 1, col: 1, ms: 0, asExpected: null, replay: null });
  process.stdout.write((format === 'sarif' ? sarif(items) : junit(items)) + '\n');
}

/** Run `sched ARGV…`; the exit code. */
export async function sched(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  const names = COMMAND_NAMES;
  if (name === 'help' && rest.length > 0) {
    // `sched help verify` is `sched verify --help`.
    const c = await loadCommand(rest[0]!);
    if (c === undefined) {
      process.stderr.write(`sched: unknown command '${rest[0]}'${didYouMean(rest[0]!, names)}\n`);
      return EXIT_INPUT;
    }
    process.stdout.write(commandHelp(c) + '\n');
    return 0;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(topHelp(await loadCommands()) + '\n');
    return name === undefined ? EXIT_INPUT : 0;
  }
  if (name === '--version') {
    process.stdout.write(`${TOOL_VERSION}\n`);
    return 0;
  }
  const format = errorFormat(rest);
  const cmd: Command | undefined = await loadCommand(name);
  if (cmd === undefined) {
    const message = `unknown command '${name}'${didYouMean(name, names)}`;
    process.stderr.write(`sched: ${message}\n\n${topHelp(await loadCommands())}\n`);
    if (format) printErrorDocument(errorDocument([{ file: COMMAND_LINE, line: 1, col: 7, phase: 'usage', message, expected: `one of ${names.join(', ')}`, found: `'${name}'` }]), format);
    return EXIT_INPUT;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(commandHelp(cmd) + '\n');
    return 0;
  }
  const fail = (diagnostics: readonly DocDiagnostic[], exit: 3 | 4, message?: string): number => {
    if (format) printErrorDocument(errorDocument(diagnostics, exit, message), format);
    return exit;
  };
  try {
    return await cmd.run(parseArgs(rest, cmd.options));
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`sched ${cmd.name}: ${e.message}\n`);
      return fail([usageDiagnostic(cmd.name, rest, e)], EXIT_INPUT, `sched ${cmd.name}: ${e.message}`);
    }
    if (e instanceof SchedInputError || e instanceof CommandError) {
      for (const d of e.diagnostics) process.stderr.write(formatDiagnostic(d as Diagnostic) + '\n');
      return fail(e.diagnostics, e instanceof CommandError ? e.exit : EXIT_INPUT);
    }
    if (e instanceof RangeError && /call stack/.test(e.message)) {
      // Every phase recurses on the syntax tree; the parser's bounds keep inputs below what the
      // command's stack holds (cli/sched.js), so this is reached only from a library caller or an
      // unusual shape: say so rather than print a stack trace.
      const message = `sched ${cmd.name}: the input is too deeply nested for the available stack (run it through the sched command, or split the expression)`;
      process.stderr.write(`${message}\n`);
      return fail([], EXIT_INPUT, message);
    }
    const message = `sched ${cmd.name}: internal error (a bug in sched, please report it): ${(e as Error).message ?? String(e)}`;
    process.stderr.write(`sched ${cmd.name}: internal error (a bug in sched, please report it):\n${(e as Error).stack ?? String(e)}\n`);
    return fail([], EXIT_INTERNAL, message);
  }
}
