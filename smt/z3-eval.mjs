// Running one SMT-LIB script in a fresh Z3 context with a time limit, for any host of z3-solver:
// the solver process (smt/z3-server.mjs) and a browser page (the playground's Z3 placement
// measurement, web/bench/). Plain JavaScript, so that it loads without a TypeScript loader.

/**
 * `run(script, timeoutMs, options?)` → {output, ms, timedOut} over an initialised z3-solver `api`.
 * `options` (SMT-LIB set-option lines) replace the default `(set-option :timeout timeoutMs)`: a
 * resource limit (smt/limits.ts); `timeoutMs` stays the wall-clock bound of the interruption.
 */
export function scriptRunner(api) {
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

  return async function run(script, timeoutMs, options) {
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
      output = await evalScript(ctx, `${options ?? `(set-option :timeout ${timeoutMs})`}\n${script}`);
    } catch (e) {
      output = `(error "${String(e?.message ?? e).replace(/"/g, "'")}")`;
    } finally {
      clearTimeout(timer);
      Z3.del_context(ctx);
    }
    return { output, ms: performance.now() - t0, timedOut };
  };
}
