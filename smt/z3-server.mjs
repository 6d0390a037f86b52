// The Z3 solver process (see smt/z3.ts). Z3 runs in WASM with a heap that cannot grow past
// 2 GiB; when a query exhausts it, or Z3 gives up for lack of memory, the WebAssembly runtime ends
// the whole process. Keeping Z3 in a child process turns that into an `unknown` answer for one
// query instead of the end of a verification. Plain JavaScript, so that it starts without a
// TypeScript loader. Protocol (Node IPC): {id, script, timeoutMs, options?} in, {id, output, ms, timedOut} out.

import { init } from 'z3-solver';
import { scriptRunner } from './z3-eval.mjs';

const run = scriptRunner(await init());

// One query at a time (z3-solver allows one async call at a time); the parent queues too.
let chain = Promise.resolve();
process.on('message', (msg) => {
  chain = chain.then(async () => {
    const r = await run(msg.script, msg.timeoutMs, msg.options);
    process.send({ id: msg.id, ...r });
  });
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
