// KERNEL: @main_kernel
// PIPELINE maximal: --pass-pipeline='builtin.module(func.func(affine-loop-fusion{fusion-maximal}))'
// EXPECT maximal: valid
// RUNNER maximal: agrees
// PIPELINE greedy: --pass-pipeline='builtin.module(func.func(affine-loop-fusion))'
// EXPECT greedy: valid
// RUNNER greedy: agrees
//
// From https://github.com/llvm/llvm-project/issues/132172 (reported against a test pass of trunk).
// MLIR 16's affine-loop-fusion{fusion-maximal} fuses the five-fold update into the initialisation
// with the repetition loop innermost (an interchange): correct, and a non-trivial reordering.
func.func @main_kernel(%alloc: memref<1x2x3xi16>) {
  %c81_i16 = arith.constant 81 : i16
  %c1_i16 = arith.constant 1 : i16
  affine.for %arg0 = 0 to 1 {
    affine.for %arg1 = 0 to 2 {
      affine.for %arg2 = 0 to 3 {
        affine.store %c1_i16, %alloc[%arg0, %arg1, %arg2] : memref<1x2x3xi16>
      }
    }
  }
  affine.for %arg0 = 0 to 5 {
    affine.for %arg1 = 0 to 1 {
      affine.for %arg2 = 0 to 2 {
        affine.for %arg3 = 0 to 3 {
          %0 = affine.load %alloc[%arg1, %arg2, %arg3] : memref<1x2x3xi16>
          %1 = arith.muli %0, %c81_i16 : i16
          affine.store %1, %alloc[%arg1, %arg2, %arg3] : memref<1x2x3xi16>
        }
      }
    }
  }
  return
}
