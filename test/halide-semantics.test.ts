// The semantics table of docs/halide.md, row by row, against Halide 14's own `realize`: each row is
// a one-Func pipeline over inputs of edge values (test/halide-semantics.py, one Python process for
// all of them). The pipeline is lowered by real Halide and translated as `sched halide` does;
// the translation's big-step run on the same inputs must give realize's values bit for bit where
// Halide defines the result, and stop with `undefined-behaviour` where Halide leaves it undefined
// (what realize computes there is shown, not compared). A row of the table without a probe here
// fails the coverage test.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ValueType } from '../core/language/ast.ts';
import { checkSource } from '../core/language/check.ts';
import { fromWire, halideMissing, halidePython } from '../compilers/halide/run.ts';
import { type DriverOutput, translate } from '../compilers/halide/translate.ts';
import { getCell } from '../semantics/memory.ts';
import { runImpl } from '../semantics/run.ts';
import { showValue, type Value } from '../semantics/values.ts';

const ROOT = join(import.meta.dirname, '..');
const MISSING = halideMissing();
if (MISSING !== null) process.stderr.write(`halide-semantics.test: skipped: ${MISSING}\n`);

/** The probes of test/halide-semantics.py, in its order. */
const PROBES = [
  'int32-add', 'int32-add-overflow', 'int32-sub-overflow', 'int32-mul-overflow', 'int64-mul', 'int64-add-overflow',
  'uint8-add-wrap', 'int16-mul-wrap', 'int8-sub-wrap', 'uint32-sub-wrap', 'uint64-add-wrap', 'int32-div-euclid',
  'int32-mod-euclid', 'uint8-div-mod-zero', 'float-mod', 'float-div', 'cast-int-narrow', 'cast-int-widen', 'cast-float-int',
  'cast-float-int-out-of-range', 'cast-float-int-nan', 'cast-float-int-inf', 'cast-float-uint', 'cast-float-uint-out-of-range',
  'cast-int-float', 'cast-int64-float', 'cast-f64-f32', 'cast-bool-int', 'cast-bool-float', 'saturating-cast-uint8',
  'saturating-cast-int32-float', 'abs-int-min', 'absd-int', 'min-max-nan-zero', 'select-discards-undefined', 'float-constants',
  'double-constants', 'integer-constants', 'uint64-constants', 'is-nan-trunc', 'reinterpret-int', 'int8-neg-wrap',
  'int32-neg-overflow', 'sqrt-floor-ceil', 'sqrt-floor-ceil-f64', 'exp-log-pow', 'bool-logic', 'hints', 'float-neg-zero', 'mux-out-of-range',
];

interface Row {
  readonly id: string;
  readonly flavor: 'defined' | 'undefined';
  readonly n: number;
  readonly driver: DriverOutput;
  readonly inputs: Record<string, { readonly type: string; readonly values: string[] }>;
  readonly realize: string[] | null;
  readonly error: string | null;
}

describe.skipIf(MISSING !== null)("the semantics table (docs/halide.md) against Halide 14's realize", () => {
  let rows: Map<string, Row> = new Map();
  beforeAll(() => {
    const r = spawnSync(halidePython(), [join(ROOT, 'test/halide-semantics.py')], { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 600_000 });
    const last = r.stdout.trim().split('\n').pop() ?? '';
    if (r.status !== 0) throw new Error(`test/halide-semantics.py failed (exit ${r.status}): ${r.stderr.slice(-2000)}`);
    rows = new Map((JSON.parse(last) as { rows: Row[] }).rows.map((x) => [x.id, x]));
  }, 600_000);

  it('probes every row of the table, and the table names every probe', () => {
    expect([...rows.keys()]).toEqual(PROBES);
    const doc = readFileSync(join(ROOT, 'docs/halide.md'), 'utf8');
    const named = [...doc.matchAll(/`probe: ([a-z0-9-]+)`/g)].map((m) => m[1]);
    expect(PROBES.filter((p) => !named.includes(p)), 'probes the table does not name').toEqual([]);
    expect(named.filter((p) => !PROBES.includes(p!)), 'table rows without a probe').toEqual([]);
  });

  for (const id of PROBES) {
    it(id, async () => {
      const row = rows.get(id)!;
      expect(row.error, `Halide's realize failed: ${row.error}`).toBeNull();
      const t = translate(row.driver, `probe_${id.replace(/-/g, '_')}`);
      const ci = (await checkSource(`${id}.sched`, t.text)).impls[0]!;
      const params = new Map<string, bigint>();
      for (const p of t.params) params.set(p.sched, /\.min\.\d+$/.test(p.halide) ? 0n : BigInt(row.n));
      const source = {
        input: (tensor: string, type: ValueType, point: readonly (number | bigint)[]): Value => {
          const inp = row.inputs[tensor];
          if (!inp) throw new Error(`no input ${tensor}`);
          return fromWire(inp.values[Number(point[0])]!, type);
        },
        unconstrained: (): Value => {
          throw new Error('no unconstrained point in a probe');
        },
      };
      const run = runImpl(ci, params, { inputs: source });
      const rep = run.report;
      if (row.flavor === 'undefined') {
        // Halide leaves the result undefined (realize happened to give the value shown); the
        // translation never gives it a meaning: its run stops.
        expect([rep.outcome, rep.error?.kind], `realize gave ${row.realize?.join(', ')}; the translation:\n${t.text}`).toEqual(['error', 'undefined-behaviour']);
        return;
      }
      expect(rep.error, rep.error?.message).toBeNull();
      const out = run.memory.get(t.outputArray)!;
      const elem = out.ref.elem;
      const ours = Array.from({ length: row.n }, (_, k) => getCell(out.cells, elem, k));
      const theirs = row.realize!.map((w) => fromWire(w, elem));
      // Bit for bit; SCHED's NaNs are one value.
      const same = (a: Value | undefined, b: Value): boolean => Object.is(a, b) || (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b));
      const diffs = ours.flatMap((v, k) => (same(v, theirs[k]!) ? [] : [`[${k}]: translation ${showValue(v)}, realize ${showValue(theirs[k]!)}`]));
      expect(diffs, t.text).toEqual([]);
      expect(rep.outcome, 'the translation against its spec').toBe('match');
    }, 120_000);
  }
});
