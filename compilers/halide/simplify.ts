// The translation's bounds arithmetic simplified before verification (core/language/simplify-bounds.ts).
// Halide's lowered code computes every region from the buffer fields with min, max and select
// (`min(select(16 < W, min(W, 0), min(W, 16) - 16), min(W, 16) - 16)`), and its asserts say
// which buffer fields the pipeline accepts; under those asserts most of it is a constant or a
// single term. Simplified, the program is the one a person would write from the same schedule
// (the hand translations of corpus/halide/), which is what makes verifying it fast, and the
// verdict's assumptions are the few bounds on buffer fields that the asserts amount to.
//
// The simplified program means the same as the translation wherever the asserts hold, which is
// everywhere Halide's pipeline runs (it fails an assert otherwise), and the verdict is stated
// under them; the asserts as translated stay in the file as comments and in `--json`.

import type { Formula } from '../../core/presburger/types.ts';
import { parseProgram } from '../../core/language/parser.ts';
import { printExpr, printImpl } from '../../core/language/printer.ts';
import { simplifyImpl } from '../../core/language/simplify-bounds.ts';
import type { Translation } from './translate.ts';
import { formulaOf } from '../../core/language/affine.ts';
import { andAll, leT } from '../../core/presburger/formula.ts';
import { constant, variable } from '../../core/presburger/term.ts';
import { type SizeFact, sizeFacts } from './size-limits.ts';

export interface Simplified {
  readonly translation: Translation;
  /** The assumptions after simplification (a conjunction), null when left as translated. */
  readonly assumptions: Formula | null;
  /** Halide's asserts as translated (the implementation's assumptions before simplification). */
  readonly asserts: readonly string[];
  /** The affine consequences of Halide's buffer-size checks among them (size-limits.ts). */
  readonly sizeFacts: readonly SizeFact[];
}

/**
 * `tr` with its implementation simplified (the spec and the header notes unchanged), and the affine
 * consequences of Halide's buffer-size checks assumed (size-limits.ts).
 */
export function simplifyTranslation(tr: Translation, file = 'translation.sched'): Simplified {
  const prog = parseProgram(file, tr.text);
  const impl = prog.impls.find((i) => i.name === tr.implName);
  const spec = prog.specs.find((s) => s.name === tr.specName);
  if (!impl || !spec) return { translation: tr, assumptions: null, asserts: [], sizeFacts: [] };
  const asserts = impl.assumes.map(printExpr);
  const specFacts = spec.assumes.map((a) => formulaOf(a));
  const r = simplifyImpl(impl, spec);
  if (r.assumptions === null) return withSizeFacts({ translation: tr, assumptions: null, asserts, sizeFacts: [] }, [...specFacts, ...impl.assumes.map((a) => formulaOf(a))]);
  const at = tr.text.search(/^impl /m);
  const before = tr.text.slice(0, at);
  const note = [
    '// The implementation below is simplified under its assumptions: they are Halide\'s asserts',
    '// (required regions inside the buffers, set_bounds), rewritten into an equivalent form given',
    '// the spec\'s assumptions, and every index expression is rewritten into one equal to it where',
    '// they hold. The asserts as translated:',
    ...asserts.map((a) => `//   assume ${a};`),
    '',
  ];
  const text = `${before}${note.join('\n')}\n${printImpl(r.impl)}\n`;
  // The least extents come from the simplified assumptions: sgemmTB's A.extent.1 >= 8 is a plain
  // bound only there.
  return withSizeFacts({ translation: { ...tr, text }, assumptions: r.assumptions, asserts, sizeFacts: [] }, [...specFacts, r.assumptions]);
}

/** `s` with the size facts that `facts` give among its implementation's assumptions (and in its formula), and a note saying so. */
function withSizeFacts(s: Simplified, facts: readonly Formula[]): Simplified {
  const tr = s.translation;
  const found = sizeFacts(tr.sizeLimits, facts);
  const header = new RegExp(`^impl ${tr.implName} of ${tr.specName} \\{\n`, 'm').exec(tr.text);
  if (found.length === 0 || header === null) return s;
  const at = header.index + header[0].length;
  const text = `${tr.text.slice(0, at)}${found.map((f) => `  assume ${f.param} <= ${f.max};\n`).join('')}${tr.text.slice(at)}`;
  const limits = [...new Set(tr.sizeLimits.map((l) => l.limit))].join(', ');
  const shown = found.map((f) => `${tr.params.find((p) => p.sched === f.param)?.halide ?? f.param} <= ${f.max}`).join(', ');
  const note = `assumed: Halide's buffer-size limit (each buffer at most ${limits} elements: its code checks it before computing anything), through its affine consequences ${shown}`;
  const bounds = found.map((f) => leT(variable(f.param), constant(f.max)));
  return { ...s, translation: { ...tr, text, notes: [...tr.notes, note] }, assumptions: s.assumptions === null ? null : andAll([s.assumptions, ...bounds]), sizeFacts: found };
}
