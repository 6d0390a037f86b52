// `sched derivation FILE --param …`: the big-step derivation of a run (thesis Fig. 4.5) as a tree
// one can read: each node's rule, the command it derives (its source line), the loop and let
// variables, what an assignment wrote, and δμ at the root. `--out D.json` exports it;
// `--check D.json` re-checks an exported derivation rule by rule with the independent checker
// (proofs/metatheory/derivation-check.ts, its own expression evaluator), against FILE's implementation.

import { readFileSync, writeFileSync } from 'node:fs';
import { checkDerivation, type DerivationJson } from '../../proofs/metatheory/derivation-check.ts';
import type { DerivationNode } from '../../semantics/derivation.ts';
import { formatRunError } from '../../semantics/errors.ts';
import { runImpl } from '../../semantics/run.ts';
import { type ParsedArgs, single, UsageError } from '../args.ts';
import { type Command, EXIT_FOUND, EXIT_OK, JSON_OPTION } from '../command.ts';
import { readSource } from '../../core/language/load.ts';
import { SPEC_OPTION, toJson } from '../io.ts';
import { familyOption, IMPL_OPTION, INPUTS_OPTION, interfaceError, loadImpls, numberOption, PARAM_OPTION, paramsOption, SEED_OPTION, seedOption } from './run.ts';

/** What a node says besides its rule: the variables it binds, the value it wrote, a condition. */
function factsText(n: DerivationNode): string {
  const f = n.facts;
  switch (n.rule) {
    case 'U-ASSIGN':
      return `${String(f['location'])} := ${JSON.stringify(f['value'])}`;
    case 'U-FOR':
    case 'U-PARLOOP':
      return `${String(f['var'])} < ${String(f['n'])}`;
    case 'U-LET':
      return `${String(f['var'] ?? '')} = ${JSON.stringify(f['value'])}`;
    case 'U-IF-TRUE':
    case 'U-IF-FALSE':
      return `condition ${JSON.stringify(f['cond'])}`;
    case 'U-ALLOCATE':
      return `${String(f['array'])} is ${String(f['instance'])}`;
    case 'U-SEQ':
    case 'U-SKIP':
      return '';
    default:
      return Object.keys(f).length > 0 ? JSON.stringify(f) : '';
  }
}

/** The tree as lines, at most `maxDepth` deep and `maxNodes` nodes (the rest counted). */
export function treeLines(root: DerivationNode, source: readonly string[], params: ReadonlySet<string>, maxDepth: number, maxNodes: number): string[] {
  const out: string[] = [];
  let shown = 0;
  let hidden = 0;
  const visit = (n: DerivationNode, prefix: string, last: boolean, depth: number, isRoot: boolean): void => {
    if (shown >= maxNodes) {
      hidden++;
      for (const p of n.premises) visit(p, '', true, depth + 1, false);
      return;
    }
    shown++;
    const vars = Object.entries(n.env).filter(([k]) => !params.has(k)).map(([k, v]) => `${k} = ${v}`).join(', ');
    const text = (source[n.line - 1] ?? '').replace(/\/\/.*$/, '').trim().replace(/\s+/g, ' ');
    const cmd = text.length > 56 ? `${text.slice(0, 55)}…` : text;
    const branch = isRoot ? '' : last ? '└─ ' : '├─ ';
    const facts = factsText(n);
    out.push(`${prefix}${branch}${n.rule.padEnd(11)} line ${String(n.line).padEnd(4)} ${cmd}${vars ? `   [${vars}]` : ''}${facts ? `   ${facts}` : ''}`);
    const kids = n.premises;
    const inner = isRoot ? '' : prefix + (last ? '   ' : '│  ');
    if (depth + 1 > maxDepth) {
      if (kids.length > 0) out.push(`${inner}└─ … ${kids.length} premise(s) below depth ${maxDepth} (--depth)`);
      return;
    }
    kids.forEach((k, i) => visit(k, inner, i === kids.length - 1, depth + 1, false));
  };
  visit(root, '', true, 0, true);
  if (hidden > 0) out.push(`… and ${hidden} more node(s) (--max-nodes)`);
  return out;
}

export const derivationCommand: Command = {
  name: 'derivation',
  summary: 'Show the big-step derivation of a run as a tree of rules (thesis Fig. 4.5), export it, or re-check an exported one.',
  usage: 'sched derivation FILE --param NAME=VALUE… [--impl NAME] [--seed S] [--inputs F] [--depth K] [--out D.json] | sched derivation FILE --check D.json',
  options: [
    PARAM_OPTION,
    SPEC_OPTION,
    IMPL_OPTION,
    SEED_OPTION,
    INPUTS_OPTION,
    { name: 'depth', value: true, metavar: 'K', help: 'show the tree K levels deep (default 12)' },
    { name: 'max-nodes', value: true, metavar: 'K', help: 'show at most K nodes (default 400)' },
    { name: 'out', value: true, metavar: 'FILE', help: 'write the derivation as JSON to FILE (for --check, or other checkers)' },
    { name: 'check', value: true, metavar: 'FILE', help: "re-check the exported derivation FILE against FILE's implementation, rule by rule, with the independent checker" },
    JSON_OPTION,
  ],
  async run(args: ParsedArgs): Promise<number> {
    const json = args.flags.has('json');
    const check = single(args, 'check');
    if (check !== undefined) {
      let d: DerivationJson & { impl?: string };
      try {
        d = JSON.parse(readFileSync(check, 'utf8')) as DerivationJson & { impl?: string };
      } catch (e) {
        throw new UsageError(`--check: cannot read a derivation from '${check}' (${(e as Error).message})`);
      }
      const loaded = loadImpls({ ...args, values: new Map([...args.values, ...(d.impl ? [['impl', [d.impl]] as [string, string[]]] : [])]) }, 'derivation', false);
      const ci = loaded.flatMap((l) => l.impls)[0]!;
      const r = checkDerivation(ci, d);
      if (json) process.stdout.write(toJson({ impl: ci.impl.name, ...r }) + '\n');
      else if (r.ok) process.stdout.write(`${check}: ok — ${r.nodes} nodes re-checked rule by rule against impl ${ci.impl.name}\n`);
      else process.stdout.write(`${check}: REJECTED at ${r.path}: ${r.reason}\n`);
      return r.ok ? EXIT_OK : EXIT_FOUND;
    }
    const params = paramsOption(args);
    const seed = seedOption(args);
    const family = familyOption(args);
    const loaded = loadImpls(args, 'derivation');
    const all = loaded.flatMap((l) => l.impls.map((ci) => ({ file: l.file, ci })));
    if (all.length !== 1) throw new UsageError(`a derivation is of one implementation: give --impl (${all.map((x) => x.ci.impl.name).join(', ')})`);
    const { file, ci } = all[0]!;
    const refused = await interfaceError(ci, params);
    if (refused !== null) {
      process.stderr.write(`${formatRunError(file, refused)}\n`);
      return EXIT_FOUND;
    }
    const r = runImpl(ci, params, { seed, family, file, derivation: true });
    if (!r.result.ok || r.derivation === null) {
      const why = r.result.ok ? 'none recorded' : formatRunError(file, r.result.error);
      if (json) process.stdout.write(toJson({ impl: ci.impl.name, derivation: null, reason: why }) + '\n');
      else process.stdout.write(`${file}: impl ${ci.impl.name}: no derivation — ${why}\n`);
      return EXIT_FOUND;
    }
    const doc = { impl: ci.impl.name, params: r.report.params, seed: r.report.seed, inputs: r.report.inputs, ...r.derivation };
    const out = single(args, 'out');
    if (out !== undefined) writeFileSync(out, toJson(doc) + '\n');
    if (json) {
      process.stdout.write(toJson(doc) + '\n');
      return EXIT_OK;
    }
    const source = (file === '<stdin>' ? '' : readSource(file)).split('\n');
    const depth = numberOption(args, 'depth', 1) ?? 12;
    const maxNodes = numberOption(args, 'max-nodes', 1) ?? 400;
    const ps = Object.entries(r.report.params).map(([k, v]) => `${k} = ${v}`).join(', ');
    process.stdout.write(`${file}: impl ${ci.impl.name} (${ps}, seed ${seed}${family !== 'default' ? `, ${family} inputs` : ''}): ${r.report.outcome}\n`);
    for (const l of treeLines(r.derivation.root, source, new Set(ci.spec.params), depth, maxNodes)) process.stdout.write(`${l}\n`);
    const dmu = r.derivation.root.dmu;
    process.stdout.write(`δμ (${dmu.length} location${dmu.length === 1 ? '' : 's'}): ${dmu.slice(0, 12).map(([l, v]) => `${l} ↦ ${JSON.stringify(v)}`).join(', ')}${dmu.length > 12 ? ', …' : ''}\n`);
    if (out !== undefined) process.stdout.write(`written to ${out}; re-check it with: npx sched derivation ${file} --check ${out}\n`);
    return EXIT_OK;
  },
};
