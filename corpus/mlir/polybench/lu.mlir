// KERNEL: @kernel_lu
// SIZES: N=6 A=NxN
// ASSUME: N >= 0 && A_d0 == N && A_d1 == N
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
// PIPELINE vector: --affine-super-vectorize='virtual-vector-size=4'
// EXPECT vector: valid
// RUNNER vector: agrees
//
// PolyBench/C 4.2 lu: in-place LU decomposition without pivoting.
#id = affine_map<(d0) -> (d0)>
func.func @kernel_lu(%N: index, %A: memref<?x?xf64>) {
  affine.for %i = 0 to %N {
    affine.for %j = 0 to #id(%i) {
      affine.for %k = 0 to #id(%j) {
        %aij = affine.load %A[%i, %j] : memref<?x?xf64>
        %aik = affine.load %A[%i, %k] : memref<?x?xf64>
        %akj = affine.load %A[%k, %j] : memref<?x?xf64>
        %p = arith.mulf %aik, %akj : f64
        %s = arith.subf %aij, %p : f64
        affine.store %s, %A[%i, %j] : memref<?x?xf64>
      }
      %aij = affine.load %A[%i, %j] : memref<?x?xf64>
      %ajj = affine.load %A[%j, %j] : memref<?x?xf64>
      %q = arith.divf %aij, %ajj : f64
      affine.store %q, %A[%i, %j] : memref<?x?xf64>
    }
    affine.for %j = #id(%i) to %N {
      affine.for %k = 0 to #id(%i) {
        %aij = affine.load %A[%i, %j] : memref<?x?xf64>
        %aik = affine.load %A[%i, %k] : memref<?x?xf64>
        %akj = affine.load %A[%k, %j] : memref<?x?xf64>
        %p = arith.mulf %aik, %akj : f64
        %s = arith.subf %aij, %p : f64
        affine.store %s, %A[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}
