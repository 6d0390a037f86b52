// KERNEL: @red3_flat_init
// PIPELINE greedy: --pass-pipeline='builtin.module(func.func(affine-loop-fusion))'
// EXPECT greedy: invalid output-mismatch
// RUNNER greedy: differs
// BUG: https://github.com/llvm/llvm-project/pull/196604: affine-loop-fusion places initialising stores where they re-execute and clobber cells the consumer already updated
func.func @red3_flat_init(%a: memref<2x3x4xi32>, %out: memref<2x3xi32>) {
  %z = arith.constant 0 : i32
  affine.for %i = 0 to 2 {
    affine.store %z, %out[%i, 0] : memref<2x3xi32>
    affine.store %z, %out[%i, 1] : memref<2x3xi32>
    affine.store %z, %out[%i, 2] : memref<2x3xi32>
  }
  affine.for %i0 = 0 to 2 {
    affine.for %i1 = 0 to 3 {
      affine.for %i2 = 0 to 4 {
        %0 = affine.load %a[%i0, %i1, %i2] : memref<2x3x4xi32>
        %1 = affine.load %out[%i0, %i1] : memref<2x3xi32>
        %2 = arith.addi %0, %1 : i32
        affine.store %2, %out[%i0, %i1] : memref<2x3xi32>
      }
    }
  }
  return
}
