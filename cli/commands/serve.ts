// `sched serve [--port P] [--host H] [--out DIR]`: the playground (web/): a page to edit, run,
// step, explore and verify SCHED, served with the engines behind it; or, with --out, the page
// written to a static folder with its examples and the engines and Z3 compiled for the browser.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStatic, DIST_DIR, ensureBuilt } from '../../web/build.ts';
import { startServer } from '../../web/server.ts';
import { intOption, type ParsedArgs, single } from '../args.ts';
import { type Command, EXIT_OK, JSON_OPTION } from '../command.ts';
import { toJson } from '../io.ts';

const CORPUS = fileURLToPath(new URL('../../corpus/', import.meta.url));

export const serveCommand: Command = {
  name: 'serve',
  summary: 'The playground: a web page to edit, run, step, explore and verify SCHED (or --out DIR: a static folder that runs the engines in the browser).',
  usage: 'sched serve [--port P] [--host H] [--cors] [--json] | sched serve --out DIR [--json]',
  options: [
    { name: 'port', value: true, metavar: 'P', help: 'TCP port (default 8080; 0 picks a free one)' },
    { name: 'host', value: true, metavar: 'H', help: 'address to listen on (default 127.0.0.1)' },
    { name: 'cors', value: false, help: 'let pages from other origins (a static copy of the page) call the engines' },
    { name: 'out', value: true, metavar: 'DIR', help: "write the page, its examples, and the engines with Z3 compiled for the browser to DIR and exit: host it anywhere that sends the headers in DIR/_headers (cross-origin isolation, for Z3's threads); or open it with '?api=URL' to use the engines of a sched serve --cors" },
    { ...JSON_OPTION, help: 'print one JSON document on stdout: {"url", "pid"} once serving, or {"files": [{"name", "bytes"}]} for --out' },
  ],
  async run(args: ParsedArgs): Promise<number> {
    const out = single(args, 'out');
    if (out !== undefined) {
      const files = await buildStatic(out, CORPUS);
      if (args.flags.has('json')) {
        process.stdout.write(toJson({ files }) + '\n');
        return EXIT_OK;
      }
      for (const f of files) process.stdout.write(`${join(out, f.name)}  ${(f.bytes / 1024).toFixed(0)} KiB\n`);
      process.stdout.write(`host it where the headers of ${join(out, '_headers')} are sent (Z3's threads need a cross-origin isolated page)\n`);
      return EXIT_OK;
    }
    const port = intOption(args, 'port', 8080, 0);
    const host = single(args, 'host') ?? '127.0.0.1';
    if (await ensureBuilt()) process.stderr.write('sched serve: page bundled (web/dist)\n');
    const s = await startServer({ port, host, dist: DIST_DIR, corpus: CORPUS, cors: args.flags.has('cors'), beforePage: ensureBuilt });
    if (args.flags.has('json')) process.stdout.write(JSON.stringify({ url: s.url, pid: process.pid }) + '\n');
    else process.stdout.write(`sched playground: ${s.url} (process ${process.pid}: stop it with Ctrl-C or kill ${process.pid})\n`);
    // Serves until the process is stopped.
    return new Promise<number>(() => undefined);
  },
};
