// Hand-written algorithms and schedules for the reference compiler's tests: each exercises a group
// of schedule features, and each injectable bug has one that triggers it (with parameters where
// a concrete run shows it).

import type { BugName } from '../compilers/reference/bugs.ts';

export interface Fixture {
  readonly alg: string;
  readonly sched: string;
  /** Parameter sets for concrete runs. */
  readonly params: readonly Record<string, number>[];
}

/** A stencil computed per tile, a reduction with a parallel pure loop. */
export const STENCIL: Fixture = {
  alg: `
    algorithm stencil;
    param N, K;
    assume N >= 0 && K >= 0;
    input A(x): i32;
    input W(x, r): i32;
    func P(x): i32 = A(x) + A(x + 1);
    func F(x): i32 = P(x) * 2 + P(x - 1);
    update F(x) = F(x) + W(x, r) over r in [0, K);
    output F(N);`,
  sched: `
    F.split(x, xo, xi, 4).parallel(xo)
    P.compute_at(F, xo)
    F.update(0).split(x, xo, xi, 3).parallel(xo)`,
  params: [{ N: 6, K: 2 }, { N: 7, K: 3 }, { N: 4, K: 0 }],
};

/** A 3×3 blur: sliding window over y with storage folding, vectorised x (thesis §2.4, §6.3). */
export const BLUR: Fixture = {
  alg: `
    algorithm blur;
    param W, H;
    assume W >= 0 && H >= 0;
    input In(x, y): u16;
    func BX(x, y): u16 = (In(x, y) + In(x + 1, y) + In(x + 2, y)) / 3;
    func BY(x, y): u16 = (BX(x, y) + BX(x, y + 1) + BX(x, y + 2)) / 3;
    output BY(W, H);`,
  sched: `
    BY.split(y, yo, yi, 8).parallel(yo).vectorize(x, 4)
    BX.store_at(BY, yo).compute_at(BY, yi).vectorize(x, 4)`,
  params: [{ W: 6, H: 9 }, { W: 4, H: 8 }, { W: 5, H: 17 }],
};

/** GEMM-like reduction: tiles with guards, an unrolled reduction split, a specialisation. */
export const MATMUL: Fixture = {
  alg: `
    algorithm mm;
    param N, M, K;
    assume N >= 0 && M >= 0 && K >= 0;
    input A(i, k): f32;
    input B(k, j): f32;
    func C(i, j): f32 = 0.0;
    update C(i, j) = C(i, j) + A(i, k) * B(k, j) over k in [0, K);
    output C(N, M);`,
  sched: `
    C.tile(i, j, io, jo, ii, ji, 4, 2, GuardWithIf).parallel(jo)
    C.update(0).split(i, io, ii, 4).split(k, ko, ki, 2).reorder(ki, ii, j, io, ko).vectorize(ii).unroll(ki)
    C.update(0).specialize(N >= 8).parallel(j)`,
  params: [{ N: 9, M: 3, K: 3 }, { N: 2, M: 2, K: 5 }],
};

/** Two reduction variables with a filter, RoundUp and fuse on a root producer, an update of a producer. */
export const MIXED: Fixture = {
  alg: `
    algorithm mixed;
    param N, M, K;
    assume N >= 1 && M >= 1 && K >= 0;
    input A(x, y): i32;
    input B(x): i32;
    func G(x, y): i32 = A(x, y) * 3;
    func P(x, y): i32 = G(x, y) + G(x, y + 1);
    func S(x, y): i32 = P(x, y);
    update S(x, y) = S(x, y) * 2 + B(x);
    func F(x, y): i32 = S(x, y) + B(x);
    update F(x, y) = F(x, y) * 2 + A(x + rx, y + ry) over rx in [0, 2), ry in [0, K) where rx != ry;
    output F(N, M);`,
  sched: `
    P.compute_root().split(x, xo, xi, 4, RoundUp).reorder(xi, y, xo).fuse(xi, y, xy)
    S.compute_at(F, y)
    F.split(x, xo, xi, 2, GuardWithIf).parallel(xo)
    F.update(0).parallel(y)`,
  params: [{ N: 5, M: 3, K: 2 }, { N: 1, M: 1, K: 0 }, { N: 3, M: 4, K: 3 }],
};

/** For swapped-loop-extents: a reorder of loops with different extents. */
const REORDER: Fixture = {
  alg: `
    param N, M;
    assume N >= 0 && M >= 0;
    input A(x, y): i32;
    func F(x, y): i32 = A(x, y) * 2;
    output F(N, M);`,
  sched: `F.reorder(y, x)`,
  params: [{ N: 2, M: 5 }],
};

/** For unroll-drop-last. */
const UNROLL: Fixture = {
  alg: `
    param N;
    assume N >= 0;
    input A(x): i32;
    func F(x): i32 = A(x) + 1;
    output F(N);`,
  sched: `F.split(x, xo, xi, 4).unroll(xi)`,
  params: [{ N: 8 }],
};

/** For specialize-inverted: the specialised split needs N >= 8, which its condition gives. */
const SPECIALIZE: Fixture = {
  alg: UNROLL.alg,
  sched: `F.specialize(N >= 8).split(x, xo, xi, 8, ShiftInwards)`,
  params: [{ N: 3 }],
};

/** For dropped-update-stage: a producer with an update. */
const PRODUCER_UPDATE: Fixture = {
  alg: `
    param N, K;
    assume N >= 0 && K >= 0;
    input A(x): i32;
    func P(x): i32 = A(x);
    update P(x) = P(x) * 2 + A(x + r) over r in [0, K);
    func F(x): i32 = P(x) + 1;
    output F(N);`,
  sched: `P.compute_root()`,
  params: [{ N: 3, K: 2 }],
};

/** For missing-tail-guard: a GuardWithIf split of the output. */
const GUARDED: Fixture = {
  alg: UNROLL.alg,
  sched: `F.split(x, xo, xi, 4, GuardWithIf)`,
  params: [{ N: 6 }],
};

/** A fixture on which each injected bug shows in a concrete run. */
export const BUG_FIXTURES: Record<BugName, Fixture> = {
  'off-by-one-tail': STENCIL,
  'missing-tail-guard': GUARDED,
  'shift-inwards-update': { ...STENCIL, params: [{ N: 7, K: 2 }] },
  'parallel-recurrence': { ...STENCIL, params: [{ N: 6, K: 3 }] },
  'wrong-compute-at-level': STENCIL,
  'dropped-update-stage': PRODUCER_UPDATE,
  'swapped-loop-extents': REORDER,
  'wrong-fold-factor': BLUR,
  'sliding-no-warmup': BLUR,
  'input-halo-dropped': STENCIL,
  'unroll-drop-last': UNROLL,
  'specialize-inverted': SPECIALIZE,
};
