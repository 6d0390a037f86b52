// Replaying the corpus's counterexamples as a user would (`sched corpus --replays`): every
// `invalid` verdict that prints a `sched run` command is re-run in a fresh process, exactly as
// printed (plus `--json`), and must show the verdict's class — a run-time error of that kind, an
// output mismatch, or an annotation mismatch. This is what makes an `invalid` actionable: the
// command in the report reproduces it without sched's verifier in the loop.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RUN_CLASS } from '../proofs/verifier/replay.ts';
import type { Row } from './run.ts';

export interface ReplayCheck {
  readonly row: Row;
  /** The class the replayed run shows, or why it shows none. */
  readonly shows: string;
  readonly ok: boolean;
}

// The bin, from the sources (corpus/) or from the compiled copy (dist/corpus/).
const BIN = [new URL('../cli/sched.js', import.meta.url), new URL('../../cli/sched.js', import.meta.url)].map((u) => fileURLToPath(u)).find((p) => existsSync(p))!;

/** Shell words of a command printed by cli/replay-command.ts (plain words and '…' quoting). */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  const re = /'((?:[^']|'\\'')*)'|(\S+)/g;
  for (let m = re.exec(command); m !== null; m = re.exec(command)) words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!);
  return words;
}

function runJson(argv: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [BIN, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d));
    p.stderr.on('data', (d: Buffer) => (err += d));
    p.on('close', (code) => resolve({ code: code ?? 4, out, err }));
  });
}

/** The class a `sched run --json` report shows: a run error's class, output-mismatch, or none. */
export function shownClass(report: { outcome?: string; error?: { kind?: string } | null }): string {
  if (report.outcome === 'mismatch') return 'output-mismatch';
  if (report.outcome === 'error' && report.error?.kind) {
    const k = report.error.kind;
    return k === 'annotation' ? 'annotation-mismatch' : (RUN_CLASS[k] ?? k);
  }
  return report.outcome ?? 'no report';
}

/** Re-run the replay command of one row in a fresh process. */
export async function checkReplay(row: Row): Promise<ReplayCheck> {
  const words = shellWords(row.replay!);
  if (words[0] !== 'npx' || words[1] !== 'sched' || words[2] !== 'run') return { row, shows: `not a sched run command: ${row.replay}`, ok: false };
  const r = await runJson([...words.slice(2), '--json']);
  let report: { outcome?: string; error?: { kind?: string } | null };
  try {
    report = JSON.parse(r.out) as typeof report;
  } catch {
    return { row, shows: `exit ${r.code}, no JSON report${r.err ? `: ${r.err.trim().split('\n')[0]}` : ''}`, ok: false };
  }
  const shows = shownClass(report);
  // The run must show what the verdict says it shows ("the run shows: …"): usually the verdict's
  // class; a program with two faults may show the other one first (a par iteration reading a cell
  // another iteration writes is a race, and in U-PARLOOP's pre-state that read is of ⊥). A
  // generic value-mismatch is shown by any wrong value, an output or an annotation.
  const said = row.replayShows ?? row.class;
  const ok = r.code === 1 && (shows === said || (said === 'value-mismatch' && (shows === 'output-mismatch' || shows === 'annotation-mismatch')));
  return { row, shows, ok };
}

/** Check the replay of every invalid row that has one; `each` is told of every result. */
export async function checkReplays(rows: readonly Row[], each?: (c: ReplayCheck) => void, starting?: (r: Row) => void): Promise<ReplayCheck[]> {
  const out: ReplayCheck[] = [];
  for (const row of rows) {
    if (!row.got.startsWith('invalid') || row.replay === null) continue;
    starting?.(row);
    const c = await checkReplay(row);
    out.push(c);
    each?.(c);
  }
  return out;
}

/** One line: replayed per class, and the invalid rows that print no command. */
export function summarizeReplays(rows: readonly Row[], checks: readonly ReplayCheck[]): string {
  const invalid = rows.filter((r) => r.got.startsWith('invalid'));
  const byClass = new Map<string, [number, number]>();
  for (const c of checks) {
    const k = c.row.class ?? '?';
    const [ok, all] = byClass.get(k) ?? [0, 0];
    byClass.set(k, [ok + (c.ok ? 1 : 0), all + 1]);
  }
  const classes = [...byClass].sort().map(([k, [ok, all]]) => `${k} ${ok}/${all}`).join(', ');
  // A value-mismatch is shown by the wrong value itself, as an output or an annotation.
  const other = checks.filter((c) => c.ok && c.shows !== c.row.class && c.row.class !== 'value-mismatch').length;
  const otherText = other > 0 ? `; ${other} of them show another fault first, as their verdict says` : '';
  const none = invalid.filter((r) => r.replay === null);
  const noneBy = new Map<string, number>();
  for (const r of none) noneBy.set(r.class ?? '?', (noneBy.get(r.class ?? '?') ?? 0) + 1);
  const noneText = none.length > 0 ? `; ${none.length} print no command (${[...noneBy].map(([k, n]) => `${k} ${n}`).join(', ')})` : '';
  return `replays: ${checks.filter((c) => c.ok).length} of ${checks.length} invalid verdicts reproduced by their printed command (${classes})${otherText}${noneText}`;
}
