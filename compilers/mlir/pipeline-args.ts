// mlir-opt pass arguments as a user writes them on a command line (`--affine-loop-tile='tile-size=4'`,
// `--pass-pipeline='builtin.module(func.func(affine-loop-fusion{fusion-maximal}))'`): split into
// argv words the way a POSIX shell would (quotes and backslashes; no shell is run, so other
// characters are literal), and refused when a
// word would make mlir-opt do more than transform stdin to stdout (write files, load plugins, read
// another input) or would clash with the printing flags the runner sets itself.

export class PipelineArgsError extends Error {
  constructor(
    message: string,
    /** 1-based column in the argument text where the problem is (1 when not positional). */
    readonly col: number,
  ) {
    super(message);
    this.name = 'PipelineArgsError';
  }
}

/** Split TEXT into words: '…' literal, "…" with \" \\ \$ \` escapes, \x outside quotes. */
export function splitArgs(text: string): string[] {
  const words: string[] = [];
  let cur: string | null = null;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      if (cur !== null) words.push(cur);
      cur = null;
      i++;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new PipelineArgsError("unterminated ' quote", i + 1);
      cur = (cur ?? '') + text.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      let s = '';
      for (;;) {
        if (j >= text.length) throw new PipelineArgsError('unterminated " quote', i + 1);
        const d = text[j]!;
        if (d === '"') break;
        if (d === '\\' && j + 1 < text.length && '"\\$`'.includes(text[j + 1]!)) {
          s += text[j + 1];
          j += 2;
        } else {
          s += d;
          j++;
        }
      }
      cur = (cur ?? '') + s;
      i = j + 1;
    } else if (c === '\\') {
      if (i + 1 >= text.length) throw new PipelineArgsError('a trailing backslash', i + 1);
      cur = (cur ?? '') + text[i + 1];
      i += 2;
    } else {
      cur = (cur ?? '') + c;
      i++;
    }
  }
  if (cur !== null) words.push(cur);
  return words;
}

/** Quote WORDS back into one line that splitArgs reads as the same words. */
export function joinArgs(words: readonly string[]): string {
  return words.map((w) => (/^[A-Za-z0-9_.,:=+\-/@%]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

const REFUSED: readonly [RegExp, string][] = [
  [/^--?o(=|$)/, 'the runner reads the output from stdout'],
  [/plugin/, 'plugins are not loaded'],
  [/reproducer/, 'reproducer files are not written'],
  [/^--?(split-input-file|verify-diagnostics|verify-each=false|show-dialects|help|help-hidden|help-list|version|print-options|print-all-options)\b/, 'the runner transforms one module'],
  [/^--?mlir-print-(op-generic|debuginfo|local-scope|elementsattrs-with-hex-if-larger|pretty-debuginfo)\b/, 'the runner sets the printing flags itself (use its options)'],
  [/^--?(mlir-disable-threading|allow-unregistered-dialect|log-actions-to|mlir-timing-display)/, 'the runner sets this flag itself'],
];

/** Refuse words that are not mlir-opt pass or pass-pipeline options (throws PipelineArgsError). */
export function checkPipelineArgs(words: readonly string[]): void {
  for (const w of words) {
    if (!w.startsWith('-') || w === '-' || w === '--') throw new PipelineArgsError(`'${w}' is not an option: give mlir-opt pass options only (the input is the module)`, 1);
    for (const [re, why] of REFUSED) if (re.test(w)) throw new PipelineArgsError(`'${w}' is refused: ${why}`, 1);
  }
}
