// The concrete-behaviour lines of corpus files, shared by the tests that check them:
//   // RUN[ impl]: ARGS => OUTCOME [KIND]       a big-step run (`sched run` arguments)
//   // EXPLORE[ impl]: ARGS => OUTCOME          an exhaustive small-step exploration
//   // TRUTH impl: correct|wrong                what a probe really is, when its verdict is unknown
// ARGS: `--param N=4`, `--seed S`, `--inputs FAMILY`, `--input 'T(i)=V'`, `--check-annotations`,
// `--omega`, `--conditional-stores`, `--slice LINE:x=v,…`.

import type { CheckedImpl } from '../core/language/typecheck.ts';
import { familyInputs, type InputFamily, INPUT_FAMILIES, parseOverride, parseOverrideValue, withOverrides } from '../semantics/inputs.ts';
import type { InputSource } from '../semantics/model.ts';
import { runImpl, type RunReport } from '../semantics/run.ts';
import { parseSlice, type Slice } from '../semantics/slice.ts';

export interface RunLine {
  readonly kind: 'RUN' | 'EXPLORE';
  readonly impl: string | null;
  readonly params: Map<string, bigint>;
  readonly seed: number;
  readonly family: InputFamily;
  readonly given: readonly string[];
  readonly annotations: boolean;
  readonly omega: boolean;
  readonly conditionalStores: boolean;
  /** `--slice`: one instance of the loops around an assignment (semantics/slice.ts). */
  readonly slice?: Slice;
  readonly outcome: string;
  readonly detail: string | null;
  readonly text: string;
}

export function parseRunLines(text: string): RunLine[] {
  const out: RunLine[] = [];
  for (const raw of text.split('\n')) {
    const m = /^\/\/ (RUN|EXPLORE)(?: ([A-Za-z_][A-Za-z0-9_]*))?: (.*?)=> (\S+)(?: (\S+))?\s*$/.exec(raw);
    if (!m) continue;
    const params = new Map<string, bigint>();
    let seed = 0;
    let omega = false;
    let conditionalStores = false;
    let annotations = false;
    let family: InputFamily = 'default';
    let slice: Slice | undefined;
    const given: string[] = [];
    const args = m[3]!.trim().split(/\s+/).filter(Boolean).map((a) => a.replace(/^'(.*)'$/, '$1'));
    for (let i = 0; i < args.length; i++) {
      if (args[i] === '--param') {
        const [k, v] = args[++i]!.split('=');
        params.set(k!, BigInt(v!));
      } else if (args[i] === '--seed') seed = Number(args[++i]);
      else if (args[i] === '--omega') omega = true;
      else if (args[i] === '--conditional-stores') conditionalStores = true;
      else if (args[i] === '--check-annotations') annotations = true;
      else if (args[i] === '--inputs') {
        const f = args[++i]!;
        if (!(INPUT_FAMILIES as readonly string[]).includes(f)) throw new Error(`unknown input family ${f} in '${raw}'`);
        family = f as InputFamily;
      } else if (args[i] === '--input') given.push(args[++i]!);
      else if (args[i] === '--slice') {
        const sl = parseSlice(args[++i]!);
        if (sl === null) throw new Error(`bad --slice in '${raw}'`);
        slice = sl;
      }
      else throw new Error(`unknown argument ${args[i]} in '${raw}'`);
    }
    out.push({ kind: m[1] as RunLine['kind'], impl: m[2] ?? null, params, seed, family, given, annotations, omega, conditionalStores, ...(slice ? { slice } : {}), outcome: m[4]!, detail: m[5] ?? null, text: raw });
  }
  return out;
}

/** `// TRUTH impl: correct|wrong` lines. */
export function parseTruthLines(text: string): Map<string, 'correct' | 'wrong'> {
  const out = new Map<string, 'correct' | 'wrong'>();
  for (const raw of text.split('\n')) {
    const m = /^\/\/ TRUTH ([A-Za-z_][A-Za-z0-9_]*): (correct|wrong)\b/.exec(raw);
    if (m) out.set(m[1]!, m[2] as 'correct' | 'wrong');
  }
  return out;
}

/** The inputs of a RUN line with `--input` overrides (undefined: the family's seeded inputs). */
export function lineInputs(ci: CheckedImpl, l: RunLine): InputSource | undefined {
  const given = l.given.map((g) => {
    const o = parseOverride(g);
    const t = o && ci.spec.tensors.get(o.tensor);
    const v = o && t ? parseOverrideValue(o.value, t.type) : null;
    if (!o || v === null) throw new Error(`bad --input '${g}'`);
    return { tensor: o.tensor, point: o.point, value: v };
  });
  return given.length > 0 ? withOverrides(familyInputs(l.family, l.seed), given) : undefined;
}

/** A RUN line's run, as `sched run` does it (annotations checked when asked). A slice that ran
 *  without error is `sliced`: it shows nothing wrong. */
export function runLine(ci: CheckedImpl, l: RunLine, file: string): RunReport {
  const inputs = lineInputs(ci, l);
  const r = runImpl(ci, l.params, { seed: l.seed, family: l.family, inputs, omega: l.omega, file, checkAnnotations: l.annotations, conditionalStores: l.conditionalStores, ...(l.slice ? { slice: l.slice } : {}) });
  if (l.annotations && (r.report.outcome === 'match' || r.report.outcome === 'sliced')) {
    const a = r.annotations;
    if (a !== null) return { ...r.report, outcome: 'error', error: { kind: 'annotation', detail: null, rule: 'U-ASSIGN', location: a.location, line: a.line, col: a.col, iterations: null, other: null, env: {}, message: `writes ${a.written}, annotation ${a.annotated}` } };
  }
  return r.report;
}
