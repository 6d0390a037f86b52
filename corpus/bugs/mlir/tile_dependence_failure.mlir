// KERNEL: @unknown_dependence
// SIZES: A=1x9x9 p=0 q=3
// PIPELINE t4: --affine-loop-tile='tile-size=4'
// EXPECT t4: invalid output-mismatch
// RUNNER t4: differs
// BUG: https://github.com/llvm/llvm-project/issues/210585: affine-loop-tile proceeds when dependence analysis fails (a semi-affine subscript)
#dynamic_index = affine_map<()[s0, s1] -> (s0 * s1)>
func.func @unknown_dependence(%A: memref<?x9x9xi32>, %B: memref<9x9xi32>, %p: index, %q: index, %value: i32) {
  affine.for %i = 1 to 8 {
    affine.for %j = 1 to 8 {
      %z = affine.apply #dynamic_index()[%p, %q]
      affine.store %value, %A[%z, %i, %j] : memref<?x9x9xi32>
      %loaded = affine.load %A[%z, %i - 1, %j + 1] : memref<?x9x9xi32>
      affine.store %loaded, %B[%i, %j] : memref<9x9xi32>
    }
  }
  return
}
