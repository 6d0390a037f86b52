// The documentation is part of the contract: the language reference's and the tutorial's programs
// are real (they check, and they are the corpus files they claim to be), every relative link of
// every Markdown file resolves inside the repository, and nothing points outside it.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSource } from '../core/language/check.ts';
import { shutdownZ3 } from '../smt/z3.ts';

afterAll(shutdownZ3);

const ROOT = join(import.meta.dirname, '..');
const SKIP = new Set(['node_modules', 'dist', '.git', '.scratch', 'repro', 'out']);

function walk(dir: string, keep: (f: string) => boolean, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    if (SKIP.has(e)) continue;
    const p = join(dir, e);
    if (statSync(p).isDirectory()) walk(p, keep, out);
    else if (keep(p)) out.push(p);
  }
  return out;
}

/** The ```-fenced blocks of a page that hold a spec or an impl. */
function programBlocks(page: string): string[] {
  return [...page.matchAll(/```\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => /^(spec|impl) /m.test(b));
}

const strip = (s: string): string => s.replace(/\/\/.*$/gm, '').replace(/\s+/g, ' ').trim();

describe('documentation', () => {
  // The page's examples before the reductions section are matmul; that section's are dot_lanes.
  const language = readFileSync(join(ROOT, 'docs/language.md'), 'utf8');
  const cut = language.indexOf('## 7. Reductions');

  it("docs/language.md's examples check, together, and are corpus/examples/matmul.sched", async () => {
    const blocks = programBlocks(language.slice(0, cut));
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    const text = blocks.join('\n');
    await checkSource('docs/language.md', text);
    expect(strip(readFileSync(join(ROOT, 'corpus/examples/matmul.sched'), 'utf8'))).toBe(strip(text));
  });

  it("docs/language.md's reduction examples check, together, and are corpus/examples/dot_lanes.sched", async () => {
    const blocks = programBlocks(language.slice(cut));
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    const text = blocks.join('\n');
    await checkSource('docs/language.md', text);
    expect(strip(readFileSync(join(ROOT, 'corpus/examples/dot_lanes.sched'), 'utf8'))).toBe(strip(text));
  });

  it("docs/tutorial.md's kernel is corpus/examples/tutorial_blur3.sched", async () => {
    const blocks = programBlocks(readFileSync(join(ROOT, 'docs/tutorial.md'), 'utf8'));
    const text = blocks.join('\n');
    await checkSource('docs/tutorial.md', text);
    expect(strip(readFileSync(join(ROOT, 'corpus/examples/tutorial_blur3.sched'), 'utf8'))).toBe(strip(text));
  });

  it('every relative link of every Markdown file resolves inside the repository', () => {
    const broken: string[] = [];
    for (const md of walk(ROOT, (f) => f.endsWith('.md'))) {
      const text = readFileSync(md, 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target) || target.startsWith('#')) continue;
        const path = join(dirname(md), target.replace(/#.*$/, ''));
        const inside = !relative(ROOT, path).startsWith('..');
        if (!inside || !existsSync(path)) broken.push(`${relative(ROOT, md)}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('nothing in the repository points outside it (a clone has only what the repository holds)', () => {
    const offenders: string[] = [];
    for (const f of walk(ROOT, (p) => /\.(ts|js|mjs|md|sched|json|py|sh)$/.test(p) || p.endsWith('.ci/run'))) {
      if (f === join(ROOT, 'test/docs.test.ts')) continue;
      const text = readFileSync(f, 'utf8');
      // The project's first drafts and research notes lived beside it; none of them ships.
      if (/\.\.\/shared\b|\/work\/shared|SCHED-LANGUAGE\.md|\b(thesis-ch2-3|thesis-ch7-9|reinking|seeds-002-004|anchors|halide14-ir)(\.md)?\s+§|(?<![.\w])digest\b(?!\()/.test(text)) offenders.push(relative(ROOT, f));
    }
    expect(offenders).toEqual([]);
  });
});
