// Random well-typed SCHED programs *with memories* for the chapter-4 properties: a fixed header of
// global arrays, a random body, parameter values and initial contents (some cells ⊥).
//
// The body mixes what the metatheory is about: nested `for`/`par`, `allocate` inside and outside
// `par` (sizes may depend on loop variables), `if`, `let`, affine indices with `/`, `%`, `min`,
// `max`, `select` and `let`, reads and writes in and out of bounds, reads of ⊥, and races — benign
// (every iteration writes the same value), non-benign, and read-write. Indices range over small
// arrays, so collisions (races) are frequent.
//
// Everything is built from fast-check combinators over source text, so shrinking removes commands,
// unwraps loops and simplifies expressions, and a counterexample prints as a small program.
// Binders are named after their depth (loop `i2`, let `u2`, local array `t2`), so no name shadows
// another and every generated program type-checks (test/props-gen.test.ts checks it).

import fc from 'fast-check';

/** The global arrays of every generated program (name, element type, dimensions as text). */
export const GLOBALS: readonly { readonly name: string; readonly elem: 'i32' | 'f32'; readonly dims: readonly string[] }[] = [
  { name: 'x', elem: 'i32', dims: ['4'] },
  { name: 'y', elem: 'i32', dims: ['N + 3'] },
  { name: 'w', elem: 'i32', dims: ['3', 'M + 3'] },
  { name: 's', elem: 'i32', dims: [] },
  { name: 'f', elem: 'f32', dims: ['4'] },
];

export const PARAMS = ['N', 'M'] as const;
/** Cells per global array in a memory pool (≥ the largest size the parameters allow). */
export const POOL = 18;

/** One test case: a program, its parameters and its initial memory. */
export interface MemCase {
  readonly body: string;
  readonly params: Readonly<Record<string, number>>;
  /** Initial contents of each global array, row-major, ⊥ as null (the first `size` cells). */
  readonly pools: Readonly<Record<string, readonly (number | null)[]>>;
  readonly src: string;
}

export const HEADER = `spec s {
  param N, M;
  assume N >= 0 && M >= 0;
}
impl p of s {
${GLOBALS.map((g) => `  array ${g.name}: ${g.elem}[${g.dims.join(', ')}];`).join('\n')}
`;

export function programText(body: string): string {
  return `${HEADER}  ${body.split('\n').join('\n  ')}\n}\n`;
}

// ---------------------------------------------------------------------------------------------
// Expressions

interface Ctx {
  /** Index variables in scope (parameters, loop and let variables). */
  readonly vars: readonly string[];
  /** Loop and let variables only (the ones that vary). */
  readonly inner: readonly string[];
  /** Local arrays in scope (1-d, i32) with their size expression. */
  readonly locals: readonly { readonly name: string }[];
  readonly depth: number;
}

const ROOT: Ctx = { vars: [...PARAMS], inner: [], locals: [], depth: 0 };

function someVar(ctx: Ctx): fc.Arbitrary<string> {
  // Mostly the loop and let variables (innermost first: shrinking goes toward it), so that
  // iterations touch different cells, collide now and then, and indices vary.
  if (ctx.inner.length === 0) return fc.constantFrom(...PARAMS);
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...[...ctx.inner].reverse()) }, { weight: 1, arbitrary: fc.constantFrom(...PARAMS) });
}

const small = fc.integer({ min: 0, max: 3 }).map(String);

/** An affine index: mostly in bounds of the small arrays, sometimes outside (−1, 4, …). */
export function indexArb(ctx: Ctx): fc.Arbitrary<string> {
  const v = someVar(ctx);
  // Weighted toward in-bounds forms; `c * v`, `N - v`, `v + 2` and friends leave the arrays now
  // and then (out-of-bounds accesses have no semantics).
  const w = (weight: number, arbitrary: fc.Arbitrary<string>): { weight: number; arbitrary: fc.Arbitrary<string> } => ({ weight, arbitrary });
  const forms = [
    w(4, v),
    w(3, small),
    w(3, fc.tuple(v, fc.integer({ min: -1, max: 2 })).map(([x, c]) => (c === 0 ? x : c > 0 ? `${x} + ${c}` : `${x} - ${-c}`))),
    w(1, fc.tuple(fc.integer({ min: 2, max: 3 }), v).map(([c, x]) => `${c} * ${x}`)),
    w(1, fc.tuple(v, fc.integer({ min: 2, max: 3 })).map(([x, c]) => `${x} / ${c}`)),
    w(2, fc.tuple(v, fc.integer({ min: 2, max: 3 })).map(([x, c]) => `${x} % ${c}`)),
    w(1, fc.tuple(v, v, fc.integer({ min: 2, max: 4 })).map(([x, y, c]) => `(${x} + ${y}) % ${c}`)),
    w(1, fc.tuple(v, small).map(([x, c]) => `min(${x}, ${c})`)),
    w(1, fc.tuple(v, small).map(([x, c]) => `max(${x} - ${c}, 0)`)),
    w(1, v.map((x) => `N - ${x}`)),
    w(1, fc.tuple(v, small, small).map(([x, c, d]) => `select(${x} < ${c}, ${x}, ${d})`)),
    w(1, fc.tuple(v, small).map(([x, c]) => `let e${ctx.depth} = ${x} + ${c} in e${ctx.depth} / 2`)),
  ];
  return fc.oneof({ withCrossShrink: true }, ...forms);
}

/** An index of an array access: half of the time reduced modulo 3 (in bounds everywhere). */
function accessArb(ctx: Ctx): fc.Arbitrary<string> {
  const i = indexArb(ctx);
  return fc.oneof({ withCrossShrink: true }, i, i.map((e) => (/^[0-2]$/.test(e) ? e : `(${e}) % 3`)));
}

/** An affine condition. */
export function condArb(ctx: Ctx): fc.Arbitrary<string> {
  const v = someVar(ctx);
  const atom = fc.oneof(
    fc.tuple(v, fc.constantFrom('<', '==', '>=', '!=', '<='), small).map(([x, op, c]) => `${x} ${op} ${c}`),
    v.map((x) => `${x} % 2 == 0`),
    fc.tuple(v, v).map(([x, y]) => `${x} < ${y}`),
    fc.constantFrom('true', 'false'),
  );
  return fc.oneof(
    { withCrossShrink: true },
    { weight: 4, arbitrary: atom },
    { weight: 1, arbitrary: atom.map((a) => `!(${a})`) },
    { weight: 1, arbitrary: fc.tuple(atom, atom, fc.constantFrom('&&', '||')).map(([a, b, op]) => `${a} ${op} ${b}`) },
  );
}

/** A read of an i32 array in scope (global or local). */
function i32ReadArb(ctx: Ctx): fc.Arbitrary<string> {
  const i = accessArb(ctx);
  const reads: fc.Arbitrary<string>[] = [
    i.map((a) => `x[${a}]`),
    i.map((a) => `y[${a}]`),
    fc.tuple(i, i).map(([a, b]) => `w[${a}, ${b}]`),
    fc.constant('s[]'),
  ];
  for (const t of ctx.locals) reads.push(i.map((a) => `${t.name}[${a}]`));
  return fc.oneof(...reads);
}

/** A value expression of type i32 (depth-bounded). */
export function i32Arb(ctx: Ctx, d = 2): fc.Arbitrary<string> {
  const leaf = fc.oneof(
    { withCrossShrink: true },
    { weight: 3, arbitrary: fc.integer({ min: -2, max: 5 }).map(String) },
    { weight: 4, arbitrary: i32ReadArb(ctx) },
    { weight: 1, arbitrary: someVar(ctx).map((v) => `i32(${v})`) },
    { weight: 1, arbitrary: accessArb(ctx).map((a) => `i32(f[${a}])`) },
  );
  if (d <= 0) return leaf;
  const sub = i32Arb(ctx, d - 1);
  return fc.oneof(
    { withCrossShrink: true },
    { weight: 5, arbitrary: leaf },
    { weight: 2, arbitrary: fc.tuple(sub, sub, fc.constantFrom('+', '-', '*')).map(([a, b, op]) => `(${a} ${op} ${b})`) },
    { weight: 1, arbitrary: fc.tuple(sub, sub, fc.constantFrom('/', '%')).map(([a, b, op]) => `(${a} ${op} ${b})`) },
    // select is eager: a ⊥ or out-of-bounds read in the branch not taken makes it ⊥.
    { weight: 2, arbitrary: fc.tuple(condArb(ctx), sub, sub).map(([c, a, b]) => `select(${c}, ${a}, ${b})`) },
    { weight: 1, arbitrary: fc.tuple(i32ReadArb(ctx), sub, sub).map(([r, a, b]) => `select(${r} < 2, ${a}, ${b})`) },
    { weight: 1, arbitrary: fc.tuple(sub, sub, fc.constantFrom('min', 'max')).map(([a, b, fn]) => `${fn}(${a}, ${b})`) },
  );
}

/** A value expression of type f32. */
export function f32Arb(ctx: Ctx, d = 1): fc.Arbitrary<string> {
  const leaf = fc.oneof(
    { withCrossShrink: true },
    fc.constantFrom('0.5', '-1.5', '2.0', '0.0', '0.1'),
    accessArb(ctx).map((a) => `f[${a}]`),
    someVar(ctx).map((v) => `f32(${v})`),
    i32ReadArb(ctx).map((r) => `f32(${r})`),
  );
  if (d <= 0) return leaf;
  const sub = f32Arb(ctx, d - 1);
  return fc.oneof(
    { withCrossShrink: true },
    { weight: 3, arbitrary: leaf },
    { weight: 2, arbitrary: fc.tuple(sub, sub, fc.constantFrom('+', '*', '-', '/')).map(([a, b, op]) => `(${a} ${op} ${b})`) },
    { weight: 1, arbitrary: fc.tuple(condArb(ctx), sub, sub).map(([c, a, b]) => `select(${c}, ${a}, ${b})`) },
    { weight: 1, arbitrary: sub.map((a) => `sqrt(${a})`) },
  );
}

// ---------------------------------------------------------------------------------------------
// Commands

function assignArb(ctx: Ctx): fc.Arbitrary<string> {
  const i = accessArb(ctx);
  const rhs = i32Arb(ctx);
  const targets: fc.Arbitrary<string>[] = [
    fc.tuple(i, rhs).map(([a, e]) => `x[${a}] := ${e}`),
    fc.tuple(i, rhs).map(([a, e]) => `y[${a}] := ${e}`),
    fc.tuple(i, i, rhs).map(([a, b, e]) => `w[${a}, ${b}] := ${e}`),
    rhs.map((e) => `s[] := ${e}`),
    fc.tuple(i, f32Arb(ctx)).map(([a, e]) => `f[${a}] := ${e}`),
    // Benign races: every iteration writes a value that does not depend on it.
    fc.tuple(i, fc.integer({ min: 0, max: 3 })).map(([a, c]) => `x[${a}] := ${c}`),
    // Accumulations (chapter 7), unannotated: `a[ι] op= e` runs as `a[ι] := a[ι] op e`.
    fc.tuple(i, rhs).map(([a, e]) => `x[${a}] += ${e}`),
    rhs.map((e) => `s[] max= ${e}`),
  ];
  for (const t of ctx.locals) targets.push(fc.tuple(i, rhs).map(([a, e]) => `${t.name}[${a}] := ${e}`));
  return fc.oneof({ withCrossShrink: true }, ...targets);
}

function boundArb(ctx: Ctx): fc.Arbitrary<string> {
  // Mostly 2 or 3 iterations; empty and negative ranges now and then.
  const forms: { weight: number; arbitrary: fc.Arbitrary<string> }[] = [
    { weight: 5, arbitrary: fc.constantFrom('2', '3') },
    { weight: 2, arbitrary: fc.constantFrom('N', 'M', 'N + 1') },
    { weight: 1, arbitrary: fc.constantFrom('1', '0', '-1', '2 - N') },
  ];
  if (ctx.inner.length > 0) forms.push({ weight: 1, arbitrary: someVar(ctx).map((v) => `${v} + 1`) });
  return fc.oneof({ withCrossShrink: true }, ...forms);
}

export interface BodyOptions {
  /** Maximum nesting of compound commands (default 3). */
  readonly depth?: number;
}

/** A command in context `ctx` with at most `depth` more levels of nesting. */
export function cmdArb(ctx: Ctx, depth: number): fc.Arbitrary<string> {
  const assign = assignArb(ctx);
  if (depth <= 0) return assign;
  const d = ctx.depth + 1;
  const inner: Ctx = { ...ctx, depth: d };
  const withVar = (v: string): Ctx => ({ ...inner, vars: [...ctx.vars, v], inner: [...ctx.inner, v] });
  const loopVar = `i${d}`;
  const letVar = `u${d}`;
  const local = `t${d}`;
  const sizeForms: fc.Arbitrary<string>[] = [fc.constantFrom('2', 'N', '3')];
  if (ctx.inner.length > 0) sizeForms.push(someVar(ctx).map((v) => `${v} + 1`));
  // The body does not depend on the size (indices range freely), so no `chain` is needed and
  // shrinking stays structural.
  const ictx: Ctx = { ...inner, locals: [...ctx.locals, { name: local }] };
  const allocate = fc.tuple(fc.oneof(...sizeForms), fc.constantFrom(0, 1, 2), cmdArb(ictx, depth - 1)).map(([size, init, b]) => {
    // Initialise none, the first cell, or every cell (reads of ⊥ otherwise).
    const pre = init === 0 ? '' : init === 1 ? `${local}[0] := 1; ` : `for z${d} < ${size} do ${local}[z${d}] := i32(z${d}); `;
    return `allocate ${local}: i32[${size}] in { ${pre}${b} }`;
  });
  // Loops and sequences dominate near the root, assignments near the leaves.
  const leafWeight = depth >= 2 ? 1 : 3;
  return fc.oneof(
    { withCrossShrink: true },
    { weight: leafWeight, arbitrary: assign },
    { weight: 2, arbitrary: fc.array(cmdArb(inner, depth - 1), { minLength: 1, maxLength: 3 }).map((cs) => `{ ${cs.join('; ')} }`) },
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom('par', 'for', 'par'), boundArb(ctx), cmdArb(withVar(loopVar), depth - 1)).map(([k, n, b]) => `${k} ${loopVar} < ${n} do ${wrapBody(b)}`) },
    { weight: 1, arbitrary: fc.tuple(condArb(ctx), cmdArb(inner, depth - 1), fc.option(cmdArb(inner, depth - 1), { nil: null })).map(([c, a, b]) => (b === null ? `if ${c} then ${wrapBody(a)}` : `if ${c} then ${wrapBody(a)} else ${wrapBody(b)}`)) },
    { weight: 1, arbitrary: fc.tuple(indexArb(ctx), cmdArb(withVar(letVar), depth - 1)).map(([v, b]) => `let ${letVar} = ${v} in ${wrapBody(b)}`) },
    { weight: 1, arbitrary: allocate },
  );
}

/** Braces around a sequence, so that `for … do c1; c2` keeps c2 in the loop. */
function wrapBody(b: string): string {
  return b.startsWith('{') ? b : `{ ${b} }`;
}

// ---------------------------------------------------------------------------------------------
// Cases

const cellArb = fc.oneof({ weight: 12, arbitrary: fc.integer({ min: -2, max: 5 }) }, { weight: 1, arbitrary: fc.constant(null) });
const floatCellArb = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(0, 0.5, -1.5, 2, 0.25) }, { weight: 1, arbitrary: fc.constant(null) });

/** Random programs with parameters and initial memories. */
export function memCaseArb(opts: BodyOptions = {}): fc.Arbitrary<MemCase> {
  const pools: Record<string, fc.Arbitrary<(number | null)[]>> = {};
  for (const g of GLOBALS) pools[g.name] = fc.array(g.elem === 'f32' ? floatCellArb : cellArb, { minLength: POOL, maxLength: POOL });
  return fc
    .record({
      body: fc.array(cmdArb(ROOT, opts.depth ?? 3), { minLength: 1, maxLength: 3 }).map((cs) => cs.join(';\n')),
      N: fc.integer({ min: 0, max: 3 }),
      M: fc.integer({ min: 0, max: 3 }),
      pools: fc.record(pools),
    })
    .map(({ body, N, M, pools: ps }) => withText({ body, params: { N, M }, pools: ps }));
}

/** A case from its parts, printable by fast-check as a readable program. */
export function withText(c: Omit<MemCase, 'src'>): MemCase {
  const src = programText(c.body);
  const show = (): string => `\n${src}// params ${JSON.stringify(c.params)}\n// memory ${JSON.stringify(c.pools)}\n`;
  return Object.assign(Object.create({ [fc.toStringMethod]: show, toString: show }) as object, { ...c, src }) as MemCase;
}
