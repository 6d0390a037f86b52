// The corpus runner (`npm run corpus`): verifies every implementation of every .sched file under
// corpus/ (or the paths given), compares each verdict with the file's `// EXPECT:` lines, prints
// a table (file, impl, expected, got, class, time) and a summary, and exits 1 on any wrong
// verdict. Files under corpus/errors/ must be rejected as input errors instead.
//
//   npx tsx corpus/run.ts [PATH…] [--filter S] [--timeout-ms T] [--json] [--markdown FILE] [--readme]

import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { checkProgramFull } from '../core/check.ts';
import { SchedInputError } from '../core/diagnostics.ts';
import { parseProgram } from '../core/parser.ts';
import { verifyImpl } from '../proofs/verify.ts';
import { shutdownZ3 } from '../smt/z3.ts';
import { expandFiles } from '../cli/args.ts';

export interface Expectation {
  readonly verdict: 'valid' | 'invalid' | 'unknown';
  readonly class: string | null;
}

/** `// EXPECT: v [class]` lines in order, and `// EXPECT name: v [class]` lines by impl name. */
export function readExpectations(text: string): { ordered: Expectation[]; named: Map<string, Expectation> } {
  const ordered: Expectation[] = [];
  const named = new Map<string, Expectation>();
  for (const line of text.split('\n')) {
    const m = /^\s*\/\/\s*EXPECT(?:\s+([A-Za-z_][A-Za-z0-9_]*))?\s*:\s*(valid|invalid|unknown)(?:\s+([a-z-]+))?/.exec(line);
    if (!m) continue;
    const e: Expectation = { verdict: m[2] as Expectation['verdict'], class: m[3] ?? null };
    if (m[1]) named.set(m[1], e);
    else ordered.push(e);
  }
  return { ordered, named };
}

export interface Row {
  readonly file: string;
  readonly impl: string;
  readonly expected: string;
  readonly got: string;
  readonly class: string | null;
  readonly ms: number;
  readonly ok: boolean;
  /**
   * Not wrong, only less than expected: `unknown` where a verdict was expected, or the generic
   * `value-mismatch` where replay could not tell output- from annotation-mismatch (kernels
   * whose fixed sizes, e.g. N = 1024, are too large for a concrete run).
   */
  readonly incomplete: boolean;
  /** `valid` where a correct validator must refute: the worst bug this project can have. */
  readonly unsound: boolean;
  readonly reason: string | null;
}

function show(e: Expectation | undefined): string {
  return e === undefined ? '(none)' : e.class ? `${e.verdict} ${e.class}` : e.verdict;
}

function matches(e: Expectation | undefined, verdict: string, cls: string | null): boolean {
  if (e === undefined) return false;
  if (e.verdict !== verdict) return false;
  return e.class === null || e.class === cls;
}

function incompleteFor(e: Expectation | undefined, verdict: string, cls: string | null): boolean {
  if (e === undefined || e.verdict === 'unknown') return false;
  if (verdict === 'unknown') return true;
  return verdict === 'invalid' && e.verdict === 'invalid' && cls === 'value-mismatch' && (e.class === 'annotation-mismatch' || e.class === 'output-mismatch');
}

export async function runCorpus(paths: readonly string[], opts: { filter?: string; timeoutMs?: number; progress?: (r: Row) => void }): Promise<Row[]> {
  const rows: Row[] = [];
  for (const file of expandFiles(paths)) {
    if (opts.filter && !file.includes(opts.filter)) continue;
    const rel = relative(process.cwd(), file);
    const text = readFileSync(file, 'utf8');
    const t0 = performance.now();
    if (rel.split(/[\\/]/).includes('errors')) {
      // Malformed inputs: `sched check` must reject them (exit 3).
      let rejected = false;
      try {
        await checkProgramFull(parseProgram(file, text));
      } catch (e) {
        if (!(e instanceof SchedInputError)) throw e;
        rejected = true;
      }
      const row: Row = { file: rel, impl: '-', expected: 'input error', got: rejected ? 'input error' : 'accepted', class: null, ms: performance.now() - t0, ok: rejected, incomplete: false, unsound: false, reason: null };
      rows.push(row);
      opts.progress?.(row);
      continue;
    }
    const exp = readExpectations(text);
    let checked;
    try {
      checked = await checkProgramFull(parseProgram(file, text));
    } catch (e) {
      if (!(e instanceof SchedInputError)) throw e;
      const row: Row = { file: rel, impl: '-', expected: 'well-formed', got: 'input error', class: null, ms: performance.now() - t0, ok: false, incomplete: false, unsound: false, reason: e.message.split('\n')[0] ?? null };
      rows.push(row);
      opts.progress?.(row);
      continue;
    }
    for (const [k, ci] of checked.impls.entries()) {
      const e = exp.named.get(ci.impl.name) ?? exp.ordered[k];
      const r = await verifyImpl(ci, { timeoutMs: opts.timeoutMs });
      const row: Row = {
        file: rel,
        impl: ci.impl.name,
        expected: show(e),
        got: r.class ? `${r.verdict} ${r.class}` : r.verdict,
        class: r.class,
        ms: r.ms,
        ok: matches(e, r.verdict, r.class),
        incomplete: !matches(e, r.verdict, r.class) && incompleteFor(e, r.verdict, r.class),
        unsound: r.verdict === 'valid' && e?.verdict === 'invalid',
        reason: r.reason,
      };
      rows.push(row);
      opts.progress?.(row);
    }
  }
  return rows;
}

export function summarize(rows: readonly Row[]): string {
  const impls = rows.filter((r) => r.impl !== '-' || r.expected === 'input error');
  const by = (v: string): number => rows.filter((r) => r.got.startsWith(v)).length;
  const ok = rows.filter((r) => r.ok).length;
  const incomplete = rows.filter((r) => r.incomplete).length;
  const unsound = rows.filter((r) => r.unsound).length;
  const wrong = rows.length - ok - incomplete;
  const total = rows.reduce((a, r) => a + r.ms, 0);
  return `${impls.length} cases: ${ok} as expected, ${incomplete} incomplete, ${wrong} wrong (${unsound} unsound) · verdicts: ${by('valid')} valid, ${by('invalid')} invalid, ${by('unknown')} unknown, ${by('input error')} input errors · ${(total / 1000).toFixed(1)} s`;
}

/** The README's corpus section: summary, counts per expected class, and every row not as expected. */
export function readmeSection(rows: readonly Row[]): string {
  const impls = rows.filter((r) => r.impl !== '-');
  const classes = new Map<string, number>();
  for (const r of impls) classes.set(r.expected, (classes.get(r.expected) ?? 0) + 1);
  const expUnknownOrInvalid = impls.filter((r) => !r.expected.startsWith('valid')).length;
  const out = [
    summarize(rows),
    '',
    `${impls.length} implementations with EXPECT lines (${((100 * expUnknownOrInvalid) / Math.max(impls.length, 1)).toFixed(0)} % expected invalid or unknown), ${rows.length - impls.length} malformed inputs. Expected verdicts:`,
    '',
    '| expected | cases |',
    '| --- | ---: |',
    ...[...classes].sort().map(([c, n]) => `| ${c} | ${n} |`),
    '',
  ];
  const off = rows.filter((r) => !r.ok);
  if (off.length > 0) {
    out.push('Not as expected (less precise than expected, with why):', '');
    for (const r of off) out.push(`- \`${r.file}\` ${r.impl}: expected ${r.expected}, got ${r.got}${r.unsound ? ' — UNSOUND' : r.incomplete ? '' : ' — WRONG'}. ${r.reason ?? ''}`);
    out.push('');
  }
  const unknowns = rows.filter((r) => r.ok && r.got.startsWith('unknown'));
  if (unknowns.length > 0) {
    out.push('Expected `unknown` (outside what the verifier decides; each file says why in its comments):', '');
    for (const r of unknowns) out.push(`- \`${r.file}\` ${r.impl}: ${r.got}. ${r.reason ?? ''}`);
    out.push('');
  }
  out.push('Full table: `corpus/RESULTS.md` (regenerated by `npm run corpus -- --readme`).');
  return out.join('\n');
}

export function markdownTable(rows: readonly Row[]): string {
  const lines = ['| file | impl | expected | got | time (s) |', '| --- | --- | --- | --- | ---: |'];
  for (const r of rows) lines.push(`| ${r.file} | ${r.impl} | ${r.expected} | ${r.ok ? r.got : r.incomplete ? `*${r.got}* (incomplete)` : `**${r.got}** (WRONG)`} | ${(r.ms / 1000).toFixed(2)} |`);
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const paths: string[] = [];
  let filter: string | undefined;
  let timeoutMs: number | undefined;
  let json = false;
  let markdown: string | undefined;
  let readme = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--filter') filter = argv[++i];
    else if (a === '--timeout-ms') timeoutMs = Number(argv[++i]);
    else if (a === '--json') json = true;
    else if (a === '--markdown') markdown = argv[++i];
    else if (a === '--readme') readme = true;
    else paths.push(a);
  }
  const tty = process.stdout.isTTY && !json;
  const rows = await runCorpus(paths.length ? paths : ['corpus'], {
    filter,
    timeoutMs,
    progress: json
      ? undefined
      : (r) => {
          const mark = r.ok ? 'ok  ' : r.unsound ? 'UNSOUND' : r.incomplete ? 'INCOMPLETE' : 'WRONG';
          process.stdout.write(`${mark} ${r.file} ${r.impl}: expected ${r.expected}, got ${r.got} (${(r.ms / 1000).toFixed(2)} s)${!r.ok && r.reason ? `\n       ${r.reason}` : ''}\n`);
        },
  });
  void tty;
  const summary = summarize(rows);
  if (json) process.stdout.write(JSON.stringify({ rows, summary }, null, 2) + '\n');
  else process.stdout.write(`\n${summary}\n`);
  if (markdown) writeFileSync(markdown, `${markdownTable(rows)}\n\n${summary}\n`);
  if (readme) {
    writeFileSync('corpus/RESULTS.md', `# Corpus results\n\nRegenerated by \`npm run corpus -- --readme\`.\n\n${markdownTable(rows)}\n\n${summary}\n`);
    const text = readFileSync('README.md', 'utf8');
    const start = '<!-- corpus:start -->';
    const end = '<!-- corpus:end -->';
    if (text.includes(start) && text.includes(end)) {
      writeFileSync('README.md', text.slice(0, text.indexOf(start) + start.length) + `\n${readmeSection(rows)}\n` + text.slice(text.indexOf(end)));
    }
  }
  // Exit 1 on a wrong verdict, 2 when some are only incomplete (like `sched verify`'s unknown).
  return rows.some((r) => !r.ok && !r.incomplete) ? 1 : rows.some((r) => r.incomplete) ? 2 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const code = await main(process.argv.slice(2));
  await shutdownZ3();
  process.exitCode = code;
}
