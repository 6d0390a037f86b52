// Deliberately broken variants of the semantics (and one of the verifier), to show that the
// properties can fail: each mutant must be killed by some property (test/props-mutants.test.ts).
//
// Injection costs production nothing: a mutant replaces one rule of a rule table — a method of the
// big-step translator (BigStepCompiler: one emitter per rule of Fig. 4.5), of its run-time machine
// (BigStepMachine: U-PARLOOP's side conditions), of the derivation recorder, of the expression
// translator (Emitter: Fig. 4.3), or of the symbolic evaluator — for as long as `withMutant` runs,
// and puts the original back afterwards. Translation-time mutants act on programs compiled while
// they are installed (every case compiles its program afresh).

import { BigStepCompiler, BigStepMachine } from '../../../semantics/bigstep.ts';
import { Recorder } from '../../../semantics/derivation.ts';
import { Emitter, HELPERS } from '../../../semantics/jsgen.ts';
import { type Cells, getCell } from '../../../semantics/memory.ts';
import { type Value, valueToJson } from '../../../semantics/values.ts';
import type { ValueType } from '../../../core/language/ast.ts';
import { SymbolicEvaluator } from '../../verifier/symbolic.ts';

type Fn = (this: unknown, ...args: unknown[]) => unknown;
type Table = Record<string, unknown>;

/** Replace method `name` of `table` by `make(original)`; returns the undo. */
function patch(table: object, name: string, make: (orig: Fn) => Fn): () => void {
  const t = table as Table;
  const orig = t[name] as Fn;
  if (typeof orig !== 'function') throw new Error(`mutants: no method ${name}`);
  t[name] = make(orig);
  return () => {
    t[name] = orig;
  };
}

export interface Mutant {
  readonly id: string;
  /** What is broken, in the thesis's terms. */
  readonly description: string;
  /** Property ids expected to kill it (the mutation test runs these). */
  readonly killers: readonly string[];
  install(): () => void;
}

interface LogEntry {
  ref: { base: number } | null;
  k: number;
  v: unknown;
}
interface RecorderState {
  wlog: LogEntry[];
  rlog: LogEntry[];
  stack: { node: { dmu: [string, unknown][]; rho: string[] } | null; w: number; r: number }[];
}

export const MUTANTS: readonly Mutant[] = [
  {
    id: 'no-rw-check',
    description: "U-PARLOOP without its side condition dom(δμ_i) # ρ_j (read-write races accepted)",
    killers: ['thm-4.3.7-explore', 'thm-4.3.7-random', 'lemma-4.3.8'],
    install: () =>
      patch(BigStepMachine.prototype, 'fail', (orig) =>
        function (this: unknown, ...args: unknown[]) {
          const extra = args[5] as { detail?: string } | undefined;
          if (args[1] === 'race' && extra?.detail === 'read-write') return undefined;
          return orig.apply(this, args);
        },
      ),
  },
  {
    id: 'par-as-for',
    description: 'U-PARLOOP replaced by U-FOR: parallel iterations run in sequence, each seeing the previous ones, no race check',
    killers: ['thm-4.3.7-explore', 'thm-4.3.7-random', 'lemma-4.3.8', 'derivations'],
    install: () =>
      patch(BigStepCompiler.prototype, 'U_PARLOOP', () =>
        function (this: unknown, ...args: unknown[]) {
          return (this as { U_FOR: (...a: unknown[]) => string }).U_FOR(...args);
        },
      ),
  },
  {
    id: 'no-ww-check',
    description: 'U-PARLOOP without δμ_i ∘ δμ_j (non-benign write-write races accepted)',
    killers: ['thm-4.3.7-explore', 'thm-4.3.7-random', 'lemma-4.3.8'],
    install: () =>
      patch(BigStepMachine.prototype, 'checkPending', () =>
        function (this: unknown, ...args: unknown[]) {
          (args[0] as { pending: unknown[] }).pending.length = 0;
          return undefined;
        },
      ),
  },
  {
    id: 'oob-read-clamps',
    description: 'an out-of-bounds read returns the nearest in-bounds cell (clamped indices) instead of having no semantics, and reads a location outside ρ',
    killers: ['lemma-4.2.4', 'thm-4.3.3'],
    install: () =>
      patch(BigStepMachine.prototype, 'oobRead', (orig) =>
        function (this: unknown, ...args: unknown[]) {
          const [ref, idx] = args as [{ dims: readonly number[]; elem: ValueType; cells: Cells | null; offset(i: readonly number[]): number }, readonly (number | bigint)[]];
          const clamped = idx.map((x, k) => Math.min(Math.max(Number(x), 0), ref.dims[k]! - 1));
          const k = ref.offset(clamped);
          const v = k >= 0 && ref.cells ? getCell(ref.cells, ref.elem, k) : undefined;
          return v === undefined ? orig.apply(this, args) : v;
        },
      ),
  },
  {
    id: 'keep-local',
    description: 'U-ALLOCATE forgets to erase the local array: δμ ∖ dom(μ_a) and ρ ∖ dom(μ_a) not taken',
    killers: ['lemma-4.2.4', 'derivations', 'thm-5.3.1'],
    install: () =>
      patch(Recorder.prototype, 'erase', () =>
        function () {
          return undefined;
        },
      ),
  },
  {
    id: 'for-off-by-one',
    description: 'U-FOR runs the iterations 0 … n instead of 0 … n−1',
    killers: ['thm-4.3.3', 'thm-5.5.4', 'thm-5.3.1'],
    install: () =>
      patch(BigStepCompiler.prototype, 'U_FOR', (orig) =>
        function (this: unknown, ...args: unknown[]) {
          const code = orig.apply(this, args) as string;
          const mutated = code.replace(/for \((v\d+) = 0; \1 < (n\d+);/, 'for ($1 = 0; $1 <= $2;');
          if (mutated === code) throw new Error('mutants: U_FOR code changed shape; update the for-off-by-one mutant');
          return mutated;
        },
      ),
  },
  {
    id: 'update-reversed',
    description: '▷ in the wrong order: δμ1 ▷ δμ2 computed as δμ2 ▷ δμ1 (the first write to a location wins in δμ)',
    killers: ['thm-4.3.3', 'derivations', 'thm-5.3.1'],
    install: () => {
      const undoClose = patch(Recorder.prototype, 'close', () =>
        function (this: unknown) {
          const r = this as RecorderState;
          const o = r.stack.pop()!;
          if (!o.node) return undefined;
          const dmu = new Map<number, [LogEntry['ref'], number, unknown]>();
          for (let i = o.w; i < r.wlog.length; i++) {
            const e = r.wlog[i]!;
            if (e.ref && !dmu.has(e.ref.base + e.k)) dmu.set(e.ref.base + e.k, [e.ref, e.k, e.v]);
          }
          const rho = new Map<number, [LogEntry['ref'], number]>();
          for (let i = o.r; i < r.rlog.length; i++) {
            const e = r.rlog[i]!;
            if (e.ref) rho.set(e.ref.base + e.k, [e.ref, e.k]);
          }
          const show = (ref: LogEntry['ref'], k: number): string => (ref as unknown as { showLoc(k: number): string }).showLoc(k);
          o.node.dmu = [...dmu.entries()].sort((a, b) => a[0] - b[0]).map(([, [ref, k, v]]) => [show(ref, k), valueToJson(v as Value)]);
          o.node.rho = [...rho.entries()].sort((a, b) => a[0] - b[0]).map(([, [ref, k]]) => show(ref, k));
          return undefined;
        },
      );
      const undoEffects = patch(Recorder.prototype, 'effects', () =>
        function (this: unknown) {
          const r = this as RecorderState;
          const dmu = new Map<number, { ref: unknown; k: number; v: unknown }>();
          for (const e of r.wlog) if (e.ref && !dmu.has(e.ref.base + e.k)) dmu.set(e.ref.base + e.k, { ref: e.ref, k: e.k, v: e.v });
          const rho = new Map<number, { ref: unknown; k: number }>();
          for (const e of r.rlog) if (e.ref) rho.set(e.ref.base + e.k, { ref: e.ref, k: e.k });
          return { dmu, rho };
        },
      );
      return () => {
        undoClose();
        undoEffects();
      };
    },
  },
  {
    id: 'select-lazy',
    description: 'select made lazy: only the chosen branch is evaluated (a ⊥ in the other one no longer makes it ⊥)',
    killers: ['derivations', 'lemma-4.3.8'],
    install: () =>
      patch(Emitter.prototype, 'SELECT', () =>
        function (this: unknown, ...args: unknown[]) {
          return `(${String(args[0])} ? ${String(args[1])} : ${String(args[2])})`;
        },
      ),
  },
  {
    id: 'offset-transposed',
    description: 'two-dimensional array accesses use column-major offsets (a read goes to another cell than the one rd(e) names)',
    killers: ['thm-4.2.2', 'derivations'],
    install: () => {
      const h = HELPERS as unknown as Table;
      const o2 = h.$o2;
      const q2 = h.$q2;
      h.$o2 = (ref: { dims: readonly number[] }, i: unknown, j: unknown): number =>
        typeof i === 'number' && typeof j === 'number' && i >= 0 && j >= 0 && i < ref.dims[0]! && j < ref.dims[1]! ? j * ref.dims[0]! + i : -1;
      h.$q2 = (i: unknown, j: unknown, z0: number, z1: number): number => (typeof i === 'number' && typeof j === 'number' && i >= 0 && j >= 0 && i < z0 && j < z1 ? j * z0 + i : -1);
      return () => {
        h.$o2 = o2;
        h.$q2 = q2;
      };
    },
  },
  {
    id: 'int-add-unwrapped',
    description: "machine-integer '+' does not wrap (plain JS addition): results leave the type",
    killers: ['thm-4.4.1', 'thm-4.4.2'],
    install: () =>
      patch(Emitter.prototype, 'binary', (orig) =>
        function (this: unknown, ...args: unknown[]) {
          const [e, vt, sc] = args as [{ op: string; left: unknown; right: unknown }, string, unknown];
          if (e.op === '+' && ['i8', 'i16', 'i32', 'u8', 'u16', 'u32'].includes(vt)) {
            const em = this as { value: (x: unknown, s: unknown) => string };
            return `(${em.value(e.left, sc)} + ${em.value(e.right, sc)})`;
          }
          return orig.apply(this, args);
        },
      ),
  },
  {
    id: 'verifier-no-rw-safe',
    description: "the verifier's S-PARLOOP without its rw-safe obligation",
    killers: ['thm-5.5.4-races', 'thm-5.5.4'],
    install: () =>
      patch(SymbolicEvaluator.prototype, 'emptiness', (orig) =>
        function (this: unknown, ...args: unknown[]) {
          if (args[0] === 'rw-race') return undefined;
          return orig.apply(this, args);
        },
      ),
  },
  {
    id: 'verifier-no-red-operator',
    description: "the verifier's accumulation rule without RED-OPERATOR (an accumulation may use another operator than its reduction's)",
    killers: ['red-soundness'],
    install: () =>
      patch(SymbolicEvaluator.prototype, 'validity', (orig) =>
        function (this: unknown, ...args: unknown[]) {
          if (args[1] === 'RED-OPERATOR') return undefined;
          return orig.apply(this, args);
        },
      ),
  },
];

export function mutantById(id: string): Mutant {
  const m = MUTANTS.find((x) => x.id === id);
  if (!m) throw new Error(`no mutant ${id}`);
  return m;
}

/** Run `f` with mutant `m` installed. */
export async function withMutant<T>(m: Mutant, f: () => Promise<T>): Promise<T> {
  const undo = m.install();
  try {
    return await f();
  } finally {
    undo();
  }
}
