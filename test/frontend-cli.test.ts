// `npx sched check` as users run it (the package's bin, cli/sched.js, which `npx sched` starts; run
// directly, without npx's own second of start-up per command): exit codes (0 ok, 3 input error), the `--json` document and
// the human-readable `file:line:col` diagnostics, on a few files of the corpus.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAFETY_NET_MS } from './safety-net.ts';
import { tempDir } from './temp-dirs.ts';

const ROOT = join(import.meta.dirname, '..');

function sched(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(ROOT, 'cli', 'sched.js'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: SAFETY_NET_MS });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const ERROR_FILES = [
  'corpus/errors/syn_unterminated_comment.sched',
  'corpus/errors/ty_mismatch_f32_i32.sched',
  'corpus/errors/sc_unknown_spec.sched',
  'corpus/errors/spec_self_dependent.sched',
  'corpus/errors/spec_overlapping_domains.sched',
  'corpus/errors/syn_binary_nul.sched',
];

function declared(file: string): { line: number; col: number; message: string } {
  const m = /^\/\/ ERROR: (\d+):(\d+) (.+)$/m.exec(readFileSync(join(ROOT, file), 'utf8'))!;
  return { line: Number(m[1]), col: Number(m[2]), message: m[3]! };
}

describe('npx sched check', () => {
  it('exits with 3 and one JSON document naming each error with its location', () => {
    const r = sched('check', '--json', ...ERROR_FILES);
    expect(r.status).toBe(3);
    // The error document's fields (docs/commands.md, JSON output) beside the files.
    const doc = JSON.parse(r.stdout) as {
      ok: boolean;
      error: string;
      exit: number;
      message: string;
      files: { file: string; ok: boolean; inputError: boolean }[];
      diagnostics: { file: string; line: number; col: number; phase: string; message: string; expected: string; found: string }[];
    };
    expect(doc).toMatchObject({ ok: false, error: 'input', exit: 3 });
    expect(doc.files.map((f) => f.file)).toEqual(ERROR_FILES);
    expect(doc.message).toContain(ERROR_FILES[0]);
    for (const f of doc.files) {
      expect(f).toMatchObject({ ok: false, inputError: true });
      const d = doc.diagnostics.find((x) => x.file === f.file)!;
      const want = declared(f.file);
      expect(d).toMatchObject({ file: f.file, line: want.line, col: want.col });
      expect(d.message).toContain(want.message);
      expect(typeof d.phase).toBe('string');
      expect(d.expected.length).toBeGreaterThan(0);
      expect(d.found.length).toBeGreaterThan(0);
    }
  });

  it('prints file:line:col diagnostics on stderr without --json, and exits with 0 on valid files', () => {
    const bad = sched('check', ERROR_FILES[1]!);
    expect(bad.status).toBe(3);
    const want = declared(ERROR_FILES[1]!);
    expect(bad.stderr).toContain(`${ERROR_FILES[1]}:${want.line}:${want.col}: error: ${want.message}`);
    expect(bad.stderr).toMatch(/\(expected .+, found .+\)/);
    const good = sched('check', 'corpus/examples/matmul.sched', 'corpus/examples/pad.sched');
    expect(good.status).toBe(0);
    expect(good.stdout).toContain('corpus/examples/matmul.sched: ok (1 spec, 1 impl)');
    expect(good.stdout).toContain('corpus/examples/pad.sched: ok (2 specs, 2 impls)');
  });

  it('reports an unreadable file as an input error', () => {
    const r = sched('check', '--json', 'corpus/errors/no_such_file.sched');
    expect(r.status).toBe(3);
    const doc = JSON.parse(r.stdout) as { diagnostics: { line: number; col: number; message: string; found: string }[] };
    expect(doc.diagnostics[0]).toMatchObject({ line: 1, col: 1, message: 'cannot read file', found: 'no such file' });
  });
});

describe('solver budgets on the command line (docs/commands.md, "Solver budgets")', () => {
  const FILE = 'corpus/soundness/input_bindings.sched';

  it('--budget is deterministic and recorded in the JSON output and the manifests; --timeout-ms is the wall clock; not both', () => {
    const certs = tempDir('sched-budget-');
    const r = sched('verify', FILE, '--impl', 'padding_ok', '--budget', '2000', '--json', '--certs', certs);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { budget: { limits: string; ms: number; rlimit: Record<string, number> | null; solvers: string } };
    expect(doc.budget.limits).toBe('rlimit');
    expect(doc.budget.ms).toBe(2000);
    expect(Object.keys(doc.budget.rlimit ?? {}).join(', ')).toBe(doc.budget.solvers);
    const manifest = JSON.parse(readFileSync(join(certs, 'corpus/soundness/input_bindings/padding_ok/manifest.json'), 'utf8')) as { budget?: unknown };
    expect(manifest.budget).toEqual(doc.budget);
    const t = sched('verify', FILE, '--impl', 'padding_ok', '--timeout-ms', '20000', '--json');
    expect(t.status, t.stderr).toBe(0);
    expect(JSON.parse(t.stdout).budget).toMatchObject({ limits: 'time', ms: 20000, rlimit: null });
    const both = sched('verify', FILE, '--budget', '2000', '--timeout-ms', '2000');
    expect(both.status).toBe(3);
    expect(both.stderr).toMatch(/--budget and --timeout-ms are two ways to give one budget/);
  });
});
