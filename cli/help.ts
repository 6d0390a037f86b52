// What the command line says about itself, from the commands' own definitions
// (cli/commands/index.ts, given by the caller): `sched help`, `sched help COMMAND`, and the generated parts of
// docs/commands.md (cli/commands-doc.ts). One source, so the help and the page cannot disagree.

import type { OptionSpec } from './args.ts';
import { type Command, EXIT_CODES } from './command.ts';

/** Options every command takes without listing them. */
export const HELP_OPTION: OptionSpec = { name: 'help', value: false, help: 'print this help (also `sched help COMMAND`)' };

/** `sched help`: COMMANDS are every command (cli/commands/index.ts, loadCommands). */
export function topHelp(COMMANDS: readonly Command[]): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  const lines = ['usage: sched <command> FILE|DIR|-… [options]', '', 'commands:'];
  for (const c of COMMANDS) lines.push(`  ${c.name.padEnd(width)} ${c.summary}`);
  lines.push('', "Run 'sched help <command>' (or 'sched <command> --help') for the options of a command.", '', 'exit codes:');
  for (const [code, meaning] of EXIT_CODES) lines.push(`  ${code}  ${meaning}`);
  return lines.join('\n');
}

function optionLeft(s: OptionSpec): string {
  return `--${s.name}${s.value ? ` ${s.metavar ?? 'VALUE'}` : ''}`;
}

export function commandHelp(c: Command): string {
  const lines = [`usage: ${c.usage}`, '', c.summary, '', 'options:'];
  for (const s of [...c.options, HELP_OPTION]) lines.push(`${`  ${optionLeft(s)}`.padEnd(28)} ${s.help}${s.repeat ? ' (repeatable)' : ''}`);
  lines.push('', `exit codes: ${EXIT_CODES.map(([code, meaning]) => `${code} ${meaning.split(':')[0]}`).join('; ')} (sched help)`);
  return lines.join('\n');
}

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The table of commands, each linked to its section of docs/commands.md (`page`: that page's path from the reader). */
export function commandsTableMarkdown(COMMANDS: readonly Command[], page = ''): string {
  return ['| command | does |', '| --- | --- |', ...COMMANDS.map((c) => `| [\`${c.name}\`](${page}#${c.name}) | ${cell(c.summary)} |`)].join('\n');
}

/** docs/commands.md: the exit codes. */
export function exitCodesMarkdown(): string {
  return ['| exit code | meaning |', '| ---: | --- |', ...EXIT_CODES.map(([code, m]) => `| ${code} | ${cell(m)} |`)].join('\n');
}

/** docs/commands.md: a command's usage line and the table of its options. */
export function optionsMarkdown(c: Command): string {
  return [
    '```',
    c.usage,
    '```',
    '',
    c.summary,
    '',
    '| option | meaning |',
    '| --- | --- |',
    ...c.options.map((s) => `| \`${optionLeft(s)}\`${s.repeat ? ' (repeatable)' : ''} | ${cell(s.help)} |`),
  ].join('\n');
}
