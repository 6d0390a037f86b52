// KERNEL: @kernel_gemm
// SIZES: NI=7 NJ=6 NK=5 C=NIxNJ A=NIxNK B=NKxNJ
// ASSUME: NI >= 0 && NJ >= 0 && NK >= 0 && C_d0 == NI && C_d1 == NJ && A_d0 == NI && A_d1 == NK && B_d0 == NK && B_d1 == NJ
// PIPELINE tile: --affine-loop-tile='tile-size=3'
// EXPECT tile: valid
// RUNNER tile: agrees
// PIPELINE unroll: --affine-loop-unroll=unroll-factor=3
// EXPECT unroll: valid
// RUNNER unroll: agrees
// PIPELINE unrolljam: --affine-loop-unroll-jam=unroll-jam-factor=2
// EXPECT unrolljam: valid
// RUNNER unrolljam: agrees
// PIPELINE parallel: --affine-parallelize
// EXPECT parallel: valid
// RUNNER parallel: agrees
// PIPELINE vector: --affine-super-vectorize='virtual-vector-size=4'
// EXPECT vector: valid
// RUNNER vector: agrees
//
// PolyBench/C 4.2 gemm: C := alpha*A*B + beta*C.
func.func @kernel_gemm(%NI: index, %NJ: index, %NK: index, %alpha: f64, %beta: f64,
                       %C: memref<?x?xf64>, %A: memref<?x?xf64>, %B: memref<?x?xf64>) {
  affine.for %i = 0 to %NI {
    affine.for %j = 0 to %NJ {
      %c = affine.load %C[%i, %j] : memref<?x?xf64>
      %s = arith.mulf %c, %beta : f64
      affine.store %s, %C[%i, %j] : memref<?x?xf64>
    }
    affine.for %k = 0 to %NK {
      affine.for %j = 0 to %NJ {
        %a = affine.load %A[%i, %k] : memref<?x?xf64>
        %aa = arith.mulf %alpha, %a : f64
        %b = affine.load %B[%k, %j] : memref<?x?xf64>
        %p = arith.mulf %aa, %b : f64
        %c = affine.load %C[%i, %j] : memref<?x?xf64>
        %n = arith.addf %c, %p : f64
        affine.store %n, %C[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}
