// The layering of docs/architecture.md, checked by dependency-cruiser with the rules in
// .dependency-cruiser.cjs: the repository has no forbidden import and no import cycle, and the
// rules do bite — the same configuration, run on a small tree with a forbidden import and a cycle,
// reports both.

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './temp-dirs.ts';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const PARTS = ['api', 'cli', 'compilers', 'core', 'corpus', 'proofs', 'semantics', 'smt', 'web', 'bench', 'test'];

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
  readonly cycle?: readonly { readonly name: string }[];
}

/** dependency-cruiser's violations for `dirs` under `cwd`, with the repository's rules. */
function violations(cwd: string, dirs: readonly string[]): Violation[] {
  let out: string;
  try {
    out = execFileSync(process.execPath, [BIN, ...dirs, '--config', join(cwd, '.dependency-cruiser.cjs'), '--output-type', 'json'], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  } catch (e) {
    // Exit code = the number of errors; the JSON report is on stdout either way.
    out = (e as { stdout?: string }).stdout ?? '';
    if (!out) throw e;
  }
  const report = JSON.parse(out) as { summary: { violations: Violation[]; totalCruised: number } };
  return report.summary.violations;
}

describe('architecture', () => {
  it('no import breaks the layering rules and no two files import each other (dependency-cruiser)', () => {
    const found = violations(ROOT, PARTS);
    expect(found.map((v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (cycle ${v.cycle.map((c) => c.name).join(' → ')})` : ''}`)).toEqual([]);
  });

  it('the rules report a forbidden import and a cycle (the same configuration on a small tree)', () => {
    const dir = tempDir('sched-arch-');
    copyFileSync(join(ROOT, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
    copyFileSync(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
    const file = (path: string, text: string): void => {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    file('core/language/ast.ts', 'export type Expr = { kind: string };\n');
    file('smt/sexpr.ts', "import type { Expr } from '../core/language/ast.ts';\nexport const e: Expr | null = null;\n");
    file('semantics/eval.ts', "import { b } from './jsgen.ts';\nexport const a = (): number => b();\n");
    file('semantics/jsgen.ts', "import { a } from './eval.ts';\nexport const b = (): number => a();\n");
    file('compilers/halide/translate.ts', "import { verifyImpl } from '../../proofs/verifier/verify.ts';\nexport const t = verifyImpl;\n");
    file('proofs/verifier/verify.ts', 'export const verifyImpl = (): void => {};\n');
    const rules = violations(dir, ['core', 'smt', 'semantics', 'compilers', 'proofs']).map((v) => `${v.rule.name}: ${v.from}`);
    expect(rules).toContain('smt-knows-no-sched: smt/sexpr.ts');
    expect(rules).toContain('compilers-never-reach-the-verifier: compilers/halide/translate.ts');
    expect(rules.filter((r) => r.startsWith('no-cycles: semantics/'))).not.toEqual([]);
  });
});
