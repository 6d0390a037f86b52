// Summarise the `--log` files of a fuzzing run (one JSON line per case), possibly written by several
// processes that split one run with `--start` (the README's long-run figures come from here).
//
//   npx tsx proofs/fuzz/logstats.ts LOG.jsonl… [--markdown]
//
// Reports the cases and their index coverage, outcomes, verifier verdicts and classes, every case
// that was not `ok` (disagreements first) with the verifier's reason, and times: per case (median,
// 95th percentile, maximum) and per process (the elapsed time of its last line).

import { readFileSync } from 'node:fs';
import { median, quantile } from '../../bench/stats.ts';
import type { CaseRecord } from './harness.ts';

/** A `--log` line: the case record plus running totals (older logs lack the verifier fields). */
type Line = Omit<CaseRecord, 'verifyClass' | 'verifyReason' | 'verifyMs'> & Partial<Pick<CaseRecord, 'verifyClass' | 'verifyReason'>> & { readonly totals: { readonly ms: number } };

function parseLog(file: string): Line[] {
  const out: Line[] = [];
  readFileSync(file, 'utf8').split('\n').forEach((text, k) => {
    if (text.trim() === '') return;
    try {
      out.push(JSON.parse(text) as Line);
    } catch {
      // A run killed mid-write leaves a partial last line; anything else is worth saying.
      process.stderr.write(`${file}:${k + 1}: not a JSON line, skipped\n`);
    }
  });
  return out;
}

function count<T>(xs: readonly T[], key: (x: T) => string): [string, number][] {
  const m = new Map<string, number>();
  for (const x of xs) m.set(key(x), (m.get(key(x)) ?? 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1]);
}

/** The obligation's kind (ids, lines and array names vary from case to case), e.g. "the value
 *  written to …[…] equals its annotation". */
function reasonKind(r: string | null | undefined): string {
  if (!r) return 'no reason given';
  const m = /^vc[0-9.]+ \((.*)\): /.exec(r);
  const kind = m ? m[1]! : r;
  return kind.replace(/[A-Za-z_][A-Za-z0-9_]*\[…\]/g, '…[…]').replace(/ at line [0-9]+/g, '').replace(/'[^']*'/g, "'…'").replace(/[0-9]+/g, 'N');
}

/** Contiguous index ranges, e.g. "0–4999, 5000–9999" or "0–1707, 5000–6820". */
function ranges(ix: readonly number[]): string {
  const out: string[] = [];
  let start = ix[0]!;
  for (let k = 1; k <= ix.length; k++) {
    if (k === ix.length || ix[k]! !== ix[k - 1]! + 1) {
      out.push(start === ix[k - 1]! ? `${start}` : `${start}–${ix[k - 1]!}`);
      if (k < ix.length) start = ix[k]!;
    }
  }
  return out.length > 6 ? `${out.slice(0, 6).join(', ')}, … (${out.length} ranges)` : out.join(', ');
}

function main(): number {
  const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const markdown = process.argv.includes('--markdown');
  if (files.length === 0) {
    process.stderr.write('usage: npx tsx proofs/fuzz/logstats.ts LOG.jsonl… [--markdown]\n');
    return 2;
  }
  const perFile = files.map((f) => ({ f, lines: parseLog(f) }));
  const byIndex = new Map<number, Line>();
  let repeated = 0;
  for (const { lines } of perFile) for (const l of lines) {
    if (byIndex.has(l.index)) repeated++;
    byIndex.set(l.index, l);
  }
  const all = [...byIndex.values()].sort((a, b) => a.index - b.index);
  if (all.length === 0) {
    process.stderr.write('no cases in the log files\n');
    return 2;
  }
  const ms = all.map((l) => l.ms);
  const elapsed = perFile.map(({ f, lines }) => ({ f, cases: lines.length, s: (lines[lines.length - 1]?.totals.ms ?? 0) / 1000 }));
  const notOk = all.filter((l) => l.outcome !== 'ok').sort((a, b) => Number(b.outcome === 'disagreement') - Number(a.outcome === 'disagreement') || a.index - b.index);
  const disagreements = all.filter((l) => l.outcome === 'disagreement').length;
  const bugs = all.filter((l) => l.outcome === 'bug' || l.outcome === 'compile-failure').length;
  const fmt = (xs: [string, number][]) => xs.map(([k, n]) => `${k} ${n}`).join(', ');
  const say = (s: string) => process.stdout.write(`${s}\n`);

  const head = `${all.length} cases (indices ${ranges(all.map((l) => l.index))}${repeated ? `; ${repeated} logged twice` : ''}) · ${disagreements} disagreements · ${bugs} bugs`;
  const outcomes = fmt(count(all, (l) => l.outcome));
  const verdicts = fmt(count(all, (l) => l.verdict ?? 'verify skipped'));
  const unknownReasons = count(all.filter((l) => l.verdict === 'unknown'), (l) => `${l.verifyClass ?? '?'}: ${reasonKind(l.verifyReason)}`);
  const times = `per case: median ${(median(ms) / 1000).toFixed(2)} s, 95th percentile ${(quantile(ms, 0.95) / 1000).toFixed(2)} s, max ${(Math.max(...ms) / 1000).toFixed(1)} s; per process: ${elapsed.map((e) => `${e.cases} cases in ${(e.s / 60).toFixed(1)} min`).join(', ')}`;
  if (markdown) {
    say(`- ${head}`);
    say(`- outcomes: ${outcomes}; verifier verdicts: ${verdicts}`);
    if (unknownReasons.length) say(`- \`unknown\` verdicts by reason: ${unknownReasons.map(([k, n]) => `${n} × ${k}`).join('; ')}`);
    say(`- ${times}`);
  } else {
    say(head);
    say(`outcomes: ${outcomes}`);
    say(`verifier verdicts: ${verdicts}`);
    for (const [k, n] of unknownReasons) say(`  unknown ${n} × ${k}`);
    say(times);
    for (const l of notOk) {
      const what = l.outcome === 'disagreement' ? `DISAGREEMENT (${l.disagreements.join(', ')})` : l.outcome;
      say(`  case ${l.index} (seed ${l.seed}): ${what}; verify ${l.verdict ?? 'skipped'}${l.verifyClass ? ` (${l.verifyClass})` : ''}${l.verifyReason ? ` — ${l.verifyReason}` : ''}${l.bundle ? ` — ${l.bundle}` : ''}`);
    }
  }
  return disagreements > 0 ? 1 : 0;
}

process.exitCode = main();
