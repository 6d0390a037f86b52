// Every constructive operation on sets, relations and heaps against brute force: random pieces
// (guards with floor/mod/min/max over tuple variables boxed to [−3, 3] and a parameter N taking
// negative values too, empty sets included) are evaluated directly; the operation's symbolic
// result is evaluated by enumeration on a slightly larger box, and the two must agree.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  B, type RawRelPiece, type RawSpace, type REnv, arbFormula, arbRelPieces, arbSetPieces,
  boxTuples, evalRawF, rawRel, rawRelPiece, rawSet, sorted, symRel, symSet, text, toFormula,
} from './presburger-arb.ts';
import {
  apply, bind, complementSet, constant, curry, decomposeSet, domain, evalFormula, evalRel, evalSet,
  fst, heapClauses, heapOf, intersectDomain, intersectRange, intersectRel, intersectSet, inverse,
  iteratedUnionRel, iteratedUnionSet, iteratedUpdate, lambda, lexmax, lexmaxSet, lexmin, lexminSet,
  nonEmptyCondition, range, restrictRel, restrictSet, singleValuedRestriction, snd, substitute,
  subtractDomain, subtractRel, subtractSet, subtractUnitSet, uncurry, unionRel, unionSet, unwrap,
  update, updateSet, add, variable, wrap, evalTerm, printRel, printSet, scale, mod, parseSet,
  lexOptimum, parseFormula,
} from '../core/presburger/index.ts';
import type { PRel, PSet } from '../core/presburger/index.ts';
import { cases } from './tier.ts';

const RUNS = cases(100, 300);
const NS = [-1n, 0n, 2n];
const ENVS: REnv[] = NS.map((n) => new Map([['N', n]]));
// Quantified variables left in results are tuple variables (boxed to ±B) or loop variables in
// [−1, N] ⊆ [−1, 2]: a window of ±(B + 1) makes their enumeration exact.
const OPTS = { box: [-B - 1n, B + 1n] as const, quantRange: [-B - 1n, B + 1n] as const };
// Relations are enumerated on the generators' box itself (a cube of 3 coordinates is costly).
const ROPTS = { ...OPTS, box: [-B, B] as const };

const SET_SPACES: RawSpace[] = [{ name: 'a', arity: 1 }, { name: 'b', arity: 1 }, { name: 'a', arity: 2 }];
const DOMS: RawSpace[] = [{ name: 'a', arity: 1 }, { name: 'b', arity: 1 }, { name: 'a', arity: 2 }];
const RANS: RawSpace[] = [{ name: 'A', arity: 1 }, { name: 'B', arity: 1 }];

const sets = (params = ['N']) => arbSetPieces(SET_SPACES, params);
const rels = (params = ['N'], doms = DOMS, rans = RANS) => arbRelPieces(doms, rans, params);

function setEq(s: PSet, want: Iterable<string>, env: REnv, opts = OPTS): void {
  const got = evalSet(s, env, opts);
  if (JSON.stringify(got) !== JSON.stringify(sorted(want))) {
    throw new Error(`N=${env.get('N')}: got ${JSON.stringify(got)} want ${JSON.stringify(sorted(want))}\n${printSet(s)}`);
  }
}

function relEq(r: PRel, want: Iterable<string>, env: REnv, opts = ROPTS): void {
  const got = evalRel(r, env, opts);
  if (JSON.stringify(got) !== JSON.stringify(sorted(want))) {
    throw new Error(`N=${env.get('N')}: got ${JSON.stringify(got)} want ${JSON.stringify(sorted(want))}\n${printRel(r)}`);
  }
}

const inter = (a: Set<string>, b: Set<string>) => new Set([...a].filter((x) => b.has(x)));
const minus = (a: Set<string>, b: Set<string>) => new Set([...a].filter((x) => !b.has(x)));
const split = (pr: string): [string, string] => { const k = pr.indexOf('->'); return [pr.slice(0, k), pr.slice(k + 2)]; };
const doms = (r: Set<string>) => new Set([...r].map((x) => split(x)[0]));
const rans = (r: Set<string>) => new Set([...r].map((x) => split(x)[1]));

/** Name and integer vector of a tuple text `a[1,-2]`. */
function parseTuple(t: string): { name: string; vals: bigint[] } {
  const k = t.indexOf('[');
  const inner = t.slice(k + 1, -1);
  return { name: t.slice(0, k), vals: inner === '' ? [] : inner.split(',').map((x) => BigInt(x)) };
}

function lexCmp(a: readonly bigint[], b: readonly bigint[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

/** Brute-force lexmax/lexmin of a relation given as pair texts: per domain point and range space. */
function lexOpt(r: Set<string>, max: boolean): Set<string> {
  const best = new Map<string, { text: string; vals: bigint[] }>();
  for (const pr of r) {
    const [d, rr] = split(pr);
    const t = parseTuple(rr);
    const k = `${d}|${t.name}/${t.vals.length}`;
    const b = best.get(k);
    if (!b || (max ? lexCmp(t.vals, b.vals) > 0 : lexCmp(t.vals, b.vals) < 0)) best.set(k, { text: pr, vals: t.vals });
  }
  return new Set([...best.values()].map((b) => b.text));
}

function heapUpdate(h1: Set<string>, h2: Set<string>): Set<string> {
  const d2 = doms(h2);
  return new Set([...h2, ...[...h1].filter((x) => !d2.has(split(x)[0]))]);
}

describe('set operations', () => {
  it('union, intersection, difference', () => {
    fc.assert(fc.property(sets(), sets(), (a, b) => {
      const sa = symSet(a), sb = symSet(b);
      const u = unionSet(sa, sb), i = intersectSet(sa, sb), d = subtractSet(sa, sb);
      for (const env of ENVS) {
        const ra = rawSet(a, env), rb = rawSet(b, env);
        setEq(u, new Set([...ra, ...rb]), env);
        setEq(i, inter(ra, rb), env);
        setEq(d, minus(ra, rb), env);
      }
    }), { numRuns: RUNS });
  });

  it('restriction by a unit set, non-emptiness condition, set update ▷', () => {
    fc.assert(fc.property(sets(), sets(), arbFormula(['N'], 1, false), (a, b, phiRaw) => {
      const sa = symSet(a), sb = symSet(b), phi = toFormula(phiRaw);
      const r = restrictSet(sa, phi), s = subtractUnitSet(sa, phi), c = nonEmptyCondition(sa), up = updateSet(sa, sb);
      for (const env of ENVS) {
        const ra = rawSet(a, env), rb = rawSet(b, env), p = evalRawF(phiRaw, env);
        setEq(r, p ? ra : [], env);
        setEq(s, p ? [] : ra, env);
        expect(evalFormula(c, env, OPTS)).toBe(ra.size > 0);
        setEq(up, rb.size > 0 ? rb : ra, env);
      }
    }), { numRuns: RUNS });
  });

  it('space decomposition and complement', () => {
    const homog = arbSetPieces([{ name: 'a', arity: 1 }], ['N']);
    fc.assert(fc.property(sets(), homog, (a, h) => {
      const dec = decomposeSet(symSet(a));
      expect(new Set(dec.pieces.map((p) => `${p.tuple.name}/${p.tuple.kind === 'flat' ? p.tuple.vars.length : 2}`)).size).toBe(dec.pieces.length);
      const comp = complementSet(symSet(h), { kind: 'flat', name: 'a', arity: 1 });
      const box = { ...OPTS, box: [-B, B] as const };
      for (const env of ENVS) {
        setEq(dec, rawSet(a, env), env);
        setEq(comp, minus(new Set(boxTuples(1).map((t) => text('a', t))), rawSet(h, env)), env, box);
      }
    }), { numRuns: RUNS });
  });

  it('iterated union ⋃_{0≤x<N+1}', () => {
    fc.assert(fc.property(sets(['N', 'x']), (a) => {
      const u = iteratedUnionSet(symSet(a), 'x', constant(0), add(variable('N'), constant(1)));
      for (const env of ENVS) {
        const want = new Set<string>();
        for (let i = 0n; i <= env.get('N')!; i++) for (const t of rawSet(a, new Map(env).set('x', i))) want.add(t);
        setEq(u, want, env);
      }
    }), { numRuns: RUNS });
  });

  it('lexmax and lexmin of sets (per space)', () => {
    fc.assert(fc.property(sets(), (a) => {
      const sa = symSet(a);
      const mx = lexmaxSet(sa), mn = lexminSet(sa);
      for (const env of ENVS) {
        const asRel = new Set([...rawSet(a, env)].map((t) => `[]->${t}`));
        setEq(mx, [...lexOpt(asRel, true)].map((x) => split(x)[1]), env);
        setEq(mn, [...lexOpt(asRel, false)].map((x) => split(x)[1]), env);
      }
    }), { numRuns: RUNS });
  });

  it('lexmax and lexmin of a set whose 20 DNF disjuncts share one maximum (it once ran out of memory)', () => {
    // fast-check seed 1, case 152 of the property above: every disjunct gave a candidate, and
    // merging 20 candidates two by two doubled the pieces at each step, until the worker died.
    const s = parseSet('[N] -> { a[u0, u1] : -N - 1 <= u1 <= -N and u0 = 3N + 3u1 + 2 and (N + max(N, 3N + 3u1 + 2) < 2u1 or 2u1 < N + max(N, 3N + 3u1 + 2)) and (N - u1) mod 3 = 2 and u1 <= 3 and 6u1 <= N + 1 and u1 >= -3 }');
    const mx = lexmaxSet(s), mn = lexminSet(s);
    for (const env of [...ENVS, new Map([['N', 1n]]), new Map([['N', -2n]])]) {
      const all = new Set(evalSet(s, env, OPTS).map((t) => `[]->${t}`));
      setEq(mx, [...lexOpt(all, true)].map((x) => split(x)[1]), env);
      setEq(mn, [...lexOpt(all, false)].map((x) => split(x)[1]), env);
    }
  });
});

describe('relation operations', () => {
  it('union, intersection, difference', () => {
    fc.assert(fc.property(rels(), rels(), (a, b) => {
      const ra = symRel(a), rb = symRel(b);
      const u = unionRel(ra, rb), i = intersectRel(ra, rb), d = subtractRel(ra, rb), rr = restrictRel(ra, toFormula({ k: 'cmp', op: '>', x: { k: 'var', n: 'N' }, y: { k: 'c', v: 0n } }));
      for (const env of ENVS) {
        const xa = rawRel(a, env), xb = rawRel(b, env);
        relEq(u, new Set([...xa, ...xb]), env);
        relEq(i, inter(xa, xb), env);
        relEq(d, minus(xa, xb), env);
        relEq(rr, env.get('N')! > 0n ? xa : [], env);
      }
    }), { numRuns: RUNS });
  });

  it('domain, range, inverse, restriction of domain and range, application', () => {
    fc.assert(fc.property(rels(), sets(), (a, s) => {
      const ra = symRel(a), ss = symSet(s);
      const sr = symSet(s.map((p) => ({ ...p, space: { ...p.space, name: p.space.name.toUpperCase() } })));
      const dm = domain(ra), rg = range(ra), inv = inverse(ra), id = intersectDomain(ra, ss), sd = subtractDomain(ra, ss), ir = intersectRange(ra, sr), ap = apply(ra, ss);
      for (const env of ENVS) {
        const xa = rawRel(a, env), xs = rawSet(s, env);
        const xsr = new Set([...xs].map((t) => t[0]!.toUpperCase() + t.slice(1)));
        setEq(dm, doms(xa), env);
        setEq(rg, rans(xa), env);
        relEq(inv, [...xa].map((x) => { const [d, r] = split(x); return `${r}->${d}`; }), env);
        relEq(id, [...xa].filter((x) => xs.has(split(x)[0])), env);
        relEq(sd, [...xa].filter((x) => !xs.has(split(x)[0])), env);
        relEq(ir, [...xa].filter((x) => xsr.has(split(x)[1])), env);
        setEq(ap, new Set([...xa].filter((x) => xs.has(split(x)[0])).map((x) => split(x)[1])), env);
      }
    }), { numRuns: RUNS });
  });

  it('wrap/unwrap, fst/snd, curry/uncurry', () => {
    const small = arbRelPieces([{ name: 'a', arity: 1 }, { name: 'b', arity: 1 }], RANS, ['N'], 2);
    fc.assert(fc.property(small, (a) => {
      const ra = symRel(a);
      const w = wrap(ra);
      const uw = unwrap(w);
      const f = fst(w), s = snd(w);
      // Binding N in the wrapped relation gives { [d -> r] -> [n] }; curry: { d -> [r -> [n]] }.
      const cur = curry(bind(w, ['N']));
      const back = uncurry(cur);
      const box = { ...OPTS, box: [-B, B] as const };
      const bound: string[] = [];
      const curried: string[] = [];
      for (let n = -B; n <= B; n++) {
        for (const x of rawRel(a, new Map([['N', n]]))) {
          const [d, r] = split(x);
          bound.push(`[${x}]->[${n}]`);
          curried.push(`${d}->[${r}->[${n}]]`);
        }
      }
      for (const env of ENVS) {
        const xa = rawRel(a, env);
        setEq(w, [...xa].map((x) => `[${x}]`), env);
        relEq(uw, xa, env);
        setEq(f, doms(xa), env);
        setEq(s, rans(xa), env);
        relEq(back, bound, env, box);
        relEq(cur, curried, env, box);
      }
    }), { numRuns: RUNS });
  });

  it('bind and λ: parameters become tuple variables', () => {
    fc.assert(fc.property(sets(['N', 'x']), (a) => {
      const sa = symSet(a);
      const bd = bind(sa, ['x'], [{ lo: constant(0), hi: add(variable('N'), constant(1)) }]);
      const lm = lambda(restrictSet(sa, toFormula({ k: 'and', a: { k: 'cmp', op: '>=', x: { k: 'var', n: 'x' }, y: { k: 'c', v: 0n } }, b: { k: 'cmp', op: '<=', x: { k: 'var', n: 'x' }, y: { k: 'var', n: 'N' } } })), ['x']);
      for (const env of ENVS) {
        const want: string[] = [];
        for (let i = 0n; i <= env.get('N')!; i++) for (const t of rawSet(a, new Map(env).set('x', i))) want.push(`${t}->[${i}]`);
        relEq(bd, want, env);
        relEq(lm, want.map((x) => { const [d, r] = split(x); return `${r}->${d}`; }), env);
      }
    }), { numRuns: RUNS });
  });

  it('iterated union of relations', () => {
    fc.assert(fc.property(rels(['N', 'x']), (a) => {
      const u = iteratedUnionRel(symRel(a), 'x', constant(-1), variable('N'));
      for (const env of ENVS) {
        const want = new Set<string>();
        for (let i = -1n; i < env.get('N')!; i++) for (const t of rawRel(a, new Map(env).set('x', i))) want.add(t);
        relEq(u, want, env);
      }
    }), { numRuns: RUNS });
  });

  it('lexmax and lexmin of relations', () => {
    const two = arbRelPieces(DOMS, [...RANS, { name: 'C', arity: 2 }], ['N']);
    fc.assert(fc.property(two, (a) => {
      const ra = symRel(a);
      const mx = lexmax(ra), mn = lexmin(ra);
      for (const env of ENVS) {
        const xa = rawRel(a, env);
        relEq(mx, lexOpt(xa, true), env);
        relEq(mn, lexOpt(xa, false), env);
      }
    }), { numRuns: RUNS });
  });
});

describe('heap operations (thesis §5.2)', () => {
  it('update ▷ and v(·)', () => {
    fc.assert(fc.property(rels(), rels(), (a, b) => {
      const ha = symRel(a), hb = symRel(b);
      const up = update(ha, hb);
      const v = singleValuedRestriction(ha);
      for (const env of ENVS) {
        relEq(up, heapUpdate(rawRel(a, env), rawRel(b, env)), env);
        // v: pieces in order, each minus the domains of the earlier ones.
        const want = new Set<string>();
        const seen = new Set<string>();
        const pieces = a.map((p: RawRelPiece) => rawRelPiece(p, env));
        for (const piece of pieces) {
          for (const x of piece) if (!seen.has(split(x)[0])) want.add(x);
          for (const x of piece) seen.add(split(x)[0]);
        }
        relEq(v, want, env);
      }
    }), { numRuns: RUNS });
  });

  it('substitution R1[x := R2] (Def. 5.2.3), by a relation and by terms', () => {
    const r2s = arbRelPieces(DOMS, [{ name: '', arity: 1 }], ['N'], 2);
    fc.assert(fc.property(rels(['N', 'x']), r2s, (a, l) => {
      const r1 = symRel(a), r2 = symRel(l);
      const sub = substitute(r1, ['x'], r2);
      const byTerm = substitute(r1, ['x'], [add(variable('N'), constant(-1))]);
      for (const env of ENVS) {
        const want = new Set<string>();
        const at = new Map<bigint, Set<string>>();
        for (const pr of rawRel(l, env)) {
          const [d, k] = split(pr);
          const kv = parseTuple(k).vals[0]!;
          if (!at.has(kv)) at.set(kv, rawRel(a, new Map(env).set('x', kv)));
          for (const x of at.get(kv)!) if (split(x)[0] === d) want.add(x);
        }
        relEq(sub, want, env);
        relEq(byTerm, rawRel(a, new Map(env).set('x', env.get('N')! - 1n)), env);
      }
    }), { numRuns: RUNS });
  });

  it('iterated update ▶_{0≤x<N+1} (Def. 5.2.4) is the last write per location', () => {
    fc.assert(fc.property(rels(['N', 'x']), (a) => {
      const h = symRel(a);
      const it1 = iteratedUpdate(h, 'x', add(variable('N'), constant(1)));
      for (const env of ENVS) {
        let acc = new Set<string>();
        for (let i = 0n; i <= env.get('N')!; i++) acc = heapUpdate(acc, rawRel(a, new Map(env).set('x', i)));
        relEq(it1, acc, env);
      }
    }), { numRuns: RUNS });
  });

  it('heap clauses: heapOf and heapClauses agree with the locations and values', () => {
    const coefs = fc.record({ a: fc.bigInt(-2n, 2n), c: fc.bigInt(-3n, 3n), m: fc.constantFrom(2n, 3n, 4n), useMod: fc.boolean() });
    fc.assert(fc.property(coefs, coefs, (p, q) => {
      // c[(p.a·x + p.c) (mod p.m)] → E(□)[q.a·x + q.c + N] : x < 3, with x and N parameters.
      const x = variable('x');
      const lin = (r: typeof p) => add(scale(x, r.a), constant(r.c));
      const index = p.useMod ? mod(lin(p), p.m) : lin(p);
      const value = add(q.useMod ? mod(lin(q), q.m) : lin(q), variable('N'));
      const h = heapOf([{ array: 'c', index: [index], ctx: 'E(□)', args: [value], guard: toFormula({ k: 'cmp', op: '<', x: { k: 'var', n: 'x' }, y: { k: 'c', v: 3n } }) }]);
      const clauses = heapClauses(h);
      expect(clauses.length).toBe(1);
      const cl = clauses[0]!;
      expect([cl.array, cl.ctx]).toEqual(['c', 'E(□)']);
      for (const n of NS) {
        for (let xv = -3n; xv <= 3n; xv++) {
          const env = new Map([['N', n], ['x', xv]]);
          const iv = evalTerm(index, env);
          const vv = evalTerm(value, env);
          expect(evalRel(h, env, { box: [-12n, 12n] })).toEqual(xv < 3n ? [`c[${iv}]->E(□)[${vv}]`] : []);
          // Where the clause gives terms, they compute the location and the value.
          const withIdx = new Map([...env, [cl.indexVars[0]!, iv]]);
          if (xv < 3n && cl.index[0]) expect(evalTerm(cl.index[0], withIdx)).toBe(iv);
          if (xv < 3n && cl.args[0]) expect(evalTerm(cl.args[0], withIdx)).toBe(vv);
        }
      }
    }), { numRuns: RUNS });
  });
});

describe('lexmax of one variable: conjuncts without it, and equalities of its floor atoms', () => {
  // The shape of a rolling buffer's read (blur): q in a window, q ≡ y + c (mod m), a disjunction
  // mixing q mod m with parameter literals, and conditions on the parameters alone. The optimum
  // comes from the window and the congruence; the rest only says where it exists.
  const pLit = fc.constantFrom('y <= 1', 'z >= -2', 'y + z < 3', 'z mod 3 = 1', 'y > z');
  const qLit = (m: number) => fc.constantFrom(`q mod ${m} < (y + 2) mod ${m}`, `(y + 1) mod ${m} < q mod ${m}`, `q <= z + 3`, `2*q >= y`, `q mod ${m} = (z + 1) mod ${m}`, `(3*q + y) mod ${m} <= 1`, `(2*q + z + 1) mod ${m} > 0`, `(q + y) mod 5 < 3`);
  const shape = fc.integer({ min: 2, max: 4 }).chain((m) => fc.record({
    m: fc.constant(m), c: fc.integer({ min: 0, max: 3 }), w: fc.integer({ min: 1, max: 6 }),
    mixed: fc.array(fc.oneof(pLit, qLit(m)), { minLength: 1, maxLength: 4 }),
    mixed2: fc.array(fc.oneof(pLit, qLit(m)), { minLength: 1, maxLength: 3 }),
    params: fc.array(pLit, { minLength: 1, maxLength: 3 }),
  }));
  it('agrees with enumeration (max and min)', () => {
    fc.assert(fc.property(shape, ({ m, c, w, mixed, mixed2, params }) => {
      const text = `y + z - ${w} <= q < y + z and q mod ${m} = (y + ${c}) mod ${m} and (${mixed.join(' or ')}) and (${mixed2.join(' or ')}) and (${params.join(' or ')})`;
      const phi = parseFormula(text);
      for (const isMax of [true, false]) {
        const pw = lexOptimum(['q'], phi, isMax);
        if (pw === null) continue;
        for (let y = -5n; y <= 5n; y++) for (let z = -5n; z <= 5n; z++) {
          const qs: bigint[] = [];
          for (let q = -16n; q <= 16n; q++) if (evalFormula(phi, new Map([['y', y], ['z', z], ['q', q]]))) qs.push(q);
          const env = new Map([['y', y], ['z', z]]);
          const hit = pw.filter((p) => evalFormula(p.cond, env));
          const want = qs.length === 0 ? null : qs.reduce((a, b) => ((isMax ? b > a : b < a) ? b : a));
          expect(hit.length, `${text} at y=${y} z=${z}`).toBe(want === null ? 0 : 1);
          if (want !== null) expect(evalTerm(hit[0]!.values[0]!, env), `${text} at y=${y} z=${z}`).toBe(want);
        }
      }
    }), { numRuns: cases(50, 150) });
  });
});
