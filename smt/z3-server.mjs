// The Z3 solver process (see smt/z3.ts). Z3 runs in WASM with a heap that cannot grow past
// 2 GiB; when a query exhausts it, or Z3 gives up for lack of memory, the WebAssembly runtime ends
// the whole process. Keeping Z3 in a child process turns that into an `unknown` answer for one
// query instead of the end of a verification. Plain JavaScript, so that it starts without a
// TypeScript loader. Protocol (Node IPC): {id, script, timeoutMs} in, {id, output, ms, timedOut} out.

import { init } from 'z3-solver';

const api = await init();
const { Z3 } = api;
const encoder = new TextEncoder();

// z3-solver's eval_smtlib2_string frees the script's memory before the worker thread has read it
// (Emscripten `ccall` stack allocation): the script goes through heap memory freed afterwards.
async function evalScript(ctx, script) {
  const em = api.em;
  const bytes = encoder.encode(script);
  const ptr = em._malloc(bytes.length + 1);
  try {
    em.HEAPU8.set(bytes, ptr);
    em.HEAPU8[ptr + bytes.length] = 0;
    return await em.async_call(em._async_Z3_eval_smtlib2_string, ctx, ptr);
  } finally {
    em._free(ptr);
  }
}

async function run(script, timeoutMs) {
  const cfg = Z3.mk_config();
  const ctx = Z3.mk_context_rc(cfg);
  Z3.del_config(cfg);
  const t0 = performance.now();
  let timedOut = false;
  // Z3's own :timeout covers the SMT core; the timer also stops tactics that ignore it.
  const timer = setTimeout(() => {
    timedOut = true;
    Z3.interrupt(ctx);
  }, timeoutMs + 250);
  let output = '';
  try {
    output = await evalScript(ctx, `(set-option :timeout ${timeoutMs})\n${script}`);
  } catch (e) {
    output = `(error "${String(e?.message ?? e).replace(/"/g, "'")}")`;
  } finally {
    clearTimeout(timer);
    Z3.del_context(ctx);
  }
  return { output, ms: performance.now() - t0, timedOut };
}

// One query at a time (z3-solver allows one async call at a time); the parent queues too.
let chain = Promise.resolve();
process.on('message', (msg) => {
  chain = chain.then(async () => {
    const r = await run(msg.script, msg.timeoutMs);
    process.send({ id: msg.id, ...r });
  });
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
