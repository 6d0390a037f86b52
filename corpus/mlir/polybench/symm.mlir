// KERNEL: @kernel_symm
// SIZES: M=5 N=6 C=MxN A=MxM B=MxN
// ASSUME: M >= 0 && N >= 0 && C_d0 == M && C_d1 == N && A_d0 == M && A_d1 == M && B_d0 == M && B_d1 == N
// PIPELINE tile: --affine-loop-tile='tile-size=3'
// EXPECT tile: valid
// RUNNER tile: agrees
// PIPELINE unroll: --affine-loop-unroll=unroll-factor=3
// EXPECT unroll: valid
// RUNNER unroll: agrees
// PIPELINE copy: --affine-data-copy-generate='generate-dma=false fast-mem-space=0'
// EXPECT copy: valid
// RUNNER copy: agrees
// PIPELINE licm: --affine-loop-invariant-code-motion
// EXPECT licm: valid
// RUNNER licm: agrees
// PIPELINE tile-unroll: --affine-loop-tile='tile-size=4' --affine-loop-unroll=unroll-factor=2
// EXPECT tile-unroll: valid
// RUNNER tile-unroll: agrees
//
// PolyBench/C 4.2 symm: C := alpha*A*B + beta*C, A symmetric (stored in its lower triangle);
// the scalar temp2 is a 0-d memref.
#id = affine_map<(d0) -> (d0)>
func.func @kernel_symm(%M: index, %N: index, %alpha: f64, %beta: f64, %C: memref<?x?xf64>,
                       %A: memref<?x?xf64>, %B: memref<?x?xf64>) {
  %zero = arith.constant 0.0 : f64
  %temp2 = memref.alloca() : memref<f64>
  affine.for %i = 0 to %M {
    affine.for %j = 0 to %N {
      affine.store %zero, %temp2[] : memref<f64>
      affine.for %k = 0 to #id(%i) {
        %bij = affine.load %B[%i, %j] : memref<?x?xf64>
        %t = arith.mulf %alpha, %bij : f64
        %aik = affine.load %A[%i, %k] : memref<?x?xf64>
        %p = arith.mulf %t, %aik : f64
        %ckj = affine.load %C[%k, %j] : memref<?x?xf64>
        %s = arith.addf %ckj, %p : f64
        affine.store %s, %C[%k, %j] : memref<?x?xf64>
        %bkj = affine.load %B[%k, %j] : memref<?x?xf64>
        %q = arith.mulf %bkj, %aik : f64
        %t2 = affine.load %temp2[] : memref<f64>
        %s2 = arith.addf %t2, %q : f64
        affine.store %s2, %temp2[] : memref<f64>
      }
      %cij = affine.load %C[%i, %j] : memref<?x?xf64>
      %bc = arith.mulf %beta, %cij : f64
      %bij = affine.load %B[%i, %j] : memref<?x?xf64>
      %ab = arith.mulf %alpha, %bij : f64
      %aii = affine.load %A[%i, %i] : memref<?x?xf64>
      %aba = arith.mulf %ab, %aii : f64
      %u = arith.addf %bc, %aba : f64
      %t2 = affine.load %temp2[] : memref<f64>
      %at2 = arith.mulf %alpha, %t2 : f64
      %r = arith.addf %u, %at2 : f64
      affine.store %r, %C[%i, %j] : memref<?x?xf64>
    }
  }
  return
}
