// The Coq development (proofs/coq, docs/coq.md): it builds with Debian's Coq, admits nothing and
// assumes no axiom of its own; every corpus RUN of the big-step relation exports a derivation (or
// the absence of one) that coqc accepts; mutated exports are rejected; and random programs with
// memories (proofs/metatheory/gen) export runs that coqc accepts. Without coqc the tests skip and
// say what to install.

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadProgram } from '../core/language/load.ts';
import { type CheckedImpl, typecheckProgram } from '../core/language/typecheck.ts';
import { BUILD_COQ, coqDir, coqMissing, coqSetup, type CoqSetup, runCoqc } from '../proofs/coq/coqc.ts';
import { EXPORT_HEADER, type ExportedRun, exportExecution, exportRun, NotExportable } from '../proofs/coq/export.ts';
import { memCaseArb } from '../proofs/metatheory/gen/programs.ts';
import { compileCase, globalArrays } from '../proofs/metatheory/properties/harness.ts';
import { execute } from '../semantics/bigstep.ts';
import { fromBig } from '../semantics/int.ts';
import { Space } from '../semantics/memory.ts';
import { implProgram } from '../semantics/run.ts';
import { lineInputs, parseRunLines } from './corpus-lines.ts';
import { tempDir } from './temp-dirs.ts';
import { cases, sample } from './tier.ts';

const MISSING = coqMissing();
const HAVE_COQC = MISSING === null;
if (!HAVE_COQC) process.stderr.write(`coq.test: skipped: ${MISSING}\n`);

/** RUN lines whose global arrays hold more cells than this are too large for this test (docs/coq.md). */
const LARGE = 100_000;
/** RUN lines that write more than this many times are too long for Coq's interpreter here: a loop
 *  to N = 2^24 over one scalar (corpus/soundness/large_parameters.sched) took coqc minutes. */
const LONG = 100_000;

/** A loop long enough for packed cells (more than 32 values per array). */
const COPY = `spec copy {
  param N;
  input X(i): i32;
  output Y(i): i32 = X(i) + 1 where 0 <= i && i < N;
}
impl copy_loop of copy {
  input x: i32[N] = X;
  output y: i32[N] = Y;
  for i < N do y[i] {Y(i)} := x[i] + 1
}
`;

/** Every value type in memory (the corner inputs hold NaN, ±∞, ±0 and the integer extremes). */
const TYPES = `spec types {
  param N;
  input A(i): f64;
  input B(i): i64;
  input C(i): u64;
  input D(i): i8;
  input F(i): f32;
  input G(i): u16;
  tensor C2(i): i64;
  C2(i) = i64(C(i)) where 0 <= i && i < N;
  output P(i): f64 = A(i) * 2.0 where 0 <= i && i < N;
  output Q(i): i64 = B(i) + C2(i) where 0 <= i && i < N;
  output R(i): u64 = C(i) * 3 where 0 <= i && i < N;
  output S(i): f32 = F(i) + f32(D(i)) where 0 <= i && i < N;
  output T(i): bool = G(i) > 100 where 0 <= i && i < N;
}
impl types_loop of types {
  input a: f64[N] = A;
  input b: i64[N] = B;
  input c: u64[N] = C;
  input d: i8[N] = D;
  input f: f32[N] = F;
  input g: u16[N] = G;
  output p: f64[N] = P;
  output q: i64[N] = Q;
  output r: u64[N] = R;
  output s: f32[N] = S;
  output t: bool[N] = T;
  for i < N do {
    p[i] {P(i)} := a[i] * 2.0;
    q[i] {Q(i)} := b[i] + i64(c[i]);
    r[i] {R(i)} := c[i] * 3;
    s[i] {S(i)} := f[i] + f32(d[i]);
    t[i] {T(i)} := g[i] > 100
  }
}
`;

/** The number of cells of an implementation's global arrays for these parameters. */
function globalCells(ci: CheckedImpl, params: ReadonlyMap<string, bigint>): number {
  const prog = implProgram(ci);
  const f = prog.frame(new Map([...params].map(([k, v]) => [k, fromBig(v)])), 'size');
  return prog.globals.reduce((n, g) => n + g.dims.reduce((p, d) => p * Math.max(0, Number(d(f))), 1), 0);
}

let setup: Extract<CoqSetup, { ok: true }>;
const dir = tempDir('sched-coq-');

beforeAll(() => {
  if (!HAVE_COQC) return;
  let s = coqSetup();
  if (!s.ok) {
    // Not built (CI builds it before npm test: .ci/run): build it once here.
    const r = spawnSync('make', ['-C', coqDir()], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${BUILD_COQ} failed:\n${r.stdout}${r.stderr}`);
    s = coqSetup();
  }
  if (!s.ok) throw new Error(s.missing);
  setup = s;
}, 600_000);

/** Several exports in one file (coqc's start-up, loading Flocq, costs more than a small run). */
function batch(runs: readonly ExportedRun[]): string {
  return [...EXPORT_HEADER, ...runs.map((r) => r.text.split('\n').filter((l) => !EXPORT_HEADER.includes(l)).join('\n'))].join('\n');
}

function coqc(name: string, text: string): { ok: boolean; message: string } {
  const f = join(dir, name);
  writeFileSync(f, text);
  return runCoqc(setup, f);
}

/** The theories' text without comments. */
function theories(): { file: string; text: string }[] {
  const d = join(coqDir(), 'theories');
  return readdirSync(d)
    .filter((f) => f.endsWith('.v'))
    .map((f) => {
      let text = readFileSync(join(d, f), 'utf8');
      // Comments nest in Coq: remove innermost ones until none is left.
      for (let prev = ''; prev !== text; ) {
        prev = text;
        text = text.replace(/\(\*(?:(?!\(\*|\*\))[\s\S])*\*\)/g, ' ');
      }
      return { file: f, text };
    });
}

describe.skipIf(!HAVE_COQC)('the Coq development (proofs/coq)', () => {
  it('admits nothing and declares no axiom', () => {
    const bad: string[] = [];
    for (const { file, text } of theories()) {
      for (const m of text.matchAll(/\b(Admitted|admit|Axiom|Axioms|Parameter|Parameters|Conjecture)\b/g)) bad.push(`${file}: ${m[1]}`);
      // Section variables become arguments when the section closes; outside a section they are axioms.
      const open: ('section' | 'module')[] = [];
      for (const line of text.split('\n')) {
        if (/^\s*Section\s+\w+\s*\./.test(line)) open.push('section');
        else if (/^\s*Module\s+(?!Import|Export)\w+\s*\./.test(line)) open.push('module');
        else if (/^\s*End\s+\w+\s*\./.test(line)) open.pop();
        else if (/^\s*(Variable|Variables|Hypothesis|Hypotheses|Context)\b/.test(line) && !open.includes('section')) bad.push(`${file}: ${line.trim()}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('Print Assumptions: the metatheory is closed; the operators and a run use only the standard library', () => {
    const closed = [
      'bigstep_deterministic', 'exec_sound', 'exec_complete', 'exec_fails', 'bigstep_decidable', 'check_run_sound', 'check_fails_sound',
      'lemma_4_2_1', 'thm_4_2_2', 'remark_4_2_2', 'lemma_4_2_4', 'thm_4_4_1',
      'lemma_4_3_1', 'lemma_4_3_2', 'lemma_4_3_4', 'thm_4_3_3', 'lemma_4_3_8', 'cor_4_3_9', 'thm_4_3_7', 'cor_4_3_10', 'racy_is_nondeterministic',
    ];
    // One Print Assumptions of a tuple of them all: a tuple is closed exactly when each component
    // is, and Coq walks the shared dependencies once (11 s of coqc CPU for one command each, 1.3 s).
    const text = [
      'From Sched Require Import Run Framing Typing Subst SmallStep Soundness Preservation Examples.',
      `Definition sched_metatheory := (${closed.join(', ')}).`,
      ...['sched_metatheory', 'sched_call'].flatMap((t) => [`Goal True. idtac "### ${t}". Abort.`, `Print Assumptions ${t}.`]),
    ].join('\n');
    const r = coqc('Assumptions.v', text);
    expect(r.ok, r.message).toBe(true);
    const blocks = new Map(
      r.message
        .split('### ')
        .slice(1)
        .map((b) => [b.slice(0, b.indexOf('\n')).trim(), b.slice(b.indexOf('\n') + 1)] as const),
    );
    expect(blocks.get('sched_metatheory'), closed.join(', ')).toMatch(/^Closed under the global context/);
    // Flocq's floats carry proofs built with the standard library's real numbers and classical
    // logic; an exported run's packed cells use the standard library's primitive integers.
    const stdlib = ['ClassicalDedekindReals.sig_not_dec', 'ClassicalDedekindReals.sig_forall_dec', 'FunctionalExtensionality.functional_extensionality_dep', 'Classical_Prop.classic'];
    const primitives = ['int', 'lsr', 'lsl', 'land', 'lor', 'lxor', 'eqb', 'ltb', 'leb', 'add', 'sub', 'mul', 'div', 'mod', 'compare'];
    const axioms = (out: string): string[] => [...out.matchAll(/^(\S+) :/gm)].map((m) => m[1]!);
    const ops = axioms(blocks.get('sched_call') ?? '');
    expect(ops.length).toBeGreaterThan(0);
    for (const a of ops) expect(stdlib, `axiom ${a}`).toContain(a);
    const src = join(dir, 'copy.sched');
    writeFileSync(src, COPY);
    const ci = typecheckProgram(loadProgram(src)).impls[0]!;
    const e = exportRun(ci, new Map([['N', 40n]]), { file: src });
    expect(e.text).toMatch(/Packed/);
    const run = coqc('RunAssumptions.v', `${e.text}Print Assumptions run.\n`);
    expect(run.ok, run.message).toBe(true);
    for (const a of axioms(run.message)) expect([...stdlib, ...primitives], `axiom ${a} of an exported run`).toContain(a);
  });

  it('every corpus RUN of the relation exports a run that coqc accepts (a third of them in the quick tier)', () => {
    const files = readdirSync('corpus', { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.sched'))
      .map((f) => join('corpus', f))
      .sort();
    const lines = files.flatMap((file) => {
      const ls = parseRunLines(readFileSync(file, 'utf8')).filter((l) => l.kind === 'RUN' && !l.annotations);
      if (ls.length === 0) return [];
      const cp = typecheckProgram(loadProgram(file));
      return ls.map((l) => ({ file, l, ci: l.impl === null ? cp.impls[0]! : cp.impls.find((i) => i.impl.name === l.impl)! }));
    });
    // Exporting (running each line again, recording its derivation) is what takes the time, not
    // coqc: the quick tier takes every third line, and the race runs the test below mutates.
    const RACE = join('corpus', 'runtime', 'race.sched');
    const runs: ExportedRun[] = [];
    const skipped: string[] = [];
    for (const { file, l, ci } of sample(lines, 3, (x) => x.file === RACE)) {
      const cells = globalCells(ci, l.params);
      if (cells > LARGE) {
        skipped.push(`${file}: ${l.text} (${cells} cells: too large for this test)`);
        continue;
      }
      try {
        const e = exportRun(ci, l.params, { file, seed: l.seed, family: l.family, inputs: lineInputs(ci, l), omega: l.omega, conditionalStores: l.conditionalStores, module: `Run${runs.length}` });
        // The claim is the line's outcome: a derivation for match and mismatch, none for an error.
        expect(e.claim, l.text).toBe(l.outcome === 'error' ? 'fails' : 'derives');
        expect(e.report.outcome, l.text).toBe(l.outcome);
        if (e.report.writes > LONG) {
          skipped.push(`${file}: ${l.text} (${e.report.writes} writes: too long a run for this test)`);
          continue;
        }
        runs.push(e);
      } catch (err) {
        if (!(err instanceof NotExportable)) throw err;
        expect(l.omega || l.conditionalStores, `${l.text}: ${err.message}`).toBe(true);
        skipped.push(`${file}: ${l.text} (${err.message.slice(0, 60)}…)`);
      }
    }
    process.stderr.write(`coq.test: ${runs.length} corpus runs exported; not exported:\n${skipped.map((s) => `  ${s}`).join('\n')}\n`);
    expect(runs.filter((r) => r.claim === 'fails').length).toBeGreaterThan(cases(3, 10));
    expect(runs.filter((r) => r.claim === 'derives').length).toBeGreaterThan(cases(6, 20));
    const r = coqc('CorpusRuns.v', batch(runs));
    expect(r.ok, r.message).toBe(true);
  }, 600_000);

  it('rejects mutated exports: a wrong value, a hidden race, a wrong read set, a wrong outcome', () => {
    const cp = typecheckProgram(loadProgram('corpus/runtime/race.sched'));
    const impl = (n: string) => cp.impls.find((i) => i.impl.name === n)!;
    const N = new Map([['N', 8n]]);
    const seq = exportRun(impl('scan_seq'), N, { file: 'race.sched' });
    const par = exportRun(impl('scan_par'), N, { file: 'race.sched' });
    expect(seq.claim).toBe('derives');
    expect(par.claim).toBe('fails');
    // Both unmutated files are among the corpus runs coqc accepts (the test above).
    const claimOf = (t: string): string => t.slice(t.indexOf('Definition dmu'));
    const mutants: [string, string][] = [
      // δμ claims another value in one cell of y (the final memory is wrong there).
      ['WrongValue.v', nextValue(seq.text)],
      // The loop made parallel: iteration i reads y[i], which iteration i − 1 writes.
      ['HiddenRace.v', seq.text.replace('(CFor v_i', '(CPar v_i')],
      // The racy program claimed to have the sequential loop's derivation.
      ['RaceClaimed.v', par.text.slice(0, par.text.indexOf('(* The run has no derivation')) + claimOf(seq.text)],
      // A location missing from ρ.
      ['WrongReads.v', seq.text.replace(/(Definition rho[\s\S]*?)\(Some tt\); /, '$1None; ')],
      // A run error claimed for a run that has a derivation.
      ['WrongOutcome.v', seq.text.slice(0, seq.text.indexOf('Definition dmu')) + par.text.slice(par.text.indexOf('(* The run has no derivation'))],
    ];
    for (const [name, text] of mutants) {
      expect(text, name).not.toBe(seq.text);
      const r = coqc(name, text);
      expect(r.ok, `${name} was accepted`).toBe(false);
      // Rejected by the kernel's run of the checker, not for a typo in the mutant.
      expect(r.message, name).toMatch(/Unable to unify "true" with "false"/);
    }
  }, 120_000);

  it('every value type, packed and written as values, with NaN, ±∞, ±0 and extreme inputs', () => {
    const src = join(dir, 'types.sched');
    writeFileSync(src, TYPES);
    const ci = typecheckProgram(loadProgram(src)).impls[0]!;
    const runs = [0, 1000].map((readable, i) => exportRun(ci, new Map([['N', 40n]]), { file: src, family: 'corner', seed: 5n, readable, module: `Types${i}` }));
    expect(runs.map((r) => r.report.outcome)).toEqual(['match', 'match']);
    expect(runs[0]!.text).toMatch(/Packed \(TInt U64\)/);
    expect(runs[1]!.text).not.toMatch(/Packed/);
    const r = coqc('Types.v', batch(runs));
    expect(r.ok, r.message).toBe(true);
  }, 120_000);

  it('random programs with memories: coqc accepts their exported runs (derivations and run errors)', () => {
    const cases = fc.sample(memCaseArb(), { seed: 38, numRuns: 40 });
    const runs: ExportedRun[] = [];
    const kinds = new Map<string, number>();
    cases.forEach((c, i) => {
      const k = compileCase(c);
      const prog = implProgram(k.ci);
      const f = prog.frame(k.params, 'case.sched');
      const space = new Space(1 << 22);
      const arrays = globalArrays(k, c.pools, space);
      const initial = [...arrays].map(([name, ref]) => [name, { ref, cells: ref.cells!.clone() }] as const);
      for (const g of prog.globals) f[g.slot] = arrays.get(g.decl.name)!;
      const result = execute(prog.big, f, space, { effects: true, maxSteps: 1_000_000 });
      const kind = result.ok ? 'derivation' : result.error.kind;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      const params = new Map(Object.entries(c.params).map(([p, v]) => [p, BigInt(v)] as const));
      // Every other case with every array packed (primitive integers, bit sets), the others as values.
      runs.push(exportExecution(k.ci, { params, initial, result, header: [`random case ${i}`, ...c.src.split('\n')] }, { module: `Case${i}`, readable: i % 2 === 0 ? 0 : undefined }));
    });
    // The draw covers both claims (and every kind of run error).
    expect([...kinds.keys()].sort()).toEqual(['derivation', 'out-of-bounds', 'race', 'uninitialized']);
    const r = coqc('RandomRuns.v', batch(runs));
    expect(r.ok, r.message).toBe(true);
  }, 300_000);
});

/** The export with the first i32 value of δμ increased by one. */
function nextValue(text: string): string {
  const at = text.indexOf('Definition dmu');
  const m = /\(i32 (?:\((-?\d+)\)|(\d+))\)/.exec(text.slice(at));
  if (m === null) throw new Error('no i32 value in δμ');
  const n = BigInt(m[1] ?? m[2]!) + 1n;
  const start = at + m.index;
  return `${text.slice(0, start)}(i32 ${n < 0n ? `(${n})` : n})${text.slice(start + m[0].length)}`;
}
