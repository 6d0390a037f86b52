// The results of thesis chapter 4 about commands, as properties over random programs with
// memories (proofs/metatheory/gen/programs.ts): framing of the big-step semantics (Lemma 4.2.4 with Remark
// 4.2.2), and its relation to the small-step interleaving semantics — existence (Thm 4.3.3),
// determinism (Thm 4.3.7, under random schedulers and by exhaustive exploration), preservation
// (Lemma 4.3.8, Cor. 4.3.9) and confluence (Cor. 4.3.10). The big-step is the production one
// (semantics/bigstep.ts); the small-step is semantics/smallstep.ts; the big-step meaning of
// intermediate terms comes from the reference of term-semantics.ts.
//
// Every theorem here has the hypothesis "c evaluates to ⟨δμ; ρ⟩ in E and μ": a case without a
// big-step derivation (a race, an access out of bounds, a read of ⊥) is vacuous and counted as such.

import fc from 'fast-check';
import { explore, prng, runSmallStep } from '../../../semantics/explore.ts';
import { SmallStep, type SmallState } from '../../../semantics/smallstep.ts';
import type { Value } from '../../../semantics/values.ts';
import { memCaseArb, type MemCase, POOL, GLOBALS } from '../gen/programs.ts';
import { type RValue, valueText } from '../ref-eval.ts';
import { defineProperty, falsified, type NamedProperty, type Stats } from './framework.ts';
import { type BigRun, bigStep, compileCase, type Compiled, initialMem, memDiff, type Mem, poolsOf, smallCase, stateMem, update } from './harness.ts';
import { type RefOut, termBigStep } from './term-semantics.ts';

const SMALL_STEPS = 100_000;

/** The big-step run of a case, or null (noted as vacuous) when it has no derivation. */
function derivable(c: MemCase, stats: Stats): { k: Compiled; r: BigRun } | null {
  const k = compileCase(c);
  const r = bigStep(k, c.pools);
  if (!r.ok) {
    stats.note(`vacuous (${r.error!.kind})`);
    return null;
  }
  stats.note('derivable');
  return { k, r };
}

function text(v: Value | RValue | undefined): string {
  return v === undefined ? '⊥' : valueText(v);
}

/** δμ' ⊆ δμ (as maps), ρ' ⊆ ρ and μ' ▷ δμ' = μ ▷ δμ on global locations; null or the violation. */
function preserved(sub: RefOut, subMem: Mem, dmu: ReadonlyMap<string, Value | RValue | undefined>, rho: ReadonlySet<string>, final: ReadonlyMap<string, Value | RValue | undefined>): string | null {
  for (const [l, v] of sub.dmu) {
    if (!dmu.has(l)) return `δμ' has ${l}, δμ does not`;
    if (text(dmu.get(l)) !== text(v)) return `δμ'(${l}) = ${text(v)} but δμ(${l}) = ${text(dmu.get(l))}`;
  }
  for (const l of sub.rho) if (!rho.has(l)) return `ρ' has ${l}, ρ does not`;
  for (const [l, v] of final) {
    const got = sub.dmu.has(l) ? text(sub.dmu.get(l)) : text(subMem.get(l));
    if (got !== text(v)) return `(μ' ▷ δμ')(${l}) = ${got} but (μ ▷ δμ)(${l}) = ${text(v)}`;
  }
  return null;
}

/** μ ▷ δμ for a memory and a reference differential memory. */
function overlay(mu: Mem, dmu: ReadonlyMap<string, RValue>): Map<string, Value | RValue | undefined> {
  const m = new Map<string, Value | RValue | undefined>(mu);
  for (const [l, v] of dmu) m.set(l, v);
  return m;
}

const pools2Arb = fc.record(Object.fromEntries(GLOBALS.map((g) => [g.name, fc.array(fc.oneof(fc.integer({ min: -3, max: 6 }), fc.constant(null)), { minLength: POOL, maxLength: POOL })])));

export const lemma424 = defineProperty({
  id: 'lemma-4.2.4',
  name: 'Lemma 4.2.4 (framing) with Remark 4.2.2',
  statement: 'if E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ then dom(δμ) ∪ ρ ⊆ dom(μ), and c evaluates to the same ⟨δμ; ρ⟩ in every memory that contains dom(δμ) and agrees with μ on ρ',
  ciRuns: 1000,
  arb: () => fc.tuple(memCaseArb(), pools2Arb),
  check: ([c, other], stats) => {
    const d = derivable(c, stats);
    if (!d) return;
    const { k, r } = d;
    // Remark 4.2.2: reads and writes stay in dom(μ) (local arrays are erased from δμ and ρ).
    for (const l of [...r.dmu.keys(), ...r.rho]) if (!r.initial.has(l)) falsified(`Remark 4.2.2: ${l} is in dom(δμ) ∪ ρ but not in dom(μ)`);
    // μ': μ on ρ, arbitrary (the second pool, ⊥ included) elsewhere.
    const otherMem = initialMem(k, other);
    const alt = new Map<string, Value | undefined>();
    for (const [l, v] of r.initial) alt.set(l, r.rho.has(l) ? v : otherMem.get(l));
    const r2 = bigStep(k, poolsOf(k, alt));
    if (!r2.ok) falsified(`no derivation in a memory agreeing with μ on ρ: ${r2.error!.message}`);
    const dd = memDiff(r.dmu, r2.dmu, ['δμ in μ', "δμ in μ'"]);
    if (dd !== null) falsified(`δμ differs: ${dd}`);
    const rr = [...r.rho].filter((l) => !r2.rho.has(l)).concat([...r2.rho].filter((l) => !r.rho.has(l)));
    if (rr.length > 0) falsified(`ρ differs on ${rr.join(', ')}`);
    stats.note(r.rho.size < r.initial.size ? 'μ′ differs from μ' : 'ρ covers μ');
  },
});

export const thm433 = defineProperty({
  id: 'thm-4.3.3',
  name: 'Thm 4.3.3 (existence)',
  statement: 'if E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ then the left-first small-step schedule reduces ⟨c[E] | μ⟩ to ⟨skip | μ ▷ δμ⟩',
  ciRuns: 1000,
  arb: () => memCaseArb(),
  check: (c, stats) => {
    const d = derivable(c, stats);
    if (!d) return;
    const sc = smallCase(d.k, c.pools, true);
    const run = runSmallStep(sc.prog, sc.space, sc.init, { scheduler: 'leftmost', maxSteps: SMALL_STEPS });
    if (run.outcome === 'limit') return void stats.note('limit');
    if (run.outcome === 'stuck') falsified(`the left-first schedule is stuck after ${run.steps} steps: ${run.blocked.map((b) => b.message).join('; ')}`);
    const diff = memDiff(update(d.r.initial, d.r.dmu), stateMem(run.state, sc.globals), ['μ ▷ δμ', 'small-step']);
    if (diff !== null) falsified(`the left-first schedule ends in another memory: ${diff}`);
    // The big-step machine updates memory in place: that memory is μ ▷ δμ of its own judgement too.
    const m = memDiff(update(d.r.initial, d.r.dmu), d.r.final, ['μ ▷ δμ', 'big-step machine']);
    if (m !== null) falsified(`the big-step machine's memory is not μ ▷ δμ of the judgement it returns: ${m}`);
    stats.note('small steps', run.steps);
  },
});

export const thm437Random = defineProperty({
  id: 'thm-4.3.7-random',
  name: 'Thm 4.3.7 (determinism, random interleavings)',
  statement: 'if E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ then every reduction of ⟨c[E] | μ⟩ to ⟨skip | μ′⟩ has μ′ = μ ▷ δμ (4 seeded random schedules per case; none may get stuck, by Cor. 4.3.10)',
  ciRuns: 1000,
  arb: () => fc.tuple(memCaseArb(), fc.integer()),
  check: ([c, seed], stats) => {
    const d = derivable(c, stats);
    if (!d) return;
    const want = update(d.r.initial, d.r.dmu);
    for (let s = 0; s < 4; s++) {
      const sc = smallCase(d.k, c.pools, true);
      const run = runSmallStep(sc.prog, sc.space, sc.init, { scheduler: 'random', seed: `${seed}/${s}`, maxSteps: SMALL_STEPS });
      if (run.outcome === 'limit') return void stats.note('limit');
      if (run.outcome === 'stuck') falsified(`schedule ${seed}/${s} is stuck after ${run.steps} steps: ${run.blocked.map((b) => b.message).join('; ')}`);
      const diff = memDiff(want, stateMem(run.state, sc.globals), ['μ ▷ δμ', `schedule ${seed}/${s}`]);
      if (diff !== null) falsified(`schedule ${seed}/${s} ends in another memory: ${diff}`);
    }
    stats.note('schedules', 4);
  },
});

/** The final memory of an exploration witness, in the shape of `Mem`. */
function witnessMem(arrays: Record<string, (string | number | boolean | null)[]>, like: Mem): Map<string, string> {
  const out = new Map<string, string>();
  const byArray = new Map<string, string[]>();
  for (const l of like.keys()) {
    const name = l.slice(0, l.indexOf('['));
    (byArray.get(name) ?? byArray.set(name, []).get(name)!).push(l);
  }
  for (const [name, locs] of byArray) locs.forEach((l, k) => {
    const v = arrays[name]?.[k];
    out.set(l, v === null || v === undefined ? '⊥' : String(v));
  });
  return out;
}

/** A value as the explorer's final memories print it (String(v); ⊥ for null). */
function explorerText(v: Value | undefined): string {
  return v === undefined ? '⊥' : String(v);
}

export const thm437Explore = defineProperty({
  id: 'thm-4.3.7-explore',
  name: 'Thm 4.3.7 (determinism, exhaustive exploration)',
  statement: 'if E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ then exploring every interleaving of ⟨c[E] | μ⟩ (with partial-order reduction) finds exactly one final memory, μ ▷ δμ, and no stuck state',
  ciRuns: 1000,
  arb: () => memCaseArb(),
  check: (c, stats) => {
    const d = derivable(c, stats);
    if (!d) return;
    const sc = smallCase(d.k, c.pools, false);
    const ex = explore(sc.prog, sc.space, sc.init, sc.globals, { maxStates: 4000, stopAtNondeterminism: true });
    if (ex.outcome === 'limit') return void stats.note('limit');
    if (ex.outcome === 'nondeterministic') falsified(`two schedules reach different memories:\n${ex.witnesses.map((w) => `${JSON.stringify(w.arrays)} via ${w.schedule.map((s) => s.text).join(' | ')}`).join('\n')}`);
    if (ex.outcome === 'stuck') falsified(`a schedule gets stuck: ${ex.stuck?.blocked.map((b) => b.message).join('; ')} after ${ex.stuck?.schedule.map((s) => s.text).join(' | ')}`);
    const want = update(d.r.initial, d.r.dmu);
    const got = witnessMem(ex.witnesses[0]!.arrays, want);
    for (const [l, v] of want) if (got.get(l) !== explorerText(v)) falsified(`the only final memory differs from μ ▷ δμ at ${l}: ${got.get(l)} vs ${explorerText(v)}`);
    stats.note('explored');
    stats.note('states', ex.states);
  },
});

export const lemma438 = defineProperty({
  id: 'lemma-4.3.8',
  name: 'Lemma 4.3.8 and Cor. 4.3.9 (preservation)',
  statement: "if E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ and ⟨c[E] | μ⟩ ⇝ ⟨c' | μ'⟩ (every enabled step along a random path) then ∅; μ' ⊢ c' ⇓ ⟨δμ'; ρ'⟩ with δμ' ⊆ δμ, ρ' ⊆ ρ and μ' ▷ δμ' = μ ▷ δμ — one step (Lemma 4.3.8) and from the start (Cor. 4.3.9)",
  ciRuns: 1000,
  arb: () => fc.tuple(memCaseArb(), fc.integer()),
  check: ([c, seed], stats) => {
    const d = derivable(c, stats);
    if (!d) return;
    const sc = smallCase(d.k, c.pools, false);
    const machine = new SmallStep(sc.prog, sc.space);
    const goal = update(d.r.initial, d.r.dmu);
    const ref = (s: SmallState): RefOut => {
      const r = termBigStep(sc.prog, s.term, s.store, sc.globals);
      if (!r.ok) falsified(`a reachable term has no big-step derivation (${r.reason})`);
      return r.out;
    };
    // The start: the reference big-step agrees with the production one (Cor. 4.3.9, zero steps).
    let s = sc.init;
    let cur = ref(s);
    const z = preserved(cur, stateMem(s, sc.globals), d.r.dmu, d.r.rho, goal);
    if (z !== null) falsified(`at the start: ${z}`);
    for (const [l, v] of d.r.dmu) if (text(cur.dmu.get(l)) !== text(v)) falsified(`the reference big-step gives δμ(${l}) = ${text(cur.dmu.get(l))}, the production big-step ${text(v)}`);
    if (cur.dmu.size !== d.r.dmu.size || cur.rho.size !== d.r.rho.size) falsified(`the reference big-step gives another ⟨δμ; ρ⟩ (${cur.dmu.size} writes, ${cur.rho.size} reads vs ${d.r.dmu.size}, ${d.r.rho.size})`);
    const rand = prng(seed);
    let steps = 0;
    while (s.term.k !== 'skip' && steps < 400) {
      const { steps: next, blocked } = machine.steps(s);
      if (blocked.length > 0) falsified(`a redex is stuck: ${blocked[0]!.error.message}`);
      if (next.length === 0) falsified('no step from a term that is not skip');
      const mu = stateMem(s, sc.globals);
      let chosen: SmallState | null = null;
      let chosenRef: RefOut | null = null;
      const pick = Math.floor(rand() * next.length);
      next.forEach((st, i) => {
        const r = ref(st.next);
        const m2 = stateMem(st.next, sc.globals);
        const one = preserved(r, m2, cur.dmu, cur.rho, overlay(mu, cur.dmu));
        if (one !== null) falsified(`Lemma 4.3.8 after ${st.rules.join(' ▸ ')}: ${one}`);
        const many = preserved(r, m2, d.r.dmu, d.r.rho, goal);
        if (many !== null) falsified(`Cor. 4.3.9 after ${steps + 1} steps: ${many}`);
        if (i === pick) {
          chosen = st.next;
          chosenRef = r;
        }
      });
      s = chosen!;
      cur = chosenRef!;
      steps++;
      stats.note('steps checked', next.length);
    }
    stats.note('paths');
  },
});

export const cor4310 = defineProperty({
  id: 'cor-4.3.10',
  name: 'Cor. 4.3.10 (confluence)',
  statement: 'if E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ and ⟨c[E] | μ⟩ reduces to ⟨c1 | μ1⟩ and to ⟨c2 | μ2⟩ (random schedules, random lengths) then both reduce to ⟨skip | μ ▷ δμ⟩',
  ciRuns: 1000,
  arb: () => fc.tuple(memCaseArb(), fc.integer(), fc.integer()),
  check: ([c, seed1, seed2], stats) => {
    const d = derivable(c, stats);
    if (!d) return;
    const goal = update(d.r.initial, d.r.dmu);
    for (const seed of [seed1, seed2]) {
      const sc = smallCase(d.k, c.pools, false);
      const machine = new SmallStep(sc.prog, sc.space);
      const rand = prng(seed);
      let s = sc.init;
      const len = Math.floor(rand() * 60);
      for (let i = 0; i < len && s.term.k !== 'skip'; i++) {
        const { steps } = machine.steps(s);
        if (steps.length === 0) falsified(`a prefix of schedule ${seed} is stuck after ${i} steps`);
        s = steps[Math.floor(rand() * steps.length)]!.next;
      }
      const run = runSmallStep(sc.prog, sc.space, s, { scheduler: 'leftmost', maxSteps: SMALL_STEPS });
      if (run.outcome === 'limit') return void stats.note('limit');
      if (run.outcome === 'stuck') falsified(`after a prefix of schedule ${seed}, the left-first schedule is stuck: ${run.blocked.map((b) => b.message).join('; ')}`);
      const diff = memDiff(goal, stateMem(run.state, sc.globals), ['μ ▷ δμ', `after prefix ${seed}`]);
      if (diff !== null) falsified(`the two reductions do not meet: ${diff}`);
    }
    stats.note('pairs joined');
  },
});

export const CHAPTER4: readonly NamedProperty[] = [lemma424, thm433, thm437Random, thm437Explore, lemma438, cor4310];
