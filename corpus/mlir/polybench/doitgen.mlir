// KERNEL: @kernel_doitgen
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
// PolyBench/C 4.2 doitgen: A[r][q][:] := A[r][q][:] * C4 (sum is the work array).
func.func @kernel_doitgen(%A: memref<4x3x5xf64>,
                          %C4: memref<5x5xf64>, %sum: memref<5xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %r = 0 to 4 {
    affine.for %q = 0 to 3 {
      affine.for %p = 0 to 5 {
        affine.store %zero, %sum[%p] : memref<5xf64>
        affine.for %s = 0 to 5 {
          %a = affine.load %A[%r, %q, %s] : memref<4x3x5xf64>
          %c = affine.load %C4[%s, %p] : memref<5x5xf64>
          %m = arith.mulf %a, %c : f64
          %v = affine.load %sum[%p] : memref<5xf64>
          %n = arith.addf %v, %m : f64
          affine.store %n, %sum[%p] : memref<5xf64>
        }
      }
      affine.for %p = 0 to 5 {
        %v = affine.load %sum[%p] : memref<5xf64>
        affine.store %v, %A[%r, %q, %p] : memref<4x3x5xf64>
      }
    }
  }
  return
}
