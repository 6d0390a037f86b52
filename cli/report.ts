// Results in the formats continuous-integration tools read: SARIF 2.1.0 (code scanning: GitHub,
// GitLab, Azure DevOps show each finding at its line) and JUnit XML (test reports: one test case per
// implementation). `verify` and `corpus` share them (`--format sarif|junit`).

import { TOOL_VERSION } from '../core/language/version.ts';

/** One implementation's outcome, as both formats need it. */
export interface ReportItem {
  readonly file: string;
  readonly impl: string;
  readonly verdict: string;
  readonly class: string | null;
  readonly message: string;
  readonly line: number;
  readonly col: number;
  readonly ms: number;
  /** For the corpus: did the verdict match the file's EXPECT line? (null: no expectation) */
  readonly asExpected: boolean | null;
  readonly replay: string | null;
}

/** A finding is a result that is not simply right: invalid, unknown, or not as expected. */
function level(i: ReportItem): 'error' | 'warning' | 'note' | null {
  if (i.asExpected === false) return 'error';
  if (i.asExpected === true) return null;
  if (i.verdict === 'invalid' || i.verdict === 'input error') return 'error';
  if (i.verdict === 'unknown') return 'warning';
  return null;
}

function ruleId(i: ReportItem): string {
  if (i.asExpected === false) return 'sched/unexpected-verdict';
  return `sched/${i.verdict.replace(/ /g, '-')}${i.class ? `/${i.class}` : ''}`;
}

export function sarif(items: readonly ReportItem[]): string {
  const results = items.flatMap((i) => {
    const lv = level(i);
    if (lv === null) return [];
    const text = `${i.impl}: ${i.verdict}${i.class ? ` (${i.class})` : ''}${i.message ? ` — ${i.message}` : ''}${i.replay ? `\nreplay: ${i.replay}` : ''}`;
    return [{
      ruleId: ruleId(i),
      level: lv,
      message: { text },
      locations: [{ physicalLocation: { artifactLocation: { uri: i.file }, region: { startLine: Math.max(i.line, 1), startColumn: Math.max(i.col, 1) } } }],
      properties: { impl: i.impl, verdict: i.verdict, class: i.class, asExpected: i.asExpected, ms: Math.round(i.ms) },
    }];
  });
  const rules = [...new Set(results.map((r) => r.ruleId))].sort().map((id) => ({ id, shortDescription: { text: id.replace(/^sched\//, '').replace(/[/-]/g, ' ') } }));
  const doc = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'sched', version: TOOL_VERSION.replace(/^sched /, ''), rules } }, results }],
  };
  return JSON.stringify(doc, null, 2);
}

function xml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}

export function junit(items: readonly ReportItem[]): string {
  const byFile = new Map<string, ReportItem[]>();
  for (const i of items) byFile.set(i.file, [...(byFile.get(i.file) ?? []), i]);
  const suites = [...byFile].map(([file, list]) => {
    const cases = list.map((i) => {
      const lv = level(i);
      const head = `<testcase classname="${xml(file)}" name="${xml(i.impl)}" time="${(i.ms / 1000).toFixed(3)}">`;
      const detail = xml(`${file}:${i.line}:${i.col}: ${i.verdict}${i.class ? ` (${i.class})` : ''} ${i.message}${i.replay ? `\nreplay: ${i.replay}` : ''}`);
      if (lv === 'error') return `${head}<failure message="${xml(`${i.verdict}${i.class ? ` ${i.class}` : ''}`)}">${detail}</failure></testcase>`;
      if (lv === 'warning') return `${head}<skipped message="${xml(`${i.verdict}${i.class ? ` ${i.class}` : ''}`)}">${detail}</skipped></testcase>`;
      return `${head}</testcase>`;
    });
    const failures = list.filter((i) => level(i) === 'error').length;
    const skipped = list.filter((i) => level(i) === 'warning').length;
    const time = list.reduce((t, i) => t + i.ms, 0) / 1000;
    return `  <testsuite name="${xml(file)}" tests="${list.length}" failures="${failures}" skipped="${skipped}" time="${time.toFixed(3)}">\n    ${cases.join('\n    ')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="sched">\n${suites.join('\n')}\n</testsuites>`;
}

export const FORMATS = ['text', 'json', 'sarif', 'junit'] as const;
export type Format = (typeof FORMATS)[number];
