#!/usr/bin/env node
// A tiny external compiler for `sched fuzz --compiler` (protocol sched-lower/1, see
// proofs/fuzz/README.md), written in plain JavaScript to show that any language will do.
//
// It reads the request (JSON on stdin), ignores the schedule, inlines every Func without updates
// into its consumers, and computes the output Func with plain serial loops: the pure stage, then
// each update stage with the reduction loops innermost. It prints the `impl` block (the fuzzer
// supplies the spec). It exits with 2 ("not supported") when the output is not the only Func with
// updates, or an update writes elsewhere than at its pure variables.
//
//   npx sched fuzz --compiler 'node corpus/fuzz/naive-compiler.mjs' --iterations 20
//   NAIVE_BUG=1 npx sched fuzz --compiler 'node corpus/fuzz/naive-compiler.mjs'   # a bug to find
//
// NAIVE_BUG=1 makes every reduction loop stop one iteration early: the fuzzer must report it.

import { readFileSync } from 'node:fs';

const req = JSON.parse(readFileSync(0, 'utf8'));
const alg = req.algorithm;
const bug = process.env.NAIVE_BUG === '1';

function unsupported(why) {
  process.stderr.write(`naive-compiler: ${why}\n`);
  process.exit(2);
}

const funcs = new Map(alg.funcs.map((f, i) => [f.name, { ...f, ast: req.ast.funcs[i] }]));
const inputs = new Map(alg.inputs.map((x) => [x.name, x]));
const out = funcs.get(alg.output.func);
for (const f of funcs.values()) if (f !== out && (f.updates ?? []).length > 0) unsupported(`${f.name} has updates and is not the output`);

// -- expressions ---------------------------------------------------------------------------
// Index expressions are kept as affine forms { c, k: { var: coeff } } where possible.

const affine = (e, env) => {
  if (e.int !== undefined) return { c: Number(e.int), k: {} };
  if (e.var !== undefined) return env.has(e.var) ? env.get(e.var) : { c: 0, k: { [e.var]: 1 } };
  if (e.op === 'neg') return scaleA(affine(e.args[0], env), -1);
  if (e.op === '+' || e.op === '-') {
    const a = affine(e.args[0], env);
    const b = affine(e.args[1], env);
    return addA(a, e.op === '+' ? b : scaleA(b, -1));
  }
  if (e.op === '*') {
    const a = affine(e.args[0], env);
    const b = affine(e.args[1], env);
    if (Object.keys(a.k).length === 0) return scaleA(b, a.c);
    if (Object.keys(b.k).length === 0) return scaleA(a, b.c);
  }
  unsupported('a non-affine index expression');
};
const addA = (a, b) => {
  const k = { ...a.k };
  for (const [v, x] of Object.entries(b.k)) k[v] = (k[v] ?? 0) + x;
  return { c: a.c + b.c, k };
};
const scaleA = (a, s) => ({ c: a.c * s, k: Object.fromEntries(Object.entries(a.k).map(([v, x]) => [v, x * s])) });
const showA = (a) => {
  const parts = Object.entries(a.k).filter(([, x]) => x !== 0).map(([v, x]) => (x === 1 ? v : `${x} * ${v}`));
  if (a.c !== 0 || parts.length === 0) parts.push(`${a.c}`);
  return parts.join(' + ').replace(/\+ -/g, '- ');
};

/** Substitute the inline Funcs; returns an expression tree whose reads are inputs or `self`. */
function inline(e, env) {
  if (e.read !== undefined) {
    const args = e.args.map((a) => inline(a, env));
    const f = funcs.get(e.read);
    if (f && f !== out) {
      const inner = new Map(f.args.map((x, i) => [x, args[i]]));
      return inline(f.ast.pure, inner);
    }
    return { read: e.read, args };
  }
  if (e.var !== undefined && env.has(e.var)) return env.get(e.var);
  if (e.args) return { ...e, args: e.args.map((a) => inline(a, env)) };
  if (e.select) return { select: e.select.map((a) => inline(a, env)) };
  return e;
}

/** Reads of input tensors, for the input boxes: [name, args][]. */
function reads(e, acc = []) {
  if (e.read !== undefined && inputs.has(e.read)) acc.push([e.read, e.args]);
  for (const a of e.args ?? []) reads(a, acc);
  for (const a of e.select ?? []) reads(a, acc);
  return acc;
}

// -- the loop nests ------------------------------------------------------------------------

const vars = out.args;
const extA = req.ast.outputExtents.map((e) => affine(e, new Map()));
/** Each loop variable's range as affine forms in the parameters. */
const ranges = new Map(vars.map((v, i) => [v, [{ c: 0, k: {} }, addA(extA[i], { c: -1, k: {} })]]));
const stages = [];
const tensorName = (s) => ((out.updates ?? []).length === 0 ? out.name : `${out.name}_${s}`);
stages.push({ value: inline(out.ast.pure, new Map()), where: null, rvars: [], tensor: tensorName(0) });
(out.updates ?? []).forEach((u, k) => {
  const ua = out.ast.updates[k];
  ua.lhs.forEach((l, p) => {
    if (l.var !== vars[p]) unsupported('an update that does not write at its pure variables, named as in the pure definition');
  });
  const rv = ua.rdom.map((r) => ({ var: r.var, min: affine(r.min, new Map()), extent: affine(r.extent, new Map()) }));
  for (const r of rv) ranges.set(r.var, [r.min, addA(addA(r.min, r.extent), { c: -1, k: {} })]);
  stages.push({ value: inline(ua.rhs, new Map()), where: ua.where, rvars: rv, tensor: tensorName(k + 1) });
});

// Input boxes: the bounds of every read (an affine form per read, loop variables replaced by an
// end of their range), hulled: forms that differ by a constant are compared, others min/max'ed.
const sameK = (a, b) => JSON.stringify(Object.entries(a.k).filter(([, x]) => x).sort()) === JSON.stringify(Object.entries(b.k).filter(([, x]) => x).sort());
const hull = (xs, lower) => {
  const kept = [];
  for (const x of xs) {
    const i = kept.findIndex((y) => sameK(x, y));
    if (i < 0) kept.push(x);
    else if (lower ? x.c < kept[i].c : x.c > kept[i].c) kept[i] = x;
  }
  return kept.map(showA).reduce((a, b) => `${lower ? 'min' : 'max'}(${a}, ${b})`);
};
const boxes = new Map();
for (const st of stages) {
  for (const [name, args] of reads(st.value)) {
    const b = boxes.get(name) ?? args.map(() => ({ lo: [], hi: [] }));
    args.forEach((a, p) => {
      const f = affine(a, new Map());
      let lo = { c: f.c, k: {} };
      let hi = { c: f.c, k: {} };
      for (const [v, x] of Object.entries(f.k)) {
        const [l, h] = ranges.get(v) ?? [{ c: 0, k: { [v]: 1 } }, { c: 0, k: { [v]: 1 } }];
        lo = addA(lo, scaleA(x > 0 ? l : h, x));
        hi = addA(hi, scaleA(x > 0 ? h : l, x));
      }
      b[p].lo.push(lo);
      b[p].hi.push(hi);
    });
    boxes.set(name, b);
  }
}
const boxOf = new Map([...boxes].map(([n, b]) => [n, b.map((d) => ({ lo: hull(d.lo, true), hi: hull(d.hi, false) }))]));
const extents = extA.map(showA);

function show(e, readOf) {
  if (e.int !== undefined) return e.int;
  if (e.float !== undefined) return Number.isInteger(e.float) ? e.float.toFixed(1) : String(e.float);
  if (e.bool !== undefined) return String(e.bool);
  if (e.var !== undefined) return e.var;
  if (e.read !== undefined) return readOf(e.read, e.args);
  if (e.select) return `select(${e.select.map((a) => show(a, readOf)).join(', ')})`;
  if (e.call !== undefined) return `${e.call}(${e.args.map((a) => show(a, readOf)).join(', ')})`;
  if (e.op === 'neg') return `(-${show(e.args[0], readOf)})`;
  if (e.op === '!') return `(!${show(e.args[0], readOf)})`;
  return `(${show(e.args[0], readOf)} ${e.op} ${show(e.args[1], readOf)})`;
}

const readOf = (name, args) => {
  if (name === out.name) return `out_${name}[${args.map((a) => show(a, readOf)).join(', ')}]`;
  const box = boxOf.get(name);
  return `in_${name}[${args.map((a, p) => `${show(a, readOf)} - (${box[p].lo})`).join(', ')}]`;
};

const L = [];
L.push(`impl ${req.implName} of ${req.specName} {`);
for (const [name, box] of boxOf) {
  const ds = box.map((_, p) => `i${p}`);
  L.push(`  input in_${name}[${ds.join(', ')}]: ${inputs.get(name).type}[${box.map((d) => `max((${d.hi}) - (${d.lo}) + 1, 0)`).join(', ')}] = ${name}(${ds.map((d, p) => `${d} + (${box[p].lo})`).join(', ')});`);
}
L.push(`  output out_${out.name}: ${out.type}[${extents.join(', ')}] = ${out.name};`);
const body = [];
stages.forEach((st) => {
  let indent = '  ';
  const open = [];
  for (let p = vars.length - 1; p >= 0; p--) {
    open.push(`${indent}for ${vars[p]} < ${extents[p]} do`);
    indent += '  ';
  }
  // Reduction variables: the first is innermost, as Halide iterates them.
  for (const r of [...st.rvars].reverse()) {
    const e = showA(r.extent);
    open.push(`${indent}for ${r.var}_c < ${bug ? `${e} - 1` : e} do let ${r.var} = ${r.var}_c + ${showA(r.min)} in`);
    indent += '  ';
  }
  const annot = `${st.tensor}(${[...vars, ...[...st.rvars].reverse().map((r) => r.var)].join(', ')})`;
  let assign = `out_${out.name}[${vars.join(', ')}] {${annot}} := ${show(st.value, readOf)}`;
  if (st.where) assign = `if ${show(st.where, readOf)} then ${assign}`;
  body.push([...open, `${indent}${assign}`].join('\n'));
});
L.push(body.join(';\n'));
L.push('}');
process.stdout.write(L.join('\n') + '\n');
