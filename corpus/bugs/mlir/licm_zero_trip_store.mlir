// KERNEL: @zero_trip
// PIPELINE licm: --affine-loop-invariant-code-motion
// EXPECT licm: invalid output-mismatch
// RUNNER licm: differs
// BUG: https://github.com/llvm/llvm-project/issues/128273: affine-loop-invariant-code-motion hoists a store out of a loop that runs zero times
func.func @zero_trip(%m: memref<1xi32>, %v: i32) {
  affine.for %i = 0 to 0 {
    affine.store %v, %m[0] : memref<1xi32>
  }
  return
}
