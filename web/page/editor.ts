// The SCHED editor: CodeMirror 6 with a stream tokenizer for highlighting (keywords, types,
// tensors, prophetic annotations, comments), diagnostics from the engines shown inline (lint),
// and marks the views put on the source: the race a run found, the counterexample of a verdict,
// the line of a step.

import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, HighlightStyle, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorState, StateEffect, StateField, type Extension } from '@codemirror/state';
import { Decoration, type DecorationSet, drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers, WidgetType } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';
import type { Diag } from '../protocol.ts';
import { BUILTIN_FUNCTIONS } from '../../core/language/ast.ts';

const KEYWORDS = new Set(['in', 'do', 'for', 'par', 'let', 'if', 'then', 'else', 'skip', 'allocate', 'input', 'output', 'array', 'param', 'assume', 'tensor', 'spec', 'impl', 'of', 'where', 'select', 'true', 'false']);
const TYPES = new Set(['bool', 'i8', 'i16', 'i32', 'i64', 'u8', 'u16', 'u32', 'u64', 'f32', 'f64']);
const BUILTINS = new Set<string>(BUILTIN_FUNCTIONS);

interface LexState {
  comment: boolean;
  /** Depth of `{…}` prophetic annotations inside an impl (0 outside). */
  annot: number;
}

/** Tokens of the language (docs/language.md §1). */
const sched = StreamLanguage.define<LexState>({
  name: 'sched',
  startState: () => ({ comment: false, annot: 0 }),
  token(stream, st) {
    if (st.comment) {
      if (stream.skipTo('*/')) {
        stream.pos += 2;
        st.comment = false;
      } else stream.skipToEnd();
      return 'comment';
    }
    if (stream.eatSpace()) return null;
    if (stream.match('//')) {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.match('/*')) {
      st.comment = true;
      return 'comment';
    }
    if (stream.match(/^\d+(\.\d*)?([eE][-+]?\d+)?/)) return st.annot > 0 ? 'meta' : 'number';
    if (stream.match(/^[A-Za-z_][A-Za-z0-9_]*/)) {
      const w = stream.current();
      if (KEYWORDS.has(w)) return 'keyword';
      if (TYPES.has(w)) return 'typeName';
      if (BUILTINS.has(w)) return 'builtin';
      if (st.annot > 0) return 'meta';
      return /^[A-Z]/.test(w) ? 'className' : 'variableName';
    }
    const ch = stream.next();
    if (ch === '{') {
      // After an assignment target `a[…] {t} :=` a brace opens an annotation; else a block.
      const before = stream.string.slice(0, stream.pos - 1).trimEnd();
      if (st.annot > 0 || /\]$/.test(before)) {
        st.annot++;
        return 'meta';
      }
      return 'brace';
    }
    if (ch === '}') {
      if (st.annot > 0) {
        st.annot--;
        return 'meta';
      }
      return 'brace';
    }
    if (st.annot > 0) return 'meta';
    if (ch !== undefined && ':=<>!&|+-*/%'.includes(ch)) {
      stream.eatWhile(/[=<>&|]/);
      return 'operator';
    }
    return null;
  },
  languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } } },
});

const style = HighlightStyle.define([
  { tag: t.keyword, color: '#8e24aa', fontWeight: '600' },
  { tag: t.typeName, color: '#00838f' },
  { tag: t.comment, color: '#7a7a7a', fontStyle: 'italic' },
  { tag: t.number, color: '#c62828' },
  { tag: t.className, color: '#1565c0', fontWeight: '600' },
  { tag: t.meta, color: '#2e7d32', background: '#f1f8e9' },
  { tag: t.standard(t.variableName), color: '#6d4c41' },
  { tag: t.operator, color: '#444' },
]);

// ---------------------------------------------------------------------------------------------
// Marks put by the views

export interface Mark {
  readonly line: number;
  readonly col: number;
  /** `race`, `cex` (counterexample), `step`, `other` (the second access of a race). */
  readonly kind: string;
  readonly label: string;
}

class LabelWidget extends WidgetType {
  constructor(
    readonly text: string,
    readonly kind: string,
  ) {
    super();
  }
  override eq(o: LabelWidget): boolean {
    return o.text === this.text && o.kind === this.kind;
  }
  toDOM(): HTMLElement {
    const s = document.createElement('span');
    s.className = `mark-label mark-label-${this.kind}`;
    s.textContent = this.text;
    return s;
  }
}

const setMarks = StateEffect.define<readonly Mark[]>();

const marksField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(deco, tr) {
    for (const e of tr.effects) if (e.is(setMarks)) return build(tr.state, e.value);
    return tr.docChanged ? Decoration.none : deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

function build(state: EditorState, marks: readonly Mark[]): DecorationSet {
  const ranges = [];
  for (const m of marks) {
    if (m.line < 1 || m.line > state.doc.lines) continue;
    const line = state.doc.line(m.line);
    const from = Math.min(line.from + Math.max(m.col - 1, 0), line.to);
    // The token at the mark: up to the end of the word or access (`a[i, k]`).
    const rest = state.doc.sliceString(from, line.to);
    const tok = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?/.exec(rest);
    const to = from + (tok ? tok[0].length : Math.max(1, Math.min(rest.length, 1)));
    ranges.push(Decoration.line({ class: `mark-line mark-line-${m.kind}` }).range(line.from));
    if (to > from && m.col >= 1) ranges.push(Decoration.mark({ class: `mark-token mark-${m.kind}`, attributes: { title: m.label } }).range(from, to));
    if (m.label) ranges.push(Decoration.widget({ widget: new LabelWidget(m.label, m.kind), side: 1 }).range(line.to));
  }
  return Decoration.set(ranges, true);
}

// ---------------------------------------------------------------------------------------------

export interface Editor {
  readonly view: EditorView;
  text(): string;
  setText(text: string): void;
  mark(marks: readonly Mark[]): void;
  diagnose(diags: readonly Diag[]): void;
  reveal(line: number): void;
}

export function createEditor(parent: HTMLElement, onChange: () => void, onSubmit: () => void = () => undefined): Editor {
  const extensions: Extension[] = [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightActiveLine(),
    drawSelection(),
    history(),
    bracketMatching(),
    keymap.of([{ key: 'Mod-Enter', run: () => (onSubmit(), true) }, ...defaultKeymap, ...historyKeymap, indentWithTab]),
    sched,
    syntaxHighlighting(style),
    lintGutter(),
    marksField,
    EditorView.updateListener.of((u) => {
      if (u.docChanged) onChange();
    }),
    EditorView.theme({ '&': { height: '100%' }, '.cm-scroller': { fontFamily: 'ui-monospace, "DejaVu Sans Mono", monospace', fontSize: '13px' } }),
  ];
  const view = new EditorView({ parent, state: EditorState.create({ doc: '', extensions }) });
  const toDiagnostic = (d: Diag): Diagnostic => {
    const doc = view.state.doc;
    const line = doc.line(Math.min(Math.max(d.line, 1), doc.lines));
    const from = Math.min(line.from + Math.max(d.col - 1, 0), line.to);
    const word = /^[A-Za-z_0-9.]+/.exec(doc.sliceString(from, line.to));
    return { from, to: word ? from + word[0].length : Math.min(from + 1, line.to), severity: 'error', message: `${d.line}:${d.col}: ${d.message}`, source: d.phase };
  };
  return {
    view,
    text: () => view.state.doc.toString(),
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    mark(marks) {
      view.dispatch({ effects: setMarks.of(marks) });
      const first = marks[0];
      if (first) this.reveal(first.line);
    },
    diagnose(diags) {
      view.dispatch(setDiagnostics(view.state, diags.map(toDiagnostic)));
    },
    reveal(line) {
      const doc = view.state.doc;
      if (line < 1 || line > doc.lines) return;
      view.dispatch({ effects: EditorView.scrollIntoView(doc.line(line).from, { y: 'center' }) });
    },
  };
}
