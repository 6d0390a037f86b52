#!/usr/bin/env node
// The `sched` bin. The command runs in a worker thread with a large stack: every phase (type
// checker, encoders, evaluators) recurses on expression trees, and the unrolled kernels real
// compilers print have operator chains thousands of terms long (Node's default stack holds about
// 700 levels of the type checker). The worker runs the compiled dist/ when it is up to date with
// the sources, else the TypeScript sources through tsx (cli/thread.js), so `npx sched` needs no
// build step and never runs stale code. This thread only relays standard streams and the exit code.
import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { Worker } from 'node:worker_threads';

const STACK_MB = 512;
// A worker's heap is capped like a process's (about 4 GB) unless told otherwise; a whole-corpus
// run in one process went over that (JS heap out of memory after 38 minutes). Half the machine's
// memory, and never less than Node's default.
const HEAP_MB = Math.max(4096, Math.floor(totalmem() / 2 ** 21));

const worker = new Worker(new URL('./thread.js', import.meta.url), {
  argv: process.argv.slice(2),
  workerData: { fromSource: process.argv[2] === 'serve' },
  stdin: true,
  stdout: true,
  stderr: true,
  resourceLimits: { stackSizeMb: STACK_MB, maxOldGenerationSizeMb: HEAP_MB },
});

let code = null;
let open = 2;
const finish = () => {
  if (code !== null && open === 0) process.exit(code);
};
// A reader that goes away (`sched … | head`) ends the command quietly, as SIGPIPE would.
const closed = (e) => {
  if (e.code !== 'EPIPE') throw e;
  void worker.terminate();
  process.exit(141);
};
process.stdout.on('error', closed);
process.stderr.on('error', closed);
for (const [from, to] of [[worker.stdout, process.stdout], [worker.stderr, process.stderr]]) {
  from.pipe(to, { end: false });
  from.on('end', () => {
    open--;
    finish();
  });
}
// Standard input (`sched verify -`) goes to the worker only when a command reads it.
worker.on('message', (m) => {
  if (m === 'stdin') process.stdin.pipe(worker.stdin);
});
worker.on('error', (e) => {
  process.stderr.write(`sched: internal error (a bug in sched, please report it):\n${e?.stack ?? e}\n`);
  code = 4;
  open = 0;
  finish();
});
worker.on('exit', (c) => {
  // 13 is Node's "unsettled top-level await": the command's promise was still pending when
  // nothing was left that could settle it. Never end that way in silence.
  if (c === 13 && code === null) process.stderr.write('sched: internal error (a bug in sched, please report it): the command stopped while still waiting for an operation that can no longer finish (exit 13)\n');
  code ??= c;
  finish();
});

// Started by npm (`npx sched …`, `npm run serve`), the PID a user has is npm's, and npm runs the
// bin through `sh -c`: stopping npm leaves this process running on, an orphan holding its port
// (a server) or its cores (a campaign). So this process stops when npm or the shell between is
// gone. (Stopped by its own PID, or Ctrl-C, it stops as any process does: it is one process, the
// command running in a thread of it.)
if (process.env.npm_command) {
  const parentOf = (pid) => {
    try {
      return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]);
    } catch {
      return NaN; // no /proc: the immediate parent only
    }
  };
  const watched = [process.ppid, parentOf(process.ppid)].filter((p) => Number.isInteger(p) && p > 1);
  setInterval(() => {
    for (const p of watched) {
      try {
        process.kill(p, 0);
      } catch (e) {
        if (e.code !== 'ESRCH') continue;
        void worker.terminate();
        process.exit(143);
      }
    }
  }, 1000).unref();
}
