// docs/commands.md's generated parts, from the commands' definitions (cli/help.ts): the table of
// commands, the exit codes, and each command's usage and options (a section `## NAME` per
// command; one the page lacks is added at its end); and README.md's table of commands. The prose
// around them is written by hand.
//   npx tsx cli/commands-doc.ts          rewrite them (npm run docs)
//   npx tsx cli/commands-doc.ts --check  exit 1 if they are not up to date
// test/commands-doc.test.ts holds the page to the definitions, every command included.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadCommands } from './commands/index.ts';
import { commandsTableMarkdown, exitCodesMarkdown, optionsMarkdown } from './help.ts';

const COMMANDS = await loadCommands();

export const COMMANDS_PAGE = fileURLToPath(new URL('../docs/commands.md', import.meta.url));
export const README = fileURLToPath(new URL('../README.md', import.meta.url));

const begin = (what: string): string => `<!-- begin generated: ${what} (npm run docs) -->`;
const end = (what: string): string => `<!-- end generated: ${what} -->`;

/** Replace the generated block `what` of `page` (which must hold its markers) with `body`. */
function fill(page: string, what: string, body: string): string {
  const b = page.indexOf(begin(what));
  const e = page.indexOf(end(what));
  if (b < 0 || e < b) throw new Error(`no generated block '${what}' (its markers ${begin(what)} … ${end(what)})`);
  return `${page.slice(0, b + begin(what).length)}\n${body}\n${page.slice(e)}`;
}

/** The page with every generated block as the definitions say it now. */
export function regenerate(page: string): string {
  let out = fill(page, 'commands', commandsTableMarkdown(COMMANDS));
  out = fill(out, 'exit codes', exitCodesMarkdown());
  for (const c of COMMANDS) {
    const what = `options of ${c.name}`;
    if (!out.includes(begin(what))) {
      const heading = new RegExp(`^## ${c.name}\\s*$`, 'm').exec(out);
      const block = `\n\n${begin(what)}\n${end(what)}`;
      out = heading ? out.slice(0, heading.index + heading[0].length) + block + out.slice(heading.index + heading[0].length) : `${out.trimEnd()}\n\n## ${c.name}${block}\n`;
    }
    out = fill(out, what, optionsMarkdown(c));
  }
  return out;
}

/** README.md with its table of commands as the definitions say it now. */
export function regenerateReadme(readme: string): string {
  return fill(readme, 'commands', commandsTableMarkdown(COMMANDS, 'docs/commands.md'));
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [file, name, update] of [[COMMANDS_PAGE, 'docs/commands.md', regenerate], [README, 'README.md', regenerateReadme]] as const) {
    const page = readFileSync(file, 'utf8');
    const now = update(page);
    if (now === page) continue;
    if (process.argv.includes('--check')) {
      process.stderr.write(`${name} is not what the commands define: run npm run docs\n`);
      process.exitCode = 1;
    } else {
      writeFileSync(file, now);
      process.stdout.write(`${name} regenerated\n`);
    }
  }
}
