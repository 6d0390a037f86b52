// Command-line option parsing shared by every `sched` command: positional files (a directory
// stands for every .sched file below it, sorted), `--flag value` / `--flag=value` options,
// repeatable options (`--param N=4 --param M=3`). Bad options are input errors (exit 3).

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { didYouMean } from './suggest.ts';

export class UsageError extends Error {
  constructor(
    message: string,
    /** The argument it is about (an option's name without dashes, or an argument as given), to locate it. */
    readonly arg?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface OptionSpec {
  /** Option name without dashes. */
  readonly name: string;
  /** true: takes a value; false: a boolean flag. */
  readonly value: boolean;
  readonly repeat?: boolean;
  readonly help: string;
  readonly metavar?: string;
}

export interface ParsedArgs {
  readonly positional: string[];
  readonly flags: ReadonlySet<string>;
  readonly values: ReadonlyMap<string, string[]>;
}

export function parseArgs(argv: readonly string[], specs: readonly OptionSpec[]): ParsedArgs {
  const positional: string[] = [];
  const flags = new Set<string>();
  const values = new Map<string, string[]>();
  const byName = new Map(specs.map((s) => [s.name, s]));
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--') || a === '--') {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
    const spec = byName.get(name);
    if (spec === undefined) throw new UsageError(`unknown option '--${name}'${didYouMean(name, byName.keys()).replace(/'([^']+)'\?$/, "'--$1'?")} (see --help)`, name);
    if (!spec.value) {
      if (eq >= 0) throw new UsageError(`option '--${name}' takes no value`, name);
      flags.add(name);
      continue;
    }
    let v: string;
    if (eq >= 0) v = a.slice(eq + 1);
    else {
      if (i + 1 >= argv.length) throw new UsageError(`option '--${name}' needs a value`, name);
      v = argv[++i]!;
    }
    const prev = values.get(name);
    if (prev !== undefined && !spec.repeat) throw new UsageError(`option '--${name}' given twice`, name);
    values.set(name, [...(prev ?? []), v]);
  }
  return { positional, flags, values };
}

export function single(args: ParsedArgs, name: string): string | undefined {
  return args.values.get(name)?.[0];
}

export function intOption(args: ParsedArgs, name: string, dflt: number, min = 0): number {
  const v = single(args, name);
  if (v === undefined) return dflt;
  if (!/^-?\d+$/.test(v)) throw new UsageError(`option '--${name}' needs an integer, got '${v}'`, name);
  const n = Number(v);
  if (n < min) throw new UsageError(`option '--${name}' must be at least ${min}, got ${n}`, name);
  return n;
}

/** Expand directories into their .sched files (recursively, sorted); files are kept as given. */
export function expandFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir).sort()) {
      const p = join(dir, e);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (e.endsWith('.sched')) out.push(p);
    }
  };
  for (const p of paths) {
    if (p === '-') {
      out.push(p); // standard input
      continue;
    }
    let st;
    try {
      st = statSync(p);
    } catch {
      out.push(p); // reported as unreadable by the command, with exit code 3
      continue;
    }
    if (st.isDirectory()) walk(p);
    else out.push(p);
  }
  return out;
}
