// `sched serve [--port P] [--host H] [--out DIR]`: the playground (web/): a page to edit, run,
// step, explore and verify SCHED, served with the engines behind it; or, with --out, the page
// written to a static folder (its examples included) that calls a `sched serve --cors` for the
// engines.

import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPage, DIST_DIR, ensureBuilt } from '../../web/build.ts';
import { listExamples, startServer } from '../../web/server.ts';
import { intOption, type ParsedArgs, single } from '../args.ts';
import { type Command, EXIT_OK } from '../command.ts';

const CORPUS = fileURLToPath(new URL('../../corpus/', import.meta.url));

export const serveCommand: Command = {
  name: 'serve',
  summary: 'The playground: a web page to edit, run, step, explore and verify SCHED (or --out DIR: the page as a static folder).',
  usage: 'sched serve [--port P] [--host H] [--cors] | sched serve --out DIR',
  options: [
    { name: 'port', value: true, metavar: 'P', help: 'TCP port (default 8080; 0 picks a free one)' },
    { name: 'host', value: true, metavar: 'H', help: 'address to listen on (default 127.0.0.1)' },
    { name: 'cors', value: false, help: 'let pages from other origins (a static copy of the page) call the engines' },
    { name: 'out', value: true, metavar: 'DIR', help: "write the page and its examples to DIR and exit (host it anywhere; it calls the engines of the server named by its '?api=URL')" },
  ],
  async run(args: ParsedArgs): Promise<number> {
    const out = single(args, 'out');
    if (out !== undefined) {
      const files = await buildPage(out);
      mkdirSync(join(out, 'examples'), { recursive: true });
      const examples = listExamples(CORPUS);
      for (const e of examples) {
        mkdirSync(join(out, 'examples', e.path, '..'), { recursive: true });
        cpSync(join(CORPUS, e.path), join(out, 'examples', e.path));
      }
      writeFileSync(join(out, 'examples.json'), JSON.stringify(examples, null, 1) + '\n');
      for (const f of files) process.stdout.write(`${join(out, f.name)}  ${(f.bytes / 1024).toFixed(0)} KiB\n`);
      process.stdout.write(`${join(out, 'examples')}/  ${examples.length} examples\n`);
      return EXIT_OK;
    }
    const port = intOption(args, 'port', 8080, 0);
    const host = single(args, 'host') ?? '127.0.0.1';
    if (await ensureBuilt()) process.stderr.write('sched serve: page bundled (web/dist)\n');
    const s = await startServer({ port, host, dist: DIST_DIR, corpus: CORPUS, cors: args.flags.has('cors'), beforePage: ensureBuilt });
    process.stdout.write(`sched playground: ${s.url}\n`);
    // Serves until the process is stopped.
    return new Promise<number>(() => undefined);
  },
};
