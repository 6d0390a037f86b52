// A run of the big-step semantics exported as a Coq proof (proofs/coq/theories/Run.v): the
// implementation's body, the parameters E and the initial memory μ of the run, and either
//   - the run's ⟨δμ; ρ⟩: `forall L : libm, derives (sched_call L) E0 mu0 prog dmu rho`, i.e.
//     E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ for the relation of Fig. 4.5 (BigStep.v), or
//   - for a run error: `forall L d r, ~ bigstep (sched_call L) E0 mu0 prog d r` (no derivation).
// The proof runs the Coq interpreter, proved sound and complete for the relation, in the kernel.
// Nothing of the TypeScript run is trusted: coqc recomputes the outcome from the program and μ,
// and accepts the file only if it is the one claimed.
//
// The translation is syntax to syntax (docs/coq.md has the table): the type checker's types pick
// the operation (an index `+` is Fig. 4.1's quasi-affine ι1 + ι2, an i32 `+` a call of ⟦+⟧), and
// literals are written as the values the type checker gave them. Not exported, with a reason:
// runs with the ω write-set variant or conditional stores (not the relation of Fig. 4.5), calls of
// exp, log or pow (the platform's libm, a parameter of the Coq semantics), budget limits.

import type { Cmd, Expr, ValueType } from '../../core/language/ast.ts';
import { isIntType } from '../../core/language/ast.ts';
import type { CheckedImpl } from '../../core/language/typecheck.ts';
import type { BigStepResult } from '../../semantics/bigstep.ts';
import { type ArrayRef, type Cells, getCell } from '../../semantics/memory.ts';
import { type ParamValues, type RunImplOptions, type RunReport, runImpl } from '../../semantics/run.ts';
import { literalOf, literalValue, type Value } from '../../semantics/values.ts';

/** Why a run cannot be exported (an input error for the command: exit 3). */
export class NotExportable extends Error {}


/** The first lines of every export (batches of exports share them). */
export const EXPORT_HEADER: readonly string[] = ['From Coq Require Import List ZArith Uint63.', 'From Sched Require Import Run.', 'Import ListNotations.'];

// ---------------------------------------------------------------------------------------------
// Names

/** Coq identifiers for SCHED's variables and arrays: `v_x`, `a_x`, each bound to a positive. */
class Names {
  readonly vars = new Map<string, number>();
  readonly arrays = new Map<string, number>();
  private next = 1;
  v(name: string): string {
    if (!this.vars.has(name)) this.vars.set(name, this.next++);
    return `v_${name}`;
  }
  a(name: string): string {
    if (!this.arrays.has(name)) this.arrays.set(name, this.next++);
    return `a_${name}`;
  }
  definitions(): string[] {
    const out: string[] = [];
    for (const [n, id] of this.vars) out.push(`Definition v_${n} : ident := ${id}%positive.`);
    for (const [n, id] of this.arrays) out.push(`Definition a_${n} : ident := ${id}%positive.`);
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// Values

function z(n: bigint | number | string): string {
  const b = typeof n === 'bigint' ? n : BigInt(n);
  return b < 0n ? `(${b})` : `${b}`;
}

/** A finite nonzero double as m · 2^e (exact). */
function mantExp(x: number): [bigint, number] {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  const hi = dv.getUint32(0);
  const lo = dv.getUint32(4);
  const sign = hi >>> 31 === 1;
  const exp = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (exp === 0) e = -1074;
  else {
    m |= 1n << 52n;
    e = exp - 1075;
  }
  while (m !== 0n && (m & 1n) === 0n) {
    m >>= 1n;
    e++;
  }
  return [sign ? -m : m, e];
}

/** A value of type t as a Coq term of type `val`. */
export function coqValue(t: ValueType, v: Value): string {
  if (t === 'bool') return `(VBool ${v ? 'true' : 'false'})`;
  if (isIntType(t)) return `(${t} ${z(typeof v === 'bigint' ? v : BigInt(v as number))})`;
  const x = v as number;
  const p = t === 'f32' ? 'f32' : 'f64';
  if (Number.isNaN(x)) return `${p}_nan`;
  if (x === Infinity || x === -Infinity) return `(${p}_inf ${x < 0 ? 'true' : 'false'})`;
  if (x === 0) return `(${p}_zero ${Object.is(x, -0) ? 'true' : 'false'})`;
  const [m, e] = mantExp(x);
  return `(${p} ${z(m)} ${z(e)})`;
}

// ---------------------------------------------------------------------------------------------
// Syntax

const CMP: Record<string, string> = { '==': 'Ceq', '!=': 'Cne', '<': 'Clt', '<=': 'Cle', '>': 'Cgt', '>=': 'Cge' };
const IDX: Record<string, string> = { '+': 'IAdd', '-': 'ISub', '*': 'IMul', '/': 'IDiv', '%': 'IMod' };
const VAL: Record<string, string> = { '+': 'FAdd', '-': 'FSub', '*': 'FMul', '/': 'FDiv', '%': 'FMod' };
const VTY: Record<ValueType, string> = {
  bool: 'TBool',
  i8: '(TInt I8)',
  i16: '(TInt I16)',
  i32: '(TInt I32)',
  i64: '(TInt I64)',
  u8: '(TInt U8)',
  u16: '(TInt U16)',
  u32: '(TInt U32)',
  u64: '(TInt U64)',
  f32: 'TF32',
  f64: 'TF64',
};
const BUILTIN: Record<string, string> = { abs: 'FAbs', sqrt: 'FSqrt', floor: 'FFloor', ceil: 'FCeil' };

function kindOf(e: Expr): 'index' | 'cond' | ValueType {
  const t = e.ty;
  if (t === undefined) throw new Error(`internal: expression at ${e.pos.line}:${e.pos.col} is not type-checked`);
  return t.kind === 'value' ? t.vt : t.kind;
}

function list(items: readonly string[]): string {
  return `[${items.join('; ')}]`;
}

class Translator {
  constructor(readonly names: Names) {}

  expr(e: Expr): string {
    const k = kindOf(e);
    switch (e.kind) {
      case 'int':
        return k === 'index' ? `(EConst (VZ ${z(e.value)}))` : `(EConst ${coqValue(k as ValueType, literalValue(e.value, k as ValueType))})`;
      case 'float':
        return `(EConst ${coqValue(k as ValueType, literalOf(e, k as ValueType))})`;
      case 'bool':
        return `(EConst (VBool ${e.value ? 'true' : 'false'}))`;
      case 'var':
        return `(EVar ${this.names.v(e.name)})`;
      case 'array':
        return `(EArr ${this.names.a(e.name)} ${list(e.indices.map((i) => this.expr(i)))})`;
      case 'tensor':
        throw new NotExportable(`a tensor read ${e.name}(…) at ${e.pos.line}:${e.pos.col} in implementation code`);
      case 'let':
        return `(ELet ${this.names.v(e.name)} ${this.expr(e.value)} ${this.expr(e.body)})`;
      case 'unary':
        if (e.op === '!') return `(ENot ${this.expr(e.arg)})`;
        return k === 'index' ? `(EIdx ISub (EConst (VZ 0)) ${this.expr(e.arg)})` : `(ECall FNeg [${this.expr(e.arg)}])`;
      case 'binary': {
        const a = this.expr(e.left);
        const b = this.expr(e.right);
        if (e.op === '&&') return `(EAnd ${a} ${b})`;
        if (e.op === '||') return `(EOr ${a} ${b})`;
        const cmp = CMP[e.op];
        if (cmp !== undefined) {
          const operands = kindOf(e.left);
          return operands === 'index' || operands === 'cond' ? `(ECmp ${cmp} ${a} ${b})` : `(ECall (FCmp ${cmp}) [${a}; ${b}])`;
        }
        return k === 'index' ? `(EIdx ${IDX[e.op]!} ${a} ${b})` : `(ECall ${VAL[e.op]!} [${a}; ${b}])`;
      }
      case 'select':
        return `(ESelect ${this.expr(e.cond)} ${this.expr(e.then)} ${this.expr(e.else)})`;
      case 'call': {
        const args = e.args.map((x) => this.expr(x));
        if (e.fn === 'min' || e.fn === 'max') {
          if (k === 'index') return `(EIdx ${e.fn === 'min' ? 'IMin' : 'IMax'} ${args[0]!} ${args[1]!})`;
          return `(ECall ${e.fn === 'min' ? 'FMin' : 'FMax'} ${list(args)})`;
        }
        if (e.fn === 'exp' || e.fn === 'log' || e.fn === 'pow') {
          throw new NotExportable(
            `${e.fn}(…) at ${e.pos.line}:${e.pos.col}: exp, log and pow are the platform's libm, which the Coq semantics leaves as a parameter (Ops.v), so Coq cannot compute a run that calls them`,
          );
        }
        const b = BUILTIN[e.fn];
        if (b !== undefined) return `(ECall ${b} ${list(args)})`;
        const to = VTY[e.fn as ValueType] as string | undefined;
        if (to === undefined) {
          // Checked operations, `load` and reinterpretations have no counterpart in Syntax.v/Ops.v
          // (its semantics has no poison): such a run is not exported rather than exported wrong.
          throw new NotExportable(`${e.fn}(…) at ${e.pos.line}:${e.pos.col}: the Coq semantics (Ops.v) has no ${e.fn === 'load' ? 'checked read (poison)' : e.fn.startsWith('reinterpret') ? 'reinterpretation' : 'checked operation (poison)'}, so Coq cannot compute a run that uses it`);
        }
        return `(ECall (FCast ${to}) ${list(args)})`;
      }
    }
  }

  cmd(c: Cmd, depth = 0): string {
    const pad = '  '.repeat(depth + 1);
    switch (c.kind) {
      case 'skip':
        return 'CSkip';
      case 'seq': {
        // c1; c2; …; cn is c1; (c2; (…; cn)): one U-SEQ per `;`, as the TypeScript derivation.
        let out = this.cmd(c.cmds[c.cmds.length - 1]!, depth + 1);
        for (let i = c.cmds.length - 2; i >= 0; i--) out = `(CSeq ${this.cmd(c.cmds[i]!, depth + 1)}\n${pad}${out})`;
        return out;
      }
      case 'assign':
        return `(CAssign ${this.names.a(c.array)} ${list(c.indices.map((i) => this.expr(i)))}\n${pad}${this.expr(c.rhs)})`;
      case 'if':
        return `(CIf ${this.expr(c.cond)}\n${pad}${this.cmd(c.then, depth + 1)}\n${pad}${c.else === null ? 'CSkip' : this.cmd(c.else, depth + 1)})`;
      case 'let':
        return `(CLet ${this.names.v(c.name)} ${this.expr(c.value)}\n${pad}${this.cmd(c.body, depth + 1)})`;
      case 'allocate':
        return `(CAlloc ${this.names.a(c.name)} ${list(c.dims.map((d) => this.expr(d)))}\n${pad}${this.cmd(c.body, depth + 1)})`;
      case 'for':
      case 'par':
        return `(${c.kind === 'for' ? 'CFor' : 'CPar'} ${this.names.v(c.var)} ${this.expr(c.bound)}\n${pad}${this.cmd(c.body, depth + 1)})`;
    }
  }
}

/** Does the program call exp, log or pow? (Checked before running: such runs are not exported.) */
function usesLibm(c: Cmd): boolean {
  const inExpr = (e: Expr): boolean => {
    switch (e.kind) {
      case 'call':
        return e.fn === 'exp' || e.fn === 'log' || e.fn === 'pow' || e.args.some(inExpr);
      case 'array':
      case 'tensor':
        return e.indices.some(inExpr);
      case 'let':
        return inExpr(e.value) || inExpr(e.body);
      case 'unary':
        return inExpr(e.arg);
      case 'binary':
        return inExpr(e.left) || inExpr(e.right);
      case 'select':
        return inExpr(e.cond) || inExpr(e.then) || inExpr(e.else);
      default:
        return false;
    }
  };
  switch (c.kind) {
    case 'skip':
      return false;
    case 'seq':
      return c.cmds.some(usesLibm);
    case 'assign':
      return c.indices.some(inExpr) || inExpr(c.rhs);
    case 'if':
      return inExpr(c.cond) || usesLibm(c.then) || (c.else !== null && usesLibm(c.else));
    case 'let':
      return inExpr(c.value) || usesLibm(c.body);
    case 'allocate':
      return c.dims.some(inExpr) || usesLibm(c.body);
    case 'for':
    case 'par':
      return inExpr(c.bound) || usesLibm(c.body);
  }
}

// ---------------------------------------------------------------------------------------------
// Memories and maps

/** Lists longer than this are written as `concat` of chunks (coqc's elaborator recurses on a list). */
const CHUNK = 400;

function longList(items: readonly string[]): string {
  if (items.length <= CHUNK) return list(items);
  const chunks: string[] = [];
  for (let i = 0; i < items.length; i += CHUNK) chunks.push(list(items.slice(i, i + CHUNK)));
  return `(concat [${chunks.join(';\n    ')}])`;
}

interface ArrayCells {
  readonly ref: ArrayRef;
  /** Offsets with an entry, and the entry's text. */
  readonly entries: Map<number, string>;
}

/** Up to this many entries an array's cells are written as values (`(i32 5)`); beyond, packed. */
export const READABLE = 32;

/**
 * `Full dims v` (every cell holds v), `Dense dims [Some v; None; …]` (row-major, every cell) or
 * `Sparse [([i; j], v); …]`, the shortest.
 */
function cellsText(c: ArrayCells): string {
  const { ref, entries } = c;
  const dims = list(ref.dims.map(z));
  if (entries.size === ref.size && ref.size > 1) {
    const first = entries.values().next().value!;
    if ([...entries.values()].every((v) => v === first)) return `(Full ${dims} ${first})`;
  }
  if (entries.size * 3 >= ref.size) {
    const items: string[] = [];
    let last = -1;
    for (const k of entries.keys()) last = Math.max(last, k);
    for (let k = 0; k <= last; k++) {
      const v = entries.get(k);
      items.push(v === undefined ? 'None' : `(Some ${v})`);
    }
    return `(Dense ${dims} ${longList(items)})`;
  }
  const items = [...entries.entries()].sort((a, b) => a[0] - b[0]).map(([k, v]) => `(${list(ref.indexOf(k).map(z))}, ${v})`);
  return `(Sparse ${longList(items)})`;
}

/** A list of primitive 63-bit integers (Run.v reads them much faster than numerals). */
function wordList(ws: readonly (bigint | number)[]): string {
  if (ws.length <= CHUNK) return `${list(ws.map(String))}%uint63`;
  const chunks: string[] = [];
  for (let i = 0; i < ws.length; i += CHUNK) chunks.push(`${list(ws.slice(i, i + CHUNK).map(String))}%uint63`);
  return `(concat [${chunks.join(';\n    ')}])`;
}

/** A read set's cells of one array: `Full`, a bit set, or a few locations. */
function setText(ref: ArrayRef, ks: ReadonlySet<number>, readable: number): string {
  if (ks.size <= readable || ks.size * 63 < ref.size) return cellsText({ ref, entries: new Map([...ks].map((k) => [k, 'tt'])) });
  if (ks.size === ref.size) return `(Full ${list(ref.dims.map(z))} tt)`;
  const words: bigint[] = [];
  for (const k of ks) {
    const w = Math.floor(k / 63);
    while (words.length <= w) words.push(0n);
    words[w] = words[w]! | (1n << BigInt(k % 63));
  }
  return `(Bits ${list(ref.dims.map(z))} ${wordList(words)} tt)`;
}

const NO_VALUE = 1n << 62n;

/** The bit pattern of a value, as Run.v's `unpack` reads it (two words for 64-bit types). */
function valueWords(t: ValueType, v: Value): bigint[] {
  if (t === 'bool') return [v ? 1n : 0n];
  const dv = new DataView(new ArrayBuffer(8));
  if (t === 'f32') {
    dv.setFloat32(0, v as number);
    return [BigInt(dv.getUint32(0))];
  }
  if (t === 'f64') {
    dv.setFloat64(0, v as number);
    return [BigInt(dv.getUint32(0)), BigInt(dv.getUint32(4))];
  }
  const bits = t === 'i64' || t === 'u64' ? 64n : BigInt(Number(t.slice(1)));
  const u = BigInt.asUintN(Number(bits), typeof v === 'bigint' ? v : BigInt(v as number));
  return bits === 64n ? [u >> 32n, u & 0xffffffffn] : [u];
}


/** The values of one array (offset → value): as readable cells when few, else packed. */
function valuesText(ref: ArrayRef, vals: ReadonlyMap<number, Value>, readable: number): string {
  const t = ref.elem as ValueType;
  if (vals.size <= readable || vals.size * 4 < ref.size) {
    return `(Cells ${cellsText({ ref, entries: new Map([...vals].map(([k, v]) => [k, coqValue(t, v)])) })})`;
  }
  let last = -1;
  for (const k of vals.keys()) last = Math.max(last, k);
  const wide = t === 'i64' || t === 'u64' || t === 'f64';
  const ws: bigint[] = [];
  for (let k = 0; k <= last; k++) {
    const v = vals.get(k);
    if (v === undefined) ws.push(...(wide ? [NO_VALUE, 0n] : [NO_VALUE]));
    else ws.push(...valueWords(t, v));
  }
  return `(Packed ${VTY[t]} ${list(ref.dims.map(z))} ${wordList(ws)})`;
}


// ---------------------------------------------------------------------------------------------
// The export

/** One execution of an implementation: its parameters, initial memory and big-step result. */
export interface Execution {
  readonly params: ReadonlyMap<string, bigint | number>;
  /** μ: every global array with its cells before the run. */
  readonly initial: Iterable<readonly [string, { readonly ref: ArrayRef; readonly cells: Cells }]>;
  /** The big-step result, recorded with `effects` (δμ and ρ of the whole run) when it succeeded. */
  readonly result: BigStepResult;
  /** Comment lines for the file's header. */
  readonly header: readonly string[];
}

export interface ExportedRun {
  /** The .v file. */
  readonly text: string;
  /** `derives`: the run succeeded (match or mismatch); `fails`: a run error, no derivation. */
  readonly claim: 'derives' | 'fails';
  /** Sizes written: cells of μ with a value, entries of δμ and ρ. */
  readonly sizes: { readonly mu: number; readonly dmu: number; readonly rho: number };
}

/** Refuse what the Coq development does not cover before running anything. */
function exportable(ci: CheckedImpl, opts: { omega?: boolean; conditionalStores?: boolean }): void {
  if (opts.omega) throw new NotExportable('the write-set variant ω (--omega) is not the relation of Fig. 4.5 that the Coq development mechanizes');
  if (opts.conditionalStores) throw new NotExportable('conditional stores (--conditional-stores) are a reading of compiled code, not a rule of the thesis: such a run has no derivation to export');
  if (usesLibm(ci.impl.body)) {
    throw new NotExportable("the implementation calls exp, log or pow: the platform's libm is a parameter of the Coq semantics (Ops.v), so Coq cannot compute its runs");
  }
}

/** An execution of `ci` as a Coq file (wrapped in `Module NAME` when `module` is given). */
export function exportExecution(ci: CheckedImpl, ex: Execution, opts: { module?: string; readable?: number } = {}): ExportedRun {
  const readable = opts.readable ?? READABLE;
  exportable(ci, {});
  const res = ex.result;
  if (!res.ok && res.error.kind !== 'race' && res.error.kind !== 'out-of-bounds' && res.error.kind !== 'uninitialized') {
    throw new NotExportable(`the run stopped with '${res.error.kind}' (${res.error.message}), which is not an outcome of the semantics`);
  }
  const names = new Names();
  const tr = new Translator(names);
  for (const p of ci.spec.params) names.v(p);
  for (const name of ci.arrays.keys()) names.a(name);
  const prog = tr.cmd(ci.impl.body);

  const env = [...ex.params].map(([k, v]) => `(${names.v(k)}, VZ ${z(v)})`);
  let muCount = 0;
  const mu: string[] = [];
  for (const [name, { ref, cells }] of ex.initial) {
    const vals = new Map<number, Value>();
    for (let k = 0; k < ref.size; k++) {
      const v = getCell(cells, ref.elem as ValueType, k);
      if (v !== undefined) vals.set(k, v);
    }
    muCount += vals.size;
    mu.push(`(${names.a(name)}, ${list(ref.dims.map(z))}, ${valuesText(ref, vals, readable)})`);
  }

  const lines: string[] = [];
  lines.push(...ex.header.map((h, i) => `${i === 0 ? '(* ' : '   '}${h.replace(/\*\)/g, '* )')}${i === ex.header.length - 1 ? ' *)' : ''}`));
  lines.push(...EXPORT_HEADER);
  if (opts.module) lines.push(`Module ${opts.module}.`);
  lines.push('Local Open Scope Z_scope.');
  lines.push(...names.definitions());
  lines.push(`Definition prog : cmd :=\n  ${prog}.`);
  lines.push(`Definition E0 : env := env_of ${list(env)}.`);
  lines.push(`Definition mu0 : mem := mem_of\n  ${list(mu)}.`);

  let dmuCount = 0;
  let rhoCount = 0;
  let claim: 'derives' | 'fails';
  if (res.ok) {
    claim = 'derives';
    const fx = res.effects;
    if (fx === null) throw new Error('internal: an exported run must be recorded with `effects`');
    const dmu = new Map<ArrayRef, Map<number, Value>>();
    for (const { ref, k, v } of fx.dmu.values()) {
      if (!ref.global) throw new Error(`internal: local array ${ref.label()} in the root δμ`);
      (dmu.get(ref) ?? dmu.set(ref, new Map()).get(ref)!).set(k, v);
      dmuCount++;
    }
    const rho = new Map<ArrayRef, Set<number>>();
    for (const { ref, k } of fx.rho.values()) {
      if (!ref.global) throw new Error(`internal: local array ${ref.label()} in the root ρ`);
      (rho.get(ref) ?? rho.set(ref, new Set()).get(ref)!).add(k);
      rhoCount++;
    }
    const byId = <T>(m: Map<ArrayRef, T>): [ArrayRef, T][] => [...m].sort((a, b) => a[0].id - b[0].id);
    lines.push(`Definition dmu : lmap val := vmap_of\n  ${list(byId(dmu).map(([ref, vals]) => `(${names.a(ref.name)}, ${valuesText(ref, vals, readable)})`))}.`);
    lines.push(`Definition rho : locset := lmap_of\n  ${list(byId(rho).map(([ref, ks]) => `(${names.a(ref.name)}, ${setText(ref, ks, readable)})`))}.`);
    lines.push("(* E0; mu0 ⊢ prog ⇓ ⟨dmu; rho⟩ (Fig. 4.5, BigStep.v), for SCHED's operators with any libm. *)");
    lines.push('Theorem run : forall L : libm, derives (sched_call L) E0 mu0 prog dmu rho.');
    lines.push('Proof. intro L. apply check_run_sound. vm_compute. reflexivity. Qed.');
  } else {
    claim = 'fails';
    lines.push('(* The run has no derivation (a run error is the absence of one, thesis §4.2). *)');
    lines.push('Theorem run : forall (L : libm) d r, ~ bigstep (sched_call L) E0 mu0 prog d r.');
    lines.push('Proof. intro L. apply check_fails_sound. vm_compute. reflexivity. Qed.');
  }
  if (opts.module) lines.push(`End ${opts.module}.`);
  return { text: lines.join('\n') + '\n', claim, sizes: { mu: muCount, dmu: dmuCount, rho: rhoCount } };
}

export interface ExportOptions extends Pick<RunImplOptions, 'seed' | 'family' | 'inputs' | 'omega' | 'conditionalStores' | 'maxSteps' | 'maxCells'> {
  /** The source file (diagnostics and the header). */
  readonly file: string;
  /** Wrap the definitions in `Module NAME … End NAME.` (several runs in one file). */
  readonly module?: string;
  /** The command line that made the export, for the header comment. */
  readonly command?: string;
  /** Arrays with more entries than this are packed (default READABLE). */
  readonly readable?: number;
}

/**
 * Run `ci` as `sched run` would (same seed, inputs and options) and write the run as a Coq file.
 * Throws NotExportable for a run the Coq development does not cover.
 */
export function exportRun(ci: CheckedImpl, params: ParamValues, opts: ExportOptions): ExportedRun & { readonly report: RunReport } {
  exportable(ci, opts);
  const r = runImpl(ci, params, { seed: opts.seed, family: opts.family, inputs: opts.inputs, maxSteps: opts.maxSteps, maxCells: opts.maxCells, file: opts.file, effects: true });
  const rep = r.report;
  const header = [
    opts.command ?? `sched derivation ${opts.file} --impl ${ci.impl.name} --coq`,
    `impl ${ci.impl.name} of spec ${ci.spec.spec.name}; parameters ${Object.entries(rep.params).map(([k, v]) => `${k} = ${v}`).join(', ') || 'none'}; inputs ${rep.inputs}${rep.seed !== null ? `, seed ${rep.seed}` : ''}`,
    `TypeScript big-step: ${rep.outcome}${r.result.ok ? '' : ` (${r.result.error.kind}: ${r.result.error.message})`}`,
    'Checked by coqc against the Coq development of docs/coq.md (sched derivation --check-coq).',
  ];
  const params2 = new Map(Object.entries(rep.params).map(([k, v]) => [k, BigInt(v)] as const));
  return { ...exportExecution(ci, { params: params2, initial: r.initial, result: r.result, header }, { module: opts.module, readable: opts.readable }), report: rep };
}
