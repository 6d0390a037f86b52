// Plain references of the PolyBench/C 4.2 kernels of this folder, written from the C sources the
// way PolyBench writes them (same loops, same order of floating-point operations, so the results
// are bit for bit those of a correct compilation). test/mlir-polybench.test.ts runs each .mlir
// kernel under mlir-cpu-runner and compares every output cell with these on the same inputs: the
// check that the affine MLIR means what PolyBench means.

/** A kernel argument: a scalar, or an array (row-major cells with its shape). */
export interface Arr {
  readonly shape: readonly number[];
  readonly data: number[];
}
export type Args = Readonly<Record<string, number | Arr>>;

function arr(a: Args, name: string): Arr {
  const v = a[name];
  if (v === undefined || typeof v === 'number') throw new Error(`reference: no array ${name}`);
  return v;
}
function num(a: Args, name: string): number {
  const v = a[name];
  if (typeof v !== 'number') throw new Error(`reference: no scalar ${name}`);
  return v;
}

/** 2-D and 3-D views over an Arr. */
function m2(x: Arr): { get: (i: number, j: number) => number; set: (i: number, j: number, v: number) => void; rows: number; cols: number } {
  const cols = x.shape[1]!;
  return { get: (i, j) => x.data[i * cols + j]!, set: (i, j, v) => void (x.data[i * cols + j] = v), rows: x.shape[0]!, cols };
}
function m3(x: Arr): { get: (i: number, j: number, k: number) => number; set: (i: number, j: number, k: number, v: number) => void } {
  const [, b, c] = x.shape as [number, number, number];
  return { get: (i, j, k) => x.data[(i * b + j) * c + k]!, set: (i, j, k, v) => void (x.data[(i * b + j) * c + k] = v) };
}

const i32 = (x: number): number => x | 0;

export const REFERENCES: Readonly<Record<string, (a: Args) => void>> = {
  kernel_gemm(a) {
    const C = m2(arr(a, 'C')), A = m2(arr(a, 'A')), B = m2(arr(a, 'B'));
    const alpha = num(a, 'alpha'), beta = num(a, 'beta');
    for (let i = 0; i < C.rows; i++) {
      for (let j = 0; j < C.cols; j++) C.set(i, j, C.get(i, j) * beta);
      for (let k = 0; k < A.cols; k++) for (let j = 0; j < C.cols; j++) C.set(i, j, C.get(i, j) + alpha * A.get(i, k) * B.get(k, j));
    }
  },
  kernel_2mm(a) {
    const tmp = m2(arr(a, 'tmp')), A = m2(arr(a, 'A')), B = m2(arr(a, 'B')), C = m2(arr(a, 'C')), D = m2(arr(a, 'D'));
    const alpha = num(a, 'alpha'), beta = num(a, 'beta');
    for (let i = 0; i < tmp.rows; i++) for (let j = 0; j < tmp.cols; j++) {
      tmp.set(i, j, 0);
      for (let k = 0; k < A.cols; k++) tmp.set(i, j, tmp.get(i, j) + alpha * A.get(i, k) * B.get(k, j));
    }
    for (let i = 0; i < D.rows; i++) for (let j = 0; j < D.cols; j++) {
      D.set(i, j, D.get(i, j) * beta);
      for (let k = 0; k < tmp.cols; k++) D.set(i, j, D.get(i, j) + tmp.get(i, k) * C.get(k, j));
    }
  },
  kernel_3mm(a) {
    const mm = (X: ReturnType<typeof m2>, P: ReturnType<typeof m2>, Q: ReturnType<typeof m2>): void => {
      for (let i = 0; i < X.rows; i++) for (let j = 0; j < X.cols; j++) {
        X.set(i, j, 0);
        for (let k = 0; k < P.cols; k++) X.set(i, j, X.get(i, j) + P.get(i, k) * Q.get(k, j));
      }
    };
    const E = m2(arr(a, 'E')), F = m2(arr(a, 'F')), G = m2(arr(a, 'G'));
    mm(E, m2(arr(a, 'A')), m2(arr(a, 'B')));
    mm(F, m2(arr(a, 'C')), m2(arr(a, 'D')));
    mm(G, E, F);
  },
  kernel_atax(a) {
    const A = m2(arr(a, 'A')), x = arr(a, 'x').data, y = arr(a, 'y').data, tmp = arr(a, 'tmp').data;
    for (let i = 0; i < A.cols; i++) y[i] = 0;
    for (let i = 0; i < A.rows; i++) {
      tmp[i] = 0;
      for (let j = 0; j < A.cols; j++) tmp[i] = tmp[i]! + A.get(i, j) * x[j]!;
      for (let j = 0; j < A.cols; j++) y[j] = y[j]! + A.get(i, j) * tmp[i]!;
    }
  },
  kernel_bicg(a) {
    const A = m2(arr(a, 'A')), s = arr(a, 's').data, q = arr(a, 'q').data, p = arr(a, 'p').data, r = arr(a, 'r').data;
    for (let i = 0; i < A.cols; i++) s[i] = 0;
    for (let i = 0; i < A.rows; i++) {
      q[i] = 0;
      for (let j = 0; j < A.cols; j++) {
        s[j] = s[j]! + r[i]! * A.get(i, j);
        q[i] = q[i]! + A.get(i, j) * p[j]!;
      }
    }
  },
  kernel_mvt(a) {
    const A = m2(arr(a, 'A')), x1 = arr(a, 'x1').data, x2 = arr(a, 'x2').data, y1 = arr(a, 'y1').data, y2 = arr(a, 'y2').data;
    for (let i = 0; i < A.rows; i++) for (let j = 0; j < A.rows; j++) x1[i] = x1[i]! + A.get(i, j) * y1[j]!;
    for (let i = 0; i < A.rows; i++) for (let j = 0; j < A.rows; j++) x2[i] = x2[i]! + A.get(j, i) * y2[j]!;
  },
  kernel_gesummv(a) {
    const A = m2(arr(a, 'A')), B = m2(arr(a, 'B')), tmp = arr(a, 'tmp').data, x = arr(a, 'x').data, y = arr(a, 'y').data;
    const alpha = num(a, 'alpha'), beta = num(a, 'beta');
    for (let i = 0; i < A.rows; i++) {
      tmp[i] = 0;
      y[i] = 0;
      for (let j = 0; j < A.rows; j++) {
        tmp[i] = A.get(i, j) * x[j]! + tmp[i]!;
        y[i] = B.get(i, j) * x[j]! + y[i]!;
      }
      y[i] = alpha * tmp[i]! + beta * y[i]!;
    }
  },
  kernel_syrk(a) {
    const C = m2(arr(a, 'C')), A = m2(arr(a, 'A'));
    const alpha = num(a, 'alpha'), beta = num(a, 'beta');
    for (let i = 0; i < C.rows; i++) {
      for (let j = 0; j <= i; j++) C.set(i, j, C.get(i, j) * beta);
      for (let k = 0; k < A.cols; k++) for (let j = 0; j <= i; j++) C.set(i, j, C.get(i, j) + alpha * A.get(i, k) * A.get(j, k));
    }
  },
  kernel_syr2k(a) {
    const C = m2(arr(a, 'C')), A = m2(arr(a, 'A')), B = m2(arr(a, 'B'));
    const alpha = num(a, 'alpha'), beta = num(a, 'beta');
    for (let i = 0; i < C.rows; i++) {
      for (let j = 0; j <= i; j++) C.set(i, j, C.get(i, j) * beta);
      for (let k = 0; k < A.cols; k++) for (let j = 0; j <= i; j++) {
        C.set(i, j, C.get(i, j) + (A.get(j, k) * alpha * B.get(i, k) + B.get(j, k) * alpha * A.get(i, k)));
      }
    }
  },
  kernel_trmm(a) {
    const A = m2(arr(a, 'A')), B = m2(arr(a, 'B'));
    const alpha = num(a, 'alpha');
    for (let i = 0; i < B.rows; i++) for (let j = 0; j < B.cols; j++) {
      for (let k = i + 1; k < B.rows; k++) B.set(i, j, B.get(i, j) + A.get(k, i) * B.get(k, j));
      B.set(i, j, alpha * B.get(i, j));
    }
  },
  kernel_symm(a) {
    const C = m2(arr(a, 'C')), A = m2(arr(a, 'A')), B = m2(arr(a, 'B'));
    const alpha = num(a, 'alpha'), beta = num(a, 'beta');
    for (let i = 0; i < C.rows; i++) for (let j = 0; j < C.cols; j++) {
      let temp2 = 0;
      for (let k = 0; k < i; k++) {
        C.set(k, j, C.get(k, j) + alpha * B.get(i, j) * A.get(i, k));
        temp2 += B.get(k, j) * A.get(i, k);
      }
      C.set(i, j, beta * C.get(i, j) + alpha * B.get(i, j) * A.get(i, i) + alpha * temp2);
    }
  },
  kernel_doitgen(a) {
    const Ar = arr(a, 'A'), A = m3(Ar), C4 = m2(arr(a, 'C4')), sum = arr(a, 'sum').data;
    const [NR, NQ, NP] = Ar.shape as [number, number, number];
    for (let r = 0; r < NR; r++) for (let q = 0; q < NQ; q++) {
      for (let p = 0; p < NP; p++) {
        sum[p] = 0;
        for (let s = 0; s < NP; s++) sum[p] = sum[p]! + A.get(r, q, s) * C4.get(s, p);
      }
      for (let p = 0; p < NP; p++) A.set(r, q, p, sum[p]!);
    }
  },
  kernel_jacobi_1d(a) {
    const A = arr(a, 'A').data, B = arr(a, 'B').data;
    const N = A.length;
    for (let t = 0; t < 3; t++) {
      for (let i = 1; i < N - 1; i++) B[i] = 0.33333 * (A[i - 1]! + A[i]! + A[i + 1]!);
      for (let i = 1; i < N - 1; i++) A[i] = 0.33333 * (B[i - 1]! + B[i]! + B[i + 1]!);
    }
  },
  kernel_jacobi_2d(a) {
    const A = m2(arr(a, 'A')), B = m2(arr(a, 'B'));
    const N = A.rows;
    const sweep = (X: typeof A, Y: typeof A): void => {
      for (let i = 1; i < N - 1; i++) for (let j = 1; j < N - 1; j++) {
        Y.set(i, j, 0.2 * (X.get(i, j) + X.get(i, j - 1) + X.get(i, 1 + j) + X.get(1 + i, j) + X.get(i - 1, j)));
      }
    };
    for (let t = 0; t < 2; t++) {
      sweep(A, B);
      sweep(B, A);
    }
  },
  kernel_seidel_2d(a) {
    const A = m2(arr(a, 'A'));
    const N = A.rows;
    for (let t = 0; t < num(a, 'TSTEPS'); t++) for (let i = 1; i <= N - 2; i++) for (let j = 1; j <= N - 2; j++) {
      A.set(i, j, (A.get(i - 1, j - 1) + A.get(i - 1, j) + A.get(i - 1, j + 1) + A.get(i, j - 1) + A.get(i, j) + A.get(i, j + 1) + A.get(i + 1, j - 1) + A.get(i + 1, j) + A.get(i + 1, j + 1)) / 9.0);
    }
  },
  kernel_heat_3d(a) {
    const Ar = arr(a, 'A'), A = m3(Ar), B = m3(arr(a, 'B'));
    const N = Ar.shape[0]!;
    const step = (X: typeof A, Y: typeof A): void => {
      for (let i = 1; i < N - 1; i++) for (let j = 1; j < N - 1; j++) for (let k = 1; k < N - 1; k++) {
        Y.set(i, j, k,
          0.125 * (X.get(i + 1, j, k) - 2.0 * X.get(i, j, k) + X.get(i - 1, j, k))
          + 0.125 * (X.get(i, j + 1, k) - 2.0 * X.get(i, j, k) + X.get(i, j - 1, k))
          + 0.125 * (X.get(i, j, k + 1) - 2.0 * X.get(i, j, k) + X.get(i, j, k - 1))
          + X.get(i, j, k));
      }
    };
    for (let t = 1; t <= 2; t++) {
      step(A, B);
      step(B, A);
    }
  },
  kernel_fdtd_2d(a) {
    const ex = m2(arr(a, 'ex')), ey = m2(arr(a, 'ey')), hz = m2(arr(a, 'hz')), fict = arr(a, 'fict').data;
    const NX = ex.rows, NY = ex.cols;
    for (let t = 0; t < fict.length; t++) {
      for (let j = 0; j < NY; j++) ey.set(0, j, fict[t]!);
      for (let i = 1; i < NX; i++) for (let j = 0; j < NY; j++) ey.set(i, j, ey.get(i, j) - 0.5 * (hz.get(i, j) - hz.get(i - 1, j)));
      for (let i = 0; i < NX; i++) for (let j = 1; j < NY; j++) ex.set(i, j, ex.get(i, j) - 0.5 * (hz.get(i, j) - hz.get(i, j - 1)));
      for (let i = 0; i < NX - 1; i++) for (let j = 0; j < NY - 1; j++) {
        hz.set(i, j, hz.get(i, j) - 0.7 * (ex.get(i, j + 1) - ex.get(i, j) + ey.get(i + 1, j) - ey.get(i, j)));
      }
    }
  },
  kernel_gemver(a) {
    const A = m2(arr(a, 'A'));
    const [u1, v1, u2, v2, w, x, y, z] = ['u1', 'v1', 'u2', 'v2', 'w', 'x', 'y', 'z'].map((n) => arr(a, n).data) as [number[], number[], number[], number[], number[], number[], number[], number[]];
    const alpha = num(a, 'alpha'), beta = num(a, 'beta');
    const N = A.rows;
    for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) A.set(i, j, A.get(i, j) + u1[i]! * v1[j]! + u2[i]! * v2[j]!);
    for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) x[i] = x[i]! + beta * A.get(j, i) * y[j]!;
    for (let i = 0; i < N; i++) x[i] = x[i]! + z[i]!;
    for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) w[i] = w[i]! + alpha * A.get(i, j) * x[j]!;
  },
  kernel_trisolv(a) {
    const L = m2(arr(a, 'L')), x = arr(a, 'x').data, b = arr(a, 'b').data;
    for (let i = 0; i < L.rows; i++) {
      x[i] = b[i]!;
      for (let j = 0; j < i; j++) x[i] = x[i]! - L.get(i, j) * x[j]!;
      x[i] = x[i]! / L.get(i, i);
    }
  },
  kernel_lu(a) {
    const A = m2(arr(a, 'A'));
    const N = A.rows;
    for (let i = 0; i < N; i++) {
      for (let j = 0; j < i; j++) {
        for (let k = 0; k < j; k++) A.set(i, j, A.get(i, j) - A.get(i, k) * A.get(k, j));
        A.set(i, j, A.get(i, j) / A.get(j, j));
      }
      for (let j = i; j < N; j++) for (let k = 0; k < i; k++) A.set(i, j, A.get(i, j) - A.get(i, k) * A.get(k, j));
    }
  },
  kernel_floyd_warshall(a) {
    const P = m2(arr(a, 'path'));
    const N = P.rows;
    for (let k = 0; k < N; k++) for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) {
      const s = i32(P.get(i, k) + P.get(k, j));
      P.set(i, j, P.get(i, j) < s ? P.get(i, j) : s);
    }
  },
  kernel_nussinov(a) {
    const seq = arr(a, 'seq').data, T = m2(arr(a, 'table'));
    const N = seq.length;
    const max = (x: number, y: number): number => (x >= y ? x : y);
    const match = (b1: number, b2: number): number => ((((b1 + b2) << 24) >> 24) === 3 ? 1 : 0); // i8 sum
    for (let i = N - 1; i >= 0; i--) for (let j = i + 1; j < N; j++) {
      if (j - 1 >= 0) T.set(i, j, max(T.get(i, j), T.get(i, j - 1)));
      if (i + 1 < N) T.set(i, j, max(T.get(i, j), T.get(i + 1, j)));
      if (j - 1 >= 0 && i + 1 < N) {
        if (i < j - 1) T.set(i, j, max(T.get(i, j), i32(T.get(i + 1, j - 1) + match(seq[i]!, seq[j]!))));
        else T.set(i, j, max(T.get(i, j), T.get(i + 1, j - 1)));
      }
      for (let k = i + 1; k < j; k++) T.set(i, j, max(T.get(i, j), i32(T.get(i, k) + T.get(k + 1, j))));
    }
  },
  kernel_covariance(a) {
    const data = m2(arr(a, 'data')), cov = m2(arr(a, 'cov')), mean = arr(a, 'mean').data;
    const float_n = num(a, 'float_n');
    const N = data.rows, M = data.cols;
    for (let j = 0; j < M; j++) {
      mean[j] = 0.0;
      for (let i = 0; i < N; i++) mean[j] = mean[j]! + data.get(i, j);
      mean[j] = mean[j]! / float_n;
    }
    for (let i = 0; i < N; i++) for (let j = 0; j < M; j++) data.set(i, j, data.get(i, j) - mean[j]!);
    for (let i = 0; i < M; i++) for (let j = i; j < M; j++) {
      cov.set(i, j, 0.0);
      for (let k = 0; k < N; k++) cov.set(i, j, cov.get(i, j) + data.get(k, i) * data.get(k, j));
      cov.set(i, j, cov.get(i, j) / (float_n - 1.0));
      cov.set(j, i, cov.get(i, j));
    }
  },
  kernel_durbin(a) {
    const r = arr(a, 'r').data, y = arr(a, 'y').data, z = arr(a, 'z').data;
    const N = r.length;
    y[0] = -r[0]!;
    let beta = 1.0;
    let alpha = -r[0]!;
    for (let k = 1; k < N; k++) {
      beta = (1 - alpha * alpha) * beta;
      let sum = 0.0;
      for (let i = 0; i < k; i++) sum += r[k - i - 1]! * y[i]!;
      alpha = -(r[k]! + sum) / beta;
      for (let i = 0; i < k; i++) z[i] = y[i]! + alpha * y[k - i - 1]!;
      for (let i = 0; i < k; i++) y[i] = z[i]!;
      y[k] = alpha;
    }
  },
};
