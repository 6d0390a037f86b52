// The engines inside the page, for a static copy of the playground (`sched serve --out DIR`, no
// server): web/api.ts — the same modules as the command line — bundled for the browser, with Z3
// as z3-solver's WASM build on the page (web/page-engines/z3-child.ts). The page calls `call`
// where it would POST to a server. The page must be cross-origin isolated (COOP/COEP headers)
// for Z3's threads.

import * as api from '../api.ts';
import type { EngineRequest, ExploreRequest, RunRequest, StepRequest, VerifyRequest } from '../protocol.ts';

const page = globalThis as unknown as { document: { createElement(t: string): { src: string; onload: () => void; onerror: () => void }; head: { append(e: unknown): void } }; crossOriginIsolated: boolean };

/** z3-solver's Emscripten loader (a classic script beside the page) defines `initZ3`. */
async function loadZ3(): Promise<void> {
  if (!page.crossOriginIsolated) throw new Error('Z3 needs a cross-origin isolated page: the host must send Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp (see the _headers file)');
  await new Promise<void>((ok, ko) => {
    const s = page.document.createElement('script');
    s.src = 'z3-built.js';
    s.onload = ok;
    s.onerror = () => ko(new Error('could not load z3-built.js'));
    page.document.head.append(s);
  });
}

const ready = loadZ3();

export async function call(name: string, body: unknown): Promise<object> {
  await ready;
  const t0 = performance.now();
  let v: object;
  switch (name) {
    case 'check': {
      const b = body as EngineRequest;
      v = await api.check(b.source, b.file);
      break;
    }
    case 'run':
      v = await api.run(body as RunRequest);
      break;
    case 'step':
      v = await api.step(body as StepRequest);
      break;
    case 'explore':
      v = await api.exploreStates(body as ExploreRequest);
      break;
    case 'verify': {
      const r = await api.verify(body as VerifyRequest);
      v = 'refused' in r ? r : r.answer; // certificate files need the server (node:fs, node:crypto)
      break;
    }
    default:
      throw new Error(`no engine '${name}'`);
  }
  // One thread does everything here: its wall clock is its compute time.
  const ms = Math.round(performance.now() - t0);
  return { ...v, cost: { wallMs: ms, cpuMs: ms } };
}
