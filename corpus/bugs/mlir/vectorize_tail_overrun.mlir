// KERNEL: @double_six
// PIPELINE v4: --affine-super-vectorize='virtual-vector-size=4'
// EXPECT v4: invalid output-mismatch
// RUNNER v4: differs
// PIPELINE v2: --affine-super-vectorize='virtual-vector-size=2'
// EXPECT v2: valid
// RUNNER v2: agrees
// BUG: https://github.com/llvm/llvm-project/issues/218120: affine-super-vectorize writes past the iteration space when the trip count is not a multiple of the vector size
func.func @double_six(%m: memref<8xi32>) {
  affine.for %j = 0 to 6 {
    %v = affine.load %m[%j] : memref<8xi32>
    %w = arith.addi %v, %v : i32
    affine.store %w, %m[%j] : memref<8xi32>
  }
  return
}
