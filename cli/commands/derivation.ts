// `sched derivation FILE --param …`: the big-step derivation of a run (thesis Fig. 4.5) as a tree
// one can read: each node's rule, the command it derives (its source line), the loop and let
// variables, what an assignment wrote, and δμ at the root. `--out D.json` exports it;
// `--check D.json` re-checks an exported derivation rule by rule with the independent checker
// (proofs/metatheory/derivation-check.ts, its own expression evaluator), against FILE's implementation.
// `--coq OUT.v` writes the run as a Coq proof of the relation of Fig. 4.5 for that program, initial
// memory and ⟨δμ; ρ⟩ (or of the absence of a derivation), and `--check-coq OUT.v` has coqc check it
// against the Coq development (proofs/coq, docs/coq.md).

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { coqSetup, runCoqc } from '../../proofs/coq/coqc.ts';
import { exportRun, NotExportable } from '../../proofs/coq/export.ts';
import { checkDerivation, type DerivationJson } from '../../proofs/metatheory/derivation-check.ts';
import type { DerivationNode } from '../../semantics/derivation.ts';
import { formatRunError } from '../../semantics/errors.ts';
import { runImpl } from '../../semantics/run.ts';
import { type ParsedArgs, single, UsageError } from '../args.ts';
import { type Command, CommandError, EXIT_FOUND, EXIT_OK, JSON_OPTION } from '../command.ts';
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
  usage: 'sched derivation FILE --param NAME=VALUE… [--impl NAME] [--seed S] [--inputs F] [--depth K] [--out D.json] [--coq OUT.v] | sched derivation FILE --check D.json | sched derivation --check-coq FILE.v',
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
    { name: 'coq', value: true, metavar: 'OUT.v', help: 'write the run as a Coq proof of the big-step relation for this program, initial memory and ⟨δμ; ρ⟩ (or that no derivation exists), for --check-coq (docs/coq.md)' },
    { name: 'check-coq', value: true, metavar: 'FILE.v', help: 'have coqc check an exported run against the Coq development (needs coqc and `make -C proofs/coq`)' },
    JSON_OPTION,
  ],
  async run(args: ParsedArgs): Promise<number> {
    const json = args.flags.has('json');
    const checkCoq = single(args, 'check-coq');
    if (checkCoq !== undefined) return checkCoqFile(checkCoq, json);
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
    const coqOut = single(args, 'coq');
    if (coqOut !== undefined) return writeCoq(ci, params, { file, seed, family, out: coqOut, json, argv: args });
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

/** `--coq OUT.v`: export the run; its outcome is the run's (0 a derivation, 1 a run error). */
function writeCoq(ci: Parameters<typeof exportRun>[0], params: Map<string, bigint>, o: { file: string; seed: bigint; family: ReturnType<typeof familyOption>; out: string; json: boolean; argv: ParsedArgs }): number {
  const ps = [...params].map(([k, v]) => ` --param ${k}=${v}`).join('');
  const command = `sched derivation ${o.file} --impl ${ci.impl.name}${ps}${o.seed !== 0n ? ` --seed ${o.seed}` : ''}${o.family !== 'default' ? ` --inputs ${o.family}` : ''} --coq ${o.out}`;
  let e;
  try {
    e = exportRun(ci, params, { file: o.file, seed: o.seed, family: o.family, command });
  } catch (err) {
    if (err instanceof NotExportable) throw new UsageError(`--coq: this run cannot be exported: ${err.message}`);
    throw err;
  }
  writeFileSync(o.out, e.text);
  if (o.json) process.stdout.write(toJson({ impl: ci.impl.name, coq: o.out, claim: e.claim, outcome: e.report.outcome, sizes: e.sizes }) + '\n');
  else {
    const what = e.claim === 'derives' ? `E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ with ${e.sizes.dmu} location(s) in δμ and ${e.sizes.rho} in ρ` : 'no derivation (a run error)';
    process.stdout.write(`${o.file}: impl ${ci.impl.name}: ${e.report.outcome}; written to ${o.out}: ${what}\ncheck it with: npx sched derivation --check-coq ${o.out}\n`);
  }
  return e.claim === 'derives' ? EXIT_OK : EXIT_FOUND;
}

/**
 * `--check-coq FILE.v`: coqc against the built development; 0 accepted, 1 rejected, and an input
 * error (exit 3, the error document under --json) when coqc, Flocq or the build is missing.
 */
function checkCoqFile(file: string, json: boolean): number {
  if (!existsSync(file)) throw new UsageError(`--check-coq: no file '${file}'`);
  const setup = coqSetup();
  if (!setup.ok) throw new CommandError([{ file, line: 1, col: 1, phase: 'setup', message: `cannot check it with Coq: ${setup.missing}`, expected: null, found: null }]);
  const r = runCoqc(setup, file);
  if (json) process.stdout.write(toJson({ file, ok: r.ok, coqc: setup.version, message: r.message }) + '\n');
  else if (r.ok) process.stdout.write(`${file}: ok — accepted by coqc ${setup.version} against ${setup.dir}${r.message ? `\n${r.message}` : ''}\n`);
  else {
    // The proof is one vm_compute of the checker: "true" not unifying with "false" is the kernel's
    // run of the interpreter (Exec.v) finding another outcome than the file claims.
    const why = /Unable to unify "true" with "false"/.test(r.message) ? 'the semantics in Coq gives another outcome than the file claims (another ⟨δμ; ρ⟩, or a derivation where it claims none, or none where it claims one)\n' : '';
    process.stdout.write(`${file}: REJECTED by coqc ${setup.version}: ${why}${r.message}\n`);
  }
  return r.ok ? EXIT_OK : EXIT_FOUND;
}
