// KERNEL: @tile_neg
// PIPELINE t22: --affine-loop-tile='tile-sizes=2,2'
// EXPECT t22: invalid output-mismatch
// RUNNER t22: differs
// PIPELINE t12: --affine-loop-tile='tile-sizes=1,2'
// EXPECT t12: valid
// RUNNER t12: agrees
// PIPELINE unroll: --affine-loop-unroll=unroll-full
// EXPECT unroll: valid
// RUNNER unroll: agrees
// BUG: https://github.com/llvm/llvm-project/pull/196972: affine-loop-tile tiles a nest with an exact negative dependence distance
func.func @tile_neg(%arg0: memref<5x5xi32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 1 to 5 {
      %0 = affine.load %arg0[%i + 1, %j - 1] : memref<5x5xi32>
      affine.store %0, %arg0[%i, %j] : memref<5x5xi32>
    }
  }
  return
}
