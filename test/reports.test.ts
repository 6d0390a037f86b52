// SARIF and JUnit put every verdict and every diagnostic at its place: an `unknown
// (unsupported)` at the construct it names (not at 1:1), an input error at its diagnostic, and
// the verdicts of the JSON document carry the same line.

import { afterAll, describe, expect, it } from 'vitest';
import { shutdownZ3 } from '../smt/z3.ts';
import { schedInProcess } from './in-process.ts';

afterAll(shutdownZ3);

const FILE = 'corpus/bugs/instrumentation_gaps.sched';

describe('locations in SARIF, JUnit and JSON', () => {
  it('an unknown (unsupported) is at the line its message names; an input error at its diagnostic', async () => {
    const s = await schedInProcess(['verify', FILE, 'corpus/errors/ty_mismatch_f32_i32.sched', '--format', 'sarif']);
    expect(s.code).toBe(3);
    const results = (JSON.parse(s.out) as { runs: { results: { ruleId: string; message: { text: string }; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }[] }[] }[] }).runs[0]!.results;
    const unsupported = results.filter((r) => r.ruleId === 'sched/unknown/unsupported');
    expect(unsupported.length).toBe(2);
    for (const r of unsupported) {
      const named = Number(/line (\d+):/.exec(r.message.text)![1]);
      expect(r.locations[0]!.physicalLocation.region.startLine).toBe(named);
      expect(r.locations[0]!.physicalLocation.region.startColumn).toBeGreaterThan(1);
    }
    const input = results.find((r) => r.ruleId.startsWith('sched/input-error'))!;
    expect(input.locations[0]!.physicalLocation.artifactLocation.uri).toBe('corpus/errors/ty_mismatch_f32_i32.sched');
    expect(input.locations[0]!.physicalLocation.region.startLine).toBeGreaterThan(1);

    const j = await schedInProcess(['verify', FILE, '--format', 'junit']);
    expect(j.out).toMatch(new RegExp(`<skipped message="unknown unsupported">${FILE.replace(/\./g, '\\.')}:25:\\d+: unknown`));
    expect(j.out).toMatch(new RegExp(`${FILE.replace(/\./g, '\\.')}:49:\\d+: unknown`));

    const doc = JSON.parse((await schedInProcess(['verify', FILE, '--json'])).out) as { results: { impl: string; verdict: string; line: number; col: number }[]; diagnostics: unknown[] };
    expect(doc.results.map((r) => [r.impl, r.verdict, r.line])).toEqual([['specialize_let_bound_condition', 'unknown', 25], ['specialize_inlined_condition', 'valid', 33], ['late_pass_unannotated_copy', 'unknown', 49]]);
    expect(doc.diagnostics).toEqual([]);
  }, 120_000);
});
