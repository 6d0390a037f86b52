// KERNEL: @mixed
// PIPELINE copy: --affine-data-copy-generate='generate-dma=false fast-mem-space=0'
// EXPECT copy: invalid uninitialized-read
// RUNNER copy: differs
// PIPELINE unroll: --affine-loop-unroll=unroll-factor=2
// EXPECT unroll: valid
// RUNNER unroll: agrees
// BUG: https://github.com/llvm/llvm-project/issues/217538: affine-data-copy-generate copies out a fast buffer it never filled when the loop also has a non-affine store
func.func @mixed(%m: memref<4xi32>, %s: i32) {
  %c0 = arith.constant 0 : index
  affine.for %i = 0 to 4 {
    affine.store %s, %m[0] : memref<4xi32>
    memref.store %s, %m[%c0] : memref<4xi32>
  }
  return
}
