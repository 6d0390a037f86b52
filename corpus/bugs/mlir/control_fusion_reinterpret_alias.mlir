// KERNEL: @pad_alias
// PIPELINE greedy: --pass-pipeline='builtin.module(func.func(affine-loop-fusion))'
// EXPECT greedy: valid
// RUNNER greedy: agrees
// PIPELINE maximal: --pass-pipeline='builtin.module(func.func(affine-loop-fusion{fusion-maximal}))'
// EXPECT maximal: valid
// RUNNER maximal: agrees
// PIPELINE tile: --affine-loop-tile='tile-size=4'
// EXPECT tile: valid
// RUNNER tile: agrees
//
// Reported as a miscompilation of trunk in https://github.com/llvm/llvm-project/issues/218696
// (a consumer moved before a write through a memref.reinterpret_cast alias). MLIR 16 does not fuse
// across the alias: a correct output in which two names of one buffer must be one array.
func.func @pad_alias(%e: memref<10x10xf32>) {
  %alloc = memref.alloc() : memref<10x10xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %srcv = arith.constant 5.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 10 {
      affine.store %cst, %alloc[%i, %j] : memref<10x10xf32>
    }
  }
  %view = memref.reinterpret_cast %alloc to offset: [0], sizes: [10, 10], strides: [10, 1] : memref<10x10xf32> to memref<10x10xf32, strided<[10, 1], offset: 0>>
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 10 {
      affine.store %srcv, %view[%i, %j] : memref<10x10xf32, strided<[10, 1], offset: 0>>
    }
  }
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 10 {
      %0 = affine.load %alloc[%i, %j] : memref<10x10xf32>
      %1 = arith.addf %0, %one : f32
      affine.store %1, %e[%i, %j] : memref<10x10xf32>
    }
  }
  memref.dealloc %alloc : memref<10x10xf32>
  return
}
