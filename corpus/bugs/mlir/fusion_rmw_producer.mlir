// KERNEL: @rmw_producer
// PIPELINE greedy: --pass-pipeline='builtin.module(func.func(affine-loop-fusion))'
// EXPECT greedy: invalid uninitialized-read
// RUNNER greedy: differs
// PIPELINE unroll: --affine-loop-unroll=unroll-factor=3
// EXPECT unroll: valid
// RUNNER unroll: agrees
// BUG: https://github.com/llvm/llvm-project/issues/210490: affine-loop-fusion recomputes an in-place producer inside its consumer, applying the update twice
func.func @rmw_producer(%p: memref<4xf32>, %d: memref<2xf32>, %c: f32) {
  affine.for %i = 0 to 4 {
    %0 = affine.load %p[%i] : memref<4xf32>
    %1 = arith.mulf %0, %c : f32
    affine.store %1, %p[%i] : memref<4xf32>
  }
  affine.for %i = 0 to 2 {
    %0 = affine.load %p[%i] : memref<4xf32>
    affine.store %0, %d[%i] : memref<2xf32>
  }
  return
}
