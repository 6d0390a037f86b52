// The `sched` command line (docs/commands.md): dispatches to one module per command, maps
// errors to exit codes, and makes sure the process exits by itself (Z3 worker threads stopped).

import { type Diagnostic, SchedInputError, formatDiagnostic } from '../core/language/diagnostics.ts';
import { didYouMean } from './suggest.ts';
import { toJson } from './io.ts';
import { shutdownZ3 } from '../smt/z3.ts';
import { helpText, parseArgs, UsageError } from './args.ts';
import { type Command, EXIT_INPUT, EXIT_INTERNAL } from './command.ts';
import { checkCommand } from './commands/check.ts';
import { exploreCommand } from './commands/explore.ts';
import { runCommand } from './commands/run.ts';
import { stepCommand } from './commands/step.ts';
import { verifyCommand } from './commands/verify.ts';
import { recheckCommand } from './commands/recheck.ts';
import { lowerCommand } from './commands/lower.ts';
import { fuzzCommand } from './commands/fuzz.ts';
import { corpusCommand } from './commands/corpus.ts';
import { derivationCommand } from './commands/derivation.ts';
import { serveCommand } from './commands/serve.ts';
import { halideCommand } from './commands/halide.ts';

const COMMANDS: readonly Command[] = [checkCommand, runCommand, stepCommand, exploreCommand, verifyCommand, corpusCommand, recheckCommand, derivationCommand, lowerCommand, halideCommand, fuzzCommand, serveCommand];

function topHelp(): string {
  const lines = ['usage: sched <command> FILE… [options]', '', 'commands:'];
  for (const c of COMMANDS) lines.push(`  ${c.name.padEnd(10)} ${c.summary}`);
  lines.push('', "Run 'sched <command> --help' for the options of a command.");
  lines.push('Exit codes: 0 success/valid/match, 1 invalid/mismatch/error found, 2 unknown or limit, 3 input error.');
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === 'help' && rest.length > 0) {
    // `sched help verify` is `sched verify --help`.
    const c = COMMANDS.find((x) => x.name === rest[0]);
    if (c === undefined) {
      process.stderr.write(`sched: unknown command '${rest[0]}'${didYouMean(rest[0]!, COMMANDS.map((x) => x.name))}\n`);
      return EXIT_INPUT;
    }
    process.stdout.write(helpText(c.usage, c.summary, c.options) + '\n');
    return 0;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(topHelp() + '\n');
    return name === undefined ? EXIT_INPUT : 0;
  }
  if (name === '--version') {
    process.stdout.write('sched 0.1.0\n');
    return 0;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  if (cmd === undefined) {
    process.stderr.write(`sched: unknown command '${name}'${didYouMean(name, COMMANDS.map((c) => c.name))}\n\n${topHelp()}\n`);
    return EXIT_INPUT;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(helpText(cmd.usage, cmd.summary, cmd.options) + '\n');
    return 0;
  }
  // With --json, stdout holds one JSON document whatever happens: an input error is one too.
  const json = rest.includes('--json');
  const inputError = (diagnostics: readonly Diagnostic[] | null, message: string | null): void => {
    if (json) process.stdout.write(toJson({ error: 'input', message, diagnostics: diagnostics ?? [] }) + '\n');
  };
  try {
    return await cmd.run(parseArgs(rest, cmd.options));
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`sched ${cmd.name}: ${e.message}\n`);
      inputError(null, e.message);
      return EXIT_INPUT;
    }
    if (e instanceof SchedInputError) {
      for (const d of e.diagnostics) process.stderr.write(formatDiagnostic(d) + '\n');
      inputError(e.diagnostics, null);
      return EXIT_INPUT;
    }
    if (e instanceof RangeError && /call stack/.test(e.message)) {
      // Every phase recurses on the syntax tree; the parser's bounds keep inputs below what the
      // command's stack holds (cli/sched.js), so this is reached only from a library caller or an
      // unusual shape: say so rather than print a stack trace.
      process.stderr.write(`sched ${cmd.name}: the input is too deeply nested for the available stack (run it through the sched command, or split the expression)\n`);
      return EXIT_INPUT;
    }
    process.stderr.write(`sched ${cmd.name}: internal error (a bug in sched, please report it):\n${(e as Error).stack ?? String(e)}\n`);
    return EXIT_INTERNAL;
  }
}

const code = await main(process.argv.slice(2));
await shutdownZ3();
process.exitCode = code;
