// Summarise the `--log` files of a fuzzing run (one JSON line per case), possibly written by several
// processes that split one run with `--start` (the README's long-run figures come from here).
//
//   npx tsx proofs/fuzz/logstats.ts LOG.jsonl… [--markdown]
//
// Reports the cases and their index coverage, outcomes, verifier verdicts and classes, every case
// that was not `ok` (disagreements first) with the verifier's reason, and times: per case (median,
// 95th percentile, maximum) and per process (the elapsed time of its last line). Exit 1 when a
// disagreement or a bug of the compiler under test is logged, 2 when there is nothing to report.

import { readFileSync } from 'node:fs';
import { median, quantile } from './stats.ts';
import type { CaseRecord, FuzzSummary } from './harness.ts';
import type { Oracle } from './oracles.ts';

/** What a log line says of the run it belongs to (every line of every shard says the same). */
export interface RunInfo {
  readonly seed: number;
  readonly profile: string;
  readonly compiler: string;
  readonly inject: string | null;
  /** How the solver budget was enforced (smt/limits.ts), the budget, and the Z3 builds that
   *  answered (smt/identity.ts); absent in older logs. */
  readonly limits?: string;
  readonly timeoutMs?: number;
  readonly solver?: string;
}

/** A `--log` line: the case record plus running totals (older logs lack the verifier fields and
 *  the run). */
type Line = Omit<CaseRecord, 'verifyClass' | 'verifyReason' | 'verifyMs' | 'compileError'> & Partial<Pick<CaseRecord, 'verifyClass' | 'verifyReason' | 'compileError'>> & { readonly totals: { readonly ms: number }; readonly run?: RunInfo };

/** The lines of one log; a line that is not JSON (the partial last line of a killed run) is
 *  skipped with a word on stderr. */
export function parseLog(file: string): Line[] {
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

/** Elapsed time of one log: the running totals restart at 0 when a stopped run was resumed
 *  (`--start`) into the same file, so the segments are added. */
function elapsedMs(lines: readonly Line[]): number {
  let sum = 0;
  let last = 0;
  for (const l of lines) {
    if (l.totals.ms < last) sum += last;
    last = l.totals.ms;
  }
  return sum + last;
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

export interface LogSummary {
  readonly cases: number;
  readonly disagreements: number;
  readonly bugs: number;
  readonly unknown: number;
  /** The report, plain or as Markdown bullets (for the README). */
  readonly text: string;
}

/** Merge the logs of one run (a case logged twice counts once: resumed runs) and report. */
export function summarise(files: readonly string[], markdown = false): LogSummary {
  const perFile = files.map((f) => ({ f, lines: parseLog(f) }));
  const byIndex = new Map<number, Line>();
  let repeated = 0;
  for (const { lines } of perFile) for (const l of lines) {
    if (byIndex.has(l.index)) repeated++;
    byIndex.set(l.index, l);
  }
  const all = [...byIndex.values()].sort((a, b) => a.index - b.index);
  if (all.length === 0) return { cases: 0, disagreements: 0, bugs: 0, unknown: 0, text: 'no cases in the log files' };
  const ms = all.map((l) => l.ms);
  const elapsed = perFile.map(({ f, lines }) => ({ f, cases: lines.length, s: elapsedMs(lines) / 1000 }));
  const notOk = all.filter((l) => l.outcome !== 'ok').sort((a, b) => Number(b.outcome === 'disagreement') - Number(a.outcome === 'disagreement') || a.index - b.index);
  const disagreements = all.filter((l) => l.outcome === 'disagreement').length;
  const bugs = all.filter((l) => l.outcome === 'bug' || l.outcome === 'compile-failure').length;
  const fmt = (xs: [string, number][]) => xs.map(([k, n]) => `${k} ${n}`).join(', ');
  const out: string[] = [];
  const say = (s: string) => { out.push(s); };

  const head = `${all.length} cases (indices ${ranges(all.map((l) => l.index))}${repeated ? `; ${repeated} logged twice` : ''}) · ${disagreements} disagreements · ${bugs} bugs`;
  const outcomes = fmt(count(all, (l) => l.outcome));
  const verdicts = fmt(count(all, (l) => l.verdict ?? 'verify skipped'));
  const unknown = all.filter((l) => l.outcome === 'unknown');
  const unknownReasons = count(unknown, (l) => (l.verdict === 'unknown' ? `${l.verifyClass ?? '?'}: ${reasonKind(l.verifyReason)}` : l.compileError ? 'well-formedness check of the output undecided' : `an oracle gave no answer (verify ${l.verdict ?? 'skipped'})`));
  // Why the compiler declined cases: the reason up to its first detail (names and numbers vary).
  const rejected = count(all.filter((l) => l.outcome === 'rejected'), (l) => rejectionKind(l.compileError ?? '?'));
  const natives = all.filter((l) => l.native?.compared);
  const notCompared = all.filter((l) => l.native && !l.native.compared).length;
  const jit = natives.length || notCompared ? `jit oracle: compared on ${natives.length} cases, agreed with big-step on ${natives.filter((l) => l.native!.agreed).length}${notCompared ? `; not compared on ${notCompared} (our big-step run stopped on an error)` : ''}` : null;
  const times = `per case: median ${(median(ms) / 1000).toFixed(2)} s, 95th percentile ${(quantile(ms, 0.95) / 1000).toFixed(2)} s, max ${(Math.max(...ms) / 1000).toFixed(1)} s; per process: ${elapsed.map((e) => `${e.cases} cases in ${(e.s / 60).toFixed(1)} min`).join(', ')}`;
  if (markdown) {
    say(`- ${head}`);
    say(`- outcomes: ${outcomes}; verifier verdicts: ${verdicts}`);
    if (unknownReasons.length) say(`- \`unknown\` verdicts by reason: ${unknownReasons.map(([k, n]) => `${n} × ${k}`).join('; ')}`);
    if (rejected.length) say(`- rejected by the compiler: ${rejected.map(([k, n]) => `${n} × ${k}`).join('; ')}`);
    if (jit) say(`- ${jit}`);
    say(`- ${times}`);
  } else {
    say(head);
    say(`outcomes: ${outcomes}`);
    say(`verifier verdicts: ${verdicts}`);
    for (const [k, n] of unknownReasons) say(`  unknown ${n} × ${k}`);
    for (const [k, n] of rejected) say(`  rejected ${n} × ${k}`);
    if (jit) say(jit);
    say(times);
    for (const l of notOk) {
      const what = l.outcome === 'disagreement' ? `DISAGREEMENT (${l.disagreements.join(', ')})` : l.outcome;
      say(`  case ${l.index} (seed ${l.seed}): ${what}; verify ${l.verdict ?? 'skipped'}${l.verifyClass ? ` (${l.verifyClass})` : ''}${l.verifyReason ? ` — ${l.verifyReason}` : ''}${l.compileError ? ` — ${l.compileError}` : ''}${l.bundle ? ` — ${l.bundle}` : ''}`);
    }
  }
  return { cases: all.length, disagreements, bugs, unknown: unknown.length, text: out.join('\n') };
}

/**
 * The summary of one run from the logs of its shards (`sched fuzz --merge`): the counts of
 * `sched fuzz --json`, recomputed from the cases, so that a run split into shards (`--shard K/N`,
 * `--start`) and merged gives the summary of the same run unsplit. Times are the only part that
 * depends on the split (`ms`: the cases' own times added; `msPerCase`). The logs must be of one
 * run (same seed, profile, compiler, injected bug, solver limits and budget, Z3 builds) and may
 * not log one case twice with different outcomes; a case logged twice alike (a resumed run)
 * counts once.
 */
export type MergedSummary = Omit<FuzzSummary, 'start' | 'firstDetection'> & {
  readonly firstDetection: { case: number; oracles: Oracle[] } | null;
  /** The case indices covered, as ranges ("0–999"). */
  readonly indices: string;
  /** Every case that was not `ok`, in index order. */
  readonly notOk: { index: number; seed: number; outcome: string; verdict: string | null; verifyClass: string | null; detectedBy: readonly string[]; disagreements: readonly string[] }[];
};

export function mergeLogs(files: readonly string[]): MergedSummary {
  const byIndex = new Map<number, Line>();
  let run: RunInfo | null = null;
  for (const f of files) {
    for (const l of parseLog(f)) {
      if (l.run === undefined) throw new Error(`${f}: case ${l.index} does not say its run (a log of an older sched fuzz): use logstats.ts`);
      if (run === null) run = l.run;
      else if (JSON.stringify(l.run) !== JSON.stringify(run)) throw new Error(`${f}: case ${l.index} is of another run (${JSON.stringify(l.run)}, not ${JSON.stringify(run)})`);
      const had = byIndex.get(l.index);
      if (had !== undefined && (had.outcome !== l.outcome || had.seed !== l.seed)) throw new Error(`${f}: case ${l.index} is logged twice with different outcomes (${had.outcome}, ${l.outcome})`);
      byIndex.set(l.index, l);
    }
  }
  if (run === null) throw new Error('no cases in the log files');
  const all = [...byIndex.values()].sort((a, b) => a.index - b.index);
  const n = (o: string) => all.filter((l) => l.outcome === o).length;
  const verdict = (v: string) => all.filter((l) => l.verdict === v).length;
  const detection = all.find((l) => l.detectedBy.length > 0);
  const disagreement = all.find((l) => l.disagreements.length > 0);
  const ms = all.reduce((t, l) => t + l.ms, 0);
  return {
    ...run,
    inject: run.inject as FuzzSummary['inject'],
    profile: run.profile as FuzzSummary['profile'],
    iterations: all.length,
    indices: ranges(all.map((l) => l.index)),
    ok: n('ok'),
    bugsFound: n('bug') + n('compile-failure'),
    disagreements: n('disagreement'),
    unknowns: n('unknown'),
    rejected: n('rejected'),
    redraws: all.reduce((t, l) => t + (l.redraws ?? 0), 0),
    verdicts: { valid: verdict('valid'), invalid: verdict('invalid'), unknown: verdict('unknown') },
    native: { ran: all.filter((l) => l.native?.compared).length, agreed: all.filter((l) => l.native?.agreed).length, notCompared: all.filter((l) => l.native && !l.native.compared).length },
    verifierCrashes: all.filter((l) => l.verifyClass === 'crash').length,
    verifierBudget: all.filter((l) => l.verifyClass === 'budget').length,
    firstDetection: detection ? { case: detection.index, oracles: [...detection.detectedBy] } : null,
    firstDisagreement: disagreement ? { case: disagreement.index, kinds: [...disagreement.disagreements] } : null,
    repros: all.flatMap((l) => (l.bundle ? [l.bundle] : [])),
    notOk: all.filter((l) => l.outcome !== 'ok').map((l) => ({ index: l.index, seed: l.seed, outcome: l.outcome, verdict: l.verdict, verifyClass: l.verifyClass ?? null, detectedBy: l.detectedBy, disagreements: l.disagreements })),
    ms,
    msPerCase: Math.round(ms / all.length),
  };
}

/** A rejection's reason without the case's loop names, expressions and numbers (to group them). */
export function rejectionKind(error: string): string {
  let k = error.replace(/\b[A-Za-z_]\w*(\.[\w$]+)+/g, '…');
  // Expressions in parentheses, innermost first (not '(code generation)').
  for (let prev = ''; prev !== k; ) [prev, k] = [k, k.replace(/\([^()]*[-+*/…][^()]*\)/g, '…')];
  return k.split(': ').slice(0, 3).join(': ').replace(/\d+/g, 'N').slice(0, 110);
}

function main(): number {
  const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  if (files.length === 0) {
    process.stderr.write('usage: npx tsx proofs/fuzz/logstats.ts LOG.jsonl… [--markdown]\n');
    return 2;
  }
  const s = summarise(files, process.argv.includes('--markdown'));
  process.stdout.write(`${s.text}\n`);
  return s.cases === 0 ? 2 : s.disagreements > 0 || s.bugs > 0 ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main();
