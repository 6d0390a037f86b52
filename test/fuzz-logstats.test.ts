// The summary of a long fuzzing run's logs (proofs/fuzz/logstats.ts): merged across the logs of a
// split run, a resumed case counted once, unknowns grouped by obligation kind, disagreements and
// bugs counted, resumed segments' elapsed times added.

import { writeFileSync } from 'node:fs';
import { tempDir } from './temp-dirs.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarise } from '../proofs/fuzz/logstats.ts';

function line(index: number, outcome: string, extra: Record<string, unknown> = {}, totalMs = index * 1000): string {
  return JSON.stringify({ index, seed: index * 7, outcome, detectedBy: [], disagreements: [], verdict: outcome === 'unknown' ? 'unknown' : 'valid', verifyClass: null, verifyReason: null, verifyMs: 10, compileError: null, ms: 1000, bundle: null, ...extra, totals: { ms: totalMs } });
}

describe('fuzz logstats', () => {
  it('merges split logs, counts a resumed case once, groups unknowns, adds resumed segments', () => {
    const dir = tempDir('logstats-');
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    // a: cases 0–2, then resumed at 2 (case 2 logged twice), totals restart.
    writeFileSync(a, [line(0, 'ok', {}, 60_000), line(1, 'unknown', { verifyClass: 'timeout', verifyReason: "vc011 (the read of buf_P[…] at line 38 finds a value (written earlier or an input)): timeout after 5000 ms" }, 120_000), line(2, 'ok', {}, 180_000), line(2, 'ok', {}, 30_000), line(3, 'ok', {}, 90_000)].join('\n') + '\n{"partial');
    writeFileSync(b, [line(5, 'unknown', { verifyClass: 'timeout', verifyReason: 'vc020 (the read of out_F[…] at line 9 finds a value (written earlier or an input)): timeout after 5000 ms' }), line(6, 'disagreement', { disagreements: ['verify-valid-run-fails'] }), line(7, 'bug', { detectedBy: ['run'] })].join('\n') + '\n');
    const s = summarise([a, b]);
    expect(s.cases).toBe(7);
    expect(s.disagreements).toBe(1);
    expect(s.bugs).toBe(1);
    expect(s.unknown).toBe(2);
    expect(s.text).toContain('indices 0–3, 5–7; 1 logged twice');
    expect(s.text).toContain('unknown 2 × timeout: the read of …[…] finds a value (written earlier or an input)');
    // a: 3 + 1.5 min (two segments, not the last one only); b: 7 s.
    expect(s.text).toContain('per process: 5 cases in 4.5 min, 3 cases in 0.1 min');
    expect(s.text).toMatch(/case 6 \(seed 42\): DISAGREEMENT \(verify-valid-run-fails\)/);
    expect(summarise([], true).cases).toBe(0);
  });
});
