// Derivation certificates: every big-step derivation the production evaluator exports is accepted
// by the independent checker (proofs/metatheory/derivation-check.ts), and every random mutation of one is
// rejected. The mutations are chosen so that none can yield another valid derivation: each changes
// something a rule determines (a node's δμ or ρ, its rule, its premises, its environment, a fact
// such as a loop's trip count or an assignment's value or location), or the initial memory's
// domain, which must be the root's ρ.

import fc from 'fast-check';
import type { JsonValue } from '../../../semantics/values.ts';
import type { DerivationJson, DerivationNodeJson } from '../derivation-check.ts';
import { checkDerivation } from '../derivation-check.ts';
import { prng } from '../../../semantics/explore.ts';
import { memCaseArb } from '../gen/programs.ts';
import { defineProperty, falsified, type NamedProperty } from './framework.ts';
import { bigStep, compileCase } from './harness.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Node = Mutable<DerivationNodeJson> & { premises: Node[] };

const RULES = ['U-SKIP', 'U-SEQ', 'U-IF-TRUE', 'U-IF-FALSE', 'U-LET', 'U-FOR', 'U-PARLOOP', 'U-ASSIGN', 'U-ALLOCATE'];

export const MUTATIONS = ['dmu-value', 'dmu-drop', 'dmu-add', 'rho-drop', 'rho-add', 'rule', 'premise-drop', 'premise-dup', 'premise-swap', 'env', 'trip-count', 'assigned-value', 'assigned-location', 'condition', 'initial-drop'] as const;
export type MutationKind = (typeof MUTATIONS)[number];

function nodes(n: Node, out: Node[] = []): Node[] {
  out.push(n);
  for (const p of n.premises) nodes(p, out);
  return out;
}

/** Another JSON value of the same kind (never equal to v). */
function other(v: unknown): JsonValue {
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'number') return Number.isInteger(v) ? v + 1 : v === 0 ? 1 : 0;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return (BigInt(v) + 1n).toString();
  return 0; // NaN, ±Infinity, -0.0
}

/**
 * Apply one mutation of kind `kind` to a copy of `d` at a node chosen by `rand`; null when the
 * derivation has no place for it.
 */
export function mutateDerivation(d: DerivationJson, kind: MutationKind, rand: () => number): DerivationJson | null {
  const copy = JSON.parse(JSON.stringify(d)) as Mutable<DerivationJson> & { root: Node; initial: [string, JsonValue][] };
  const all = nodes(copy.root);
  const pick = <T>(xs: readonly T[]): T | null => (xs.length === 0 ? null : xs[Math.floor(rand() * xs.length)]!);
  const locations = [...new Set([...copy.initial.map(([l]) => l), ...all.flatMap((n) => n.dmu.map(([l]) => l))])];
  switch (kind) {
    case 'dmu-value': {
      const n = pick(all.filter((x) => x.dmu.length > 0));
      if (!n) return null;
      const i = Math.floor(rand() * n.dmu.length);
      n.dmu = n.dmu.map((e, k) => (k === i ? [e[0], other(e[1])] : e));
      break;
    }
    case 'dmu-drop': {
      const n = pick(all.filter((x) => x.dmu.length > 0));
      if (!n) return null;
      const i = Math.floor(rand() * n.dmu.length);
      n.dmu = n.dmu.filter((_, k) => k !== i);
      break;
    }
    case 'dmu-add': {
      const n = pick(all);
      const l = n && pick(locations.filter((x) => !n.dmu.some(([y]) => y === x)));
      if (!n || !l) return null;
      n.dmu = [...n.dmu, [l, 0]];
      break;
    }
    case 'rho-drop': {
      const n = pick(all.filter((x) => x.rho.length > 0));
      if (!n) return null;
      const i = Math.floor(rand() * n.rho.length);
      n.rho = n.rho.filter((_, k) => k !== i);
      break;
    }
    case 'rho-add': {
      const n = pick(all);
      const l = n && pick(locations.filter((x) => !n.rho.includes(x)));
      if (!n || !l) return null;
      n.rho = [...n.rho, l];
      break;
    }
    case 'rule': {
      const n = pick(all)!;
      n.rule = pick(RULES.filter((r) => r !== n.rule))!;
      break;
    }
    case 'premise-drop': {
      const n = pick(all.filter((x) => x.premises.length > 0));
      if (!n) return null;
      n.premises.splice(Math.floor(rand() * n.premises.length), 1);
      break;
    }
    case 'premise-dup': {
      const n = pick(all.filter((x) => x.premises.length > 0));
      if (!n) return null;
      n.premises.push(JSON.parse(JSON.stringify(pick(n.premises))) as Node);
      break;
    }
    case 'premise-swap': {
      const n = pick(all.filter((x) => x.premises.length > 1 && JSON.stringify(x.premises[0]) !== JSON.stringify(x.premises[1])));
      if (!n) return null;
      [n.premises[0], n.premises[1]] = [n.premises[1]!, n.premises[0]!];
      break;
    }
    case 'env': {
      const n = pick(all.filter((x) => Object.keys(x.env).length > 0));
      if (!n) return null;
      const k = pick(Object.keys(n.env))!;
      n.env = { ...n.env, [k]: other(n.env[k]) };
      break;
    }
    case 'trip-count': {
      const n = pick(all.filter((x) => x.rule === 'U-FOR' || x.rule === 'U-PARLOOP'));
      if (!n) return null;
      n.facts = { ...n.facts, n: (n.facts.n as number) + 1 };
      break;
    }
    case 'assigned-value': {
      const n = pick(all.filter((x) => x.rule === 'U-ASSIGN'));
      if (!n) return null;
      n.facts = { ...n.facts, value: other(n.facts.value) };
      break;
    }
    case 'assigned-location': {
      const n = pick(all.filter((x) => x.rule === 'U-ASSIGN'));
      const l = n && pick(locations.filter((x) => x !== n.facts.location));
      if (!n || !l) return null;
      n.facts = { ...n.facts, location: l };
      break;
    }
    case 'condition': {
      const n = pick(all.filter((x) => x.rule === 'U-IF-TRUE' || x.rule === 'U-IF-FALSE'));
      if (!n) return null;
      n.facts = { ...n.facts, cond: !n.facts.cond };
      break;
    }
    case 'initial-drop': {
      if (copy.initial.length === 0) return null;
      const i = Math.floor(rand() * copy.initial.length);
      copy.initial = copy.initial.filter((_, k) => k !== i);
      break;
    }
  }
  return copy;
}

export const derivations = defineProperty({
  id: 'derivations',
  name: 'Derivation certificates (Fig. 4.5, independent checker)',
  statement: 'every big-step derivation exported by semantics/ is accepted rule by rule by proofs/metatheory/derivation-check.ts, and every random mutation of it is rejected',
  ciRuns: 1000,
  arb: () => fc.tuple(memCaseArb(), fc.integer()),
  check: ([c, seed], stats) => {
    const k = compileCase(c);
    const r = bigStep(k, c.pools, { derivation: true });
    if (!r.ok) return void stats.note(`vacuous (${r.error!.kind})`);
    const d = JSON.parse(JSON.stringify(r.derivation)) as DerivationJson;
    const ok = checkDerivation(k.ci, d);
    if (!ok.ok) falsified(`the checker rejects an exported derivation at ${ok.path}: ${ok.reason}`);
    stats.note('accepted');
    stats.note('nodes', ok.nodes);
    const rand = prng(seed);
    for (let i = 0; i < 4; i++) {
      const kind = MUTATIONS[Math.floor(rand() * MUTATIONS.length)]!;
      const m = mutateDerivation(d, kind, rand);
      if (m === null) continue;
      const res = checkDerivation(k.ci, m);
      if (res.ok) falsified(`the checker accepts a derivation mutated by '${kind}'`);
      stats.note(`rejected ${kind}`);
    }
  },
});

export const DERIVATIONS: readonly NamedProperty[] = [derivations];
