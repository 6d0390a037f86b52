// The page side of the Z3 placement measurement (web/bench/placement.ts): the engines and Z3 run
// in the browser. It verifies the scenario — the tiled matrix product, then the same
// with a wrong tile shift — exactly as the server does (web/api.ts), and reports the times.

import { checkSat } from '../../smt/z3.ts';
import { check, verify } from '../api.ts';

/** The page's globals (this file is type-checked with the Node sources, without the DOM library). */
const page = globalThis as unknown as {
  location: { search: string };
  crossOriginIsolated: boolean;
  document: { body: { textContent: string } };
  probe?: unknown;
};
const q = new URLSearchParams(page.location.search);
const file = 'ch1-matmul-accumulator.sched';
const source = await (await fetch(q.get('example') ?? file)).text();
const buggy = source.replace('min(i0 * 4, N - 4) + i1 in {\n            r[] {0.0} := 0.0;', 'min(i0 * 4, N - 3) + i1 in {\n            r[] {0.0} := 0.0;');
const out: Record<string, unknown> = {};
const t0 = performance.now();
await checkSat('(assert true)');
out.z3ReadyMs = performance.now() - t0;
const t1 = performance.now();
const c = await check(source, file);
out.checkMs = performance.now() - t1;
out.impls = c.impls.length;
for (const [name, text] of [['valid', source], ['invalid', buggy]] as const) {
  const t = performance.now();
  const v = await verify({ source: text, file, impl: 'corrected' });
  out[name] = { verdict: 'refused' in v ? 'refused' : v.answer.verdict, ms: performance.now() - t };
  out.firstVerdictSinceNavigationMs ??= performance.now();
}
out.resources = performance.getEntriesByType('resource').map((r) => ({ name: r.name.split('/').pop(), bytes: (r as unknown as { encodedBodySize: number }).encodedBodySize }));
out.crossOriginIsolated = page.crossOriginIsolated;
page.probe = out;
page.document.body.textContent = JSON.stringify(out, null, 1);
