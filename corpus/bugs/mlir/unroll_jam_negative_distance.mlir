// KERNEL: @stencil
// SEED: 1
// PIPELINE uj2: --affine-loop-unroll-jam=unroll-jam-factor=2
// EXPECT uj2: invalid output-mismatch
// RUNNER uj2: differs
// PIPELINE u2: --affine-loop-unroll=unroll-factor=2
// EXPECT u2: valid
// RUNNER u2: agrees
// PIPELINE tile1x2: --affine-loop-tile='tile-sizes=1,2'
// EXPECT tile1x2: valid
// RUNNER tile1x2: agrees
// BUG: https://github.com/llvm/llvm-project/pull/196554: affine-loop-unroll-jam jams a nest whose dependence (1, -1) it reverses
func.func @stencil(%arr: memref<5x5xi32>) {
  affine.for %i = 1 to 5 {
    affine.for %j = 0 to 4 {
      %v = affine.load %arr[%i - 1, %j + 1] : memref<5x5xi32>
      affine.store %v, %arr[%i, %j] : memref<5x5xi32>
    }
  }
  return
}
