// KERNEL: @kernel_trmm
// SIZES: M=7 N=5 A=MxM B=MxN
// ASSUME: M >= 0 && N >= 0 && A_d0 == M && A_d1 == M && B_d0 == M && B_d1 == N
// PIPELINE tile: --affine-loop-tile='tile-size=3'
// EXPECT tile: valid
// RUNNER tile: agrees
// PIPELINE unroll: --affine-loop-unroll=unroll-factor=3
// EXPECT unroll: valid
// RUNNER unroll: agrees
// PIPELINE fusion: --pass-pipeline='builtin.module(func.func(affine-loop-fusion))'
// EXPECT fusion: valid
// RUNNER fusion: agrees
// PIPELINE parallel: --affine-parallelize
// EXPECT parallel: valid
// RUNNER parallel: agrees
// PIPELINE copy: --affine-data-copy-generate='generate-dma=false fast-mem-space=0'
// EXPECT copy: valid
// RUNNER copy: agrees
//
// PolyBench/C 4.2 trmm: B := alpha * A^T B, A unit lower triangular.
#after = affine_map<(d0) -> (d0 + 1)>
func.func @kernel_trmm(%M: index, %N: index, %alpha: f64, %A: memref<?x?xf64>, %B: memref<?x?xf64>) {
  affine.for %i = 0 to %M {
    affine.for %j = 0 to %N {
      affine.for %k = #after(%i) to %M {
        %a = affine.load %A[%k, %i] : memref<?x?xf64>
        %bk = affine.load %B[%k, %j] : memref<?x?xf64>
        %p = arith.mulf %a, %bk : f64
        %b = affine.load %B[%i, %j] : memref<?x?xf64>
        %s = arith.addf %b, %p : f64
        affine.store %s, %B[%i, %j] : memref<?x?xf64>
      }
      %b = affine.load %B[%i, %j] : memref<?x?xf64>
      %r = arith.mulf %alpha, %b : f64
      affine.store %r, %B[%i, %j] : memref<?x?xf64>
    }
  }
  return
}
