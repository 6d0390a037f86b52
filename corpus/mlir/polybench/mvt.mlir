// KERNEL: @kernel_mvt
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
// PIPELINE fusionmax: --pass-pipeline='builtin.module(func.func(affine-loop-fusion{fusion-maximal}))'
// EXPECT fusionmax: invalid output-mismatch
// RUNNER fusionmax: differs
//
// PolyBench/C 4.2 mvt: x1 := x1 + A y1, x2 := x2 + A^T y2.
// fusionmax: MLIR 16 miscompiles this kernel; an instance of https://github.com/llvm/llvm-project/issues/61820 (sibling fusion-maximal nests the whole x1 reduction inside the x2 loop, repeating it).
func.func @kernel_mvt(%x1: memref<7xf64>, %x2: memref<7xf64>, %y1: memref<7xf64>,
                      %y2: memref<7xf64>, %A: memref<7x7xf64>) {
  affine.for %i = 0 to 7 {
    affine.for %j = 0 to 7 {
      %x = affine.load %x1[%i] : memref<7xf64>
      %a = affine.load %A[%i, %j] : memref<7x7xf64>
      %y = affine.load %y1[%j] : memref<7xf64>
      %p = arith.mulf %a, %y : f64
      %s = arith.addf %x, %p : f64
      affine.store %s, %x1[%i] : memref<7xf64>
    }
  }
  affine.for %i = 0 to 7 {
    affine.for %j = 0 to 7 {
      %x = affine.load %x2[%i] : memref<7xf64>
      %a = affine.load %A[%j, %i] : memref<7x7xf64>
      %y = affine.load %y2[%j] : memref<7xf64>
      %p = arith.mulf %a, %y : f64
      %s = arith.addf %x, %p : f64
      affine.store %s, %x2[%i] : memref<7xf64>
    }
  }
  return
}
