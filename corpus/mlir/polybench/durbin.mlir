// KERNEL: @kernel_durbin
// SEED: 1
// PIPELINE tile: --affine-loop-tile='tile-size=3'
// EXPECT tile: valid
// RUNNER tile: agrees
// PIPELINE unroll: --affine-loop-unroll=unroll-factor=3
// EXPECT unroll: valid
// RUNNER unroll: agrees
// PIPELINE parallel: --affine-parallelize
// EXPECT parallel: valid
// RUNNER parallel: agrees
// PIPELINE copy: --affine-data-copy-generate='generate-dma=false fast-mem-space=0'
// EXPECT copy: valid
// RUNNER copy: agrees
// PIPELINE licm: --affine-loop-invariant-code-motion
// EXPECT licm: valid
// RUNNER licm: agrees
// PIPELINE vector: --affine-super-vectorize='virtual-vector-size=4'
// EXPECT vector: invalid output-mismatch
// RUNNER vector: differs
//
// PolyBench/C 4.2 durbin: Levinson-Durbin recursion; the scalars alpha, beta and sum are 1-element
// vector: MLIR 16 miscompiles this kernel; an instance of https://github.com/llvm/llvm-project/issues/218120 (a loop whose trip count is not a multiple of 4 is vectorized past its iteration space).
// memrefs (local accumulators), r[k-i-1] a reversed access.
#km1 = affine_map<(d0, d1) -> (d0 - d1 - 1)>
#id = affine_map<(d0) -> (d0)>
func.func @kernel_durbin(%r: memref<7xf64>, %y: memref<7xf64>, %z: memref<7xf64>) {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %alpha = memref.alloca() : memref<1xf64>
  %beta = memref.alloca() : memref<1xf64>
  %sum = memref.alloca() : memref<1xf64>
  %r0 = affine.load %r[0] : memref<7xf64>
  %nr0 = arith.negf %r0 : f64
  affine.store %nr0, %y[0] : memref<7xf64>
  affine.store %one, %beta[0] : memref<1xf64>
  affine.store %nr0, %alpha[0] : memref<1xf64>
  affine.for %k = 1 to 7 {
    %a = affine.load %alpha[0] : memref<1xf64>
    %aa = arith.mulf %a, %a : f64
    %oma = arith.subf %one, %aa : f64
    %b = affine.load %beta[0] : memref<1xf64>
    %nb = arith.mulf %oma, %b : f64
    affine.store %nb, %beta[0] : memref<1xf64>
    affine.store %zero, %sum[0] : memref<1xf64>
    affine.for %i = 0 to #id(%k) {
      %rv = affine.load %r[%k - %i - 1] : memref<7xf64>
      %yv = affine.load %y[%i] : memref<7xf64>
      %p = arith.mulf %rv, %yv : f64
      %s = affine.load %sum[0] : memref<1xf64>
      %ns = arith.addf %s, %p : f64
      affine.store %ns, %sum[0] : memref<1xf64>
    }
    %rk = affine.load %r[%k] : memref<7xf64>
    %s = affine.load %sum[0] : memref<1xf64>
    %rs = arith.addf %rk, %s : f64
    %b2 = affine.load %beta[0] : memref<1xf64>
    %q = arith.divf %rs, %b2 : f64
    %na = arith.negf %q : f64
    affine.store %na, %alpha[0] : memref<1xf64>
    affine.for %i = 0 to #id(%k) {
      %yi = affine.load %y[%i] : memref<7xf64>
      %a2 = affine.load %alpha[0] : memref<1xf64>
      %yr = affine.load %y[%k - %i - 1] : memref<7xf64>
      %p = arith.mulf %a2, %yr : f64
      %s2 = arith.addf %yi, %p : f64
      affine.store %s2, %z[%i] : memref<7xf64>
    }
    affine.for %i = 0 to #id(%k) {
      %zi = affine.load %z[%i] : memref<7xf64>
      affine.store %zi, %y[%i] : memref<7xf64>
    }
    %a3 = affine.load %alpha[0] : memref<1xf64>
    affine.store %a3, %y[%k] : memref<7xf64>
  }
  return
}
