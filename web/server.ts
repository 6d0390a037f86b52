// The playground's HTTP server (`sched serve`): the page's bundle, the corpus as examples, and
// one POST endpoint per engine (web/api.ts), answered one at a time — the engines are
// synchronous and the solver is one queue, so a second request waits for the first. Each answer
// carries its compute cost (wall clock, and CPU time of this process and its solver child). Z3
// runs here, in the serving process's solver child (see README § Playground for the measurement
// behind that choice).

import { readdirSync, readFileSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, extname, join, relative, resolve, sep } from 'node:path';
import { writeBundle } from '../proofs/certificates/certificates.ts';
import { checkSat } from '../smt/z3.ts';
import * as api from './api.ts';
import type { Cost, Example } from './protocol.ts';
import { tarGz } from './tar.ts';

export interface ServeOptions {
  readonly port: number;
  readonly host: string;
  /** The bundled page (web/build.ts). */
  readonly dist: string;
  /** The folder whose `.sched` files are offered as examples (the repository's corpus/). */
  readonly corpus: string;
  /** Extra response headers (e.g. cross-origin isolation for a page that runs Z3 itself). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Called before the page is served (rebuilds a stale bundle while the page is being worked on). */
  readonly beforePage?: () => Promise<unknown>;
  /** Answer engine requests (default); false serves files only, as a static host would. */
  readonly engines?: boolean;
  /** Allow pages from other origins to call the API (a static copy of the page hosted elsewhere). */
  readonly cors?: boolean;
}

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.png': 'image/png', '.json': 'application/json', '.sched': 'text/plain; charset=utf-8', '.wasm': 'application/wasm' };

/** The example folders, in the order the page lists them. */
const EXAMPLE_DIRS = ['thesis', 'examples', 'runtime'];

export function listExamples(corpus: string): Example[] {
  const out: Example[] = [];
  for (const d of EXAMPLE_DIRS) {
    const dir = join(corpus, d);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) {
      if (!f.endsWith('.sched')) continue;
      const first = readFileSync(join(dir, f), 'utf8').split('\n')[0] ?? '';
      out.push({ path: `${d}/${f}`, title: first.replace(/^\/\/\s*/, '').slice(0, 120) });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Cost: wall clock and CPU (this process, all threads; plus its Z3 child process, from /proc)

const TICK_MS = 10; // Linux USER_HZ is 100 on every architecture Node supports

/** CPU milliseconds of each solver child (smt/z3-server.mjs) of this process, by pid. */
function childCpuMs(): Map<number, number> {
  const out = new Map<number, number>();
  try {
    for (const t of readdirSync('/proc/self/task')) {
      const kids = readFileSync(`/proc/self/task/${t}/children`, 'utf8').trim();
      for (const k of kids ? kids.split(/\s+/) : []) {
        // Only the solver: a browser driven by the same process (the end-to-end test) is not ours.
        if (!readFileSync(`/proc/${k}/cmdline`, 'utf8').includes('z3-server')) continue;
        const stat = readFileSync(`/proc/${k}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out.set(Number(k), (Number(f[11]) + Number(f[12])) * TICK_MS);
      }
    }
  } catch {
    // Not Linux, or a child ended while being read: the child's share is then not counted.
  }
  return out;
}

async function measured<T>(f: () => Promise<T>): Promise<{ value: T; cost: Cost }> {
  const w0 = performance.now();
  const c0 = process.cpuUsage();
  const k0 = childCpuMs();
  const value = await f();
  const c1 = process.cpuUsage(c0);
  let kids = 0;
  for (const [pid, ms] of childCpuMs()) kids += ms - (k0.get(pid) ?? 0);
  return { value, cost: { wallMs: Math.round(performance.now() - w0), cpuMs: Math.round((c1.user + c1.system) / 1000 + kids) } };
}

// ---------------------------------------------------------------------------------------------

function send(res: ServerResponse, status: number, body: string | Buffer, type: string, extra: Readonly<Record<string, string>> = {}): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...extra });
  res.end(body);
}

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 4 << 20) throw new Error('request too large');
    chunks.push(c as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

interface Kept {
  readonly verified: api.Verified;
  readonly source: string;
  readonly file: string;
}

export async function startServer(o: ServeOptions): Promise<{ url: string; close(): Promise<void> }> {
  const corpus = resolve(o.corpus);
  const bundles = new Map<string, Kept>();
  let nextBundle = 1;
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(f: () => Promise<T>): Promise<T> => {
    const next = queue.then(f);
    queue = next.catch(() => undefined);
    return next;
  };
  const base = { ...(o.headers ?? {}), ...(o.cors ? { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type' } : {}) };

  const engines: Record<string, (x: never) => Promise<object>> = {
    check: async (x: { source: string; file: string }) => api.check(String(x.source), String(x.file)),
    run: api.run,
    step: api.step,
    explore: api.exploreStates,
    verify: async (x: Parameters<typeof api.verify>[0]) => {
      const v = await api.verify(x);
      if ('refused' in v) return v;
      const id = String(nextBundle++);
      bundles.set(id, { verified: v, source: x.source, file: x.file });
      if (bundles.size > 20) bundles.delete(bundles.keys().next().value!);
      return { ...v.answer, bundle: `api/bundle/${id}/${basename(x.file, '.sched')}.${v.answer.impl}.tar.gz` };
    },
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = decodeURIComponent(url.pathname);
    if (req.method === 'OPTIONS') return send(res, 204, '', 'text/plain', base);
    if (o.engines === false && path.startsWith('/api/')) return send(res, 404, 'not found', 'text/plain', base);
    if (req.method === 'POST' && path.startsWith('/api/')) {
      const name = path.slice(5);
      const engine = engines[name];
      if (!engine) return send(res, 404, JSON.stringify({ failure: `no engine '${name}'` }), 'application/json', base);
      let input: unknown;
      try {
        input = await body(req);
      } catch (e) {
        return send(res, 400, JSON.stringify({ failure: String((e as Error).message) }), 'application/json', base);
      }
      try {
        const { value, cost } = await serial(() => measured(() => engine(input as never)));
        return send(res, 200, JSON.stringify({ ...value, cost }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)), 'application/json', base);
      } catch (e) {
        // A bug in sched: the page shows it; the server keeps serving.
        return send(res, 500, JSON.stringify({ failure: `internal error (a bug in sched, please report it): ${(e as Error).stack ?? String(e)}` }), 'application/json', base);
      }
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed', 'text/plain', base);
    if (path === '/api/examples') return send(res, 200, JSON.stringify(listExamples(corpus)), 'application/json', base);
    if (path.startsWith('/api/example/')) {
      const file = resolve(corpus, path.slice('/api/example/'.length));
      if (!file.startsWith(corpus + sep) || extname(file) !== '.sched' || !existsSync(file)) return send(res, 404, 'no such example', 'text/plain', base);
      return send(res, 200, readFileSync(file), TYPES['.sched']!, base);
    }
    const b = /^\/api\/bundle\/(\d+)\/([^/]+)\.tar\.gz$/.exec(path);
    if (b) {
      const kept = bundles.get(b[1]!);
      if (!kept) return send(res, 404, 'this bundle is no longer kept: verify again', 'text/plain', base);
      const tmp = mkdtempSync(join(tmpdir(), 'sched-bundle-'));
      try {
        // The manifest names the input file as the page named it.
        writeBundle(join(tmp, b[2]!), { name: kept.file, text: kept.source }, kept.verified.result, kept.verified.eliminations);
        return send(res, 200, tarGz(tmp, b[2]!), 'application/gzip', { ...base, 'content-disposition': `attachment; filename="${b[2]}.tar.gz"` });
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    }
    if (path === '/' && o.beforePage) await o.beforePage();
    const rel = path === '/' ? 'index.html' : path.slice(1);
    const file = resolve(o.dist, rel);
    if (!file.startsWith(resolve(o.dist) + sep) || !existsSync(file) || relative(o.dist, file).startsWith('..')) return send(res, 404, 'not found', 'text/plain', base);
    return send(res, 200, readFileSync(file), TYPES[extname(file)] ?? 'application/octet-stream', base);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, String(e), 'text/plain');
      else res.end();
    });
  });
  await new Promise<void>((ok, ko) => {
    server.once('error', ko);
    server.listen(o.port, o.host, () => ok());
  });
  // The solver process takes a second or two to start (35 MB of WASM): start it with the server.
  void checkSat('(assert true)', { timeoutMs: 10_000 });
  const addr = server.address();
  const port = typeof addr === 'object' && addr !== null ? addr.port : o.port;
  return {
    url: `http://${o.host.includes(':') ? `[${o.host}]` : o.host}:${port}/`,
    close: () => new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    }),
  };
}
