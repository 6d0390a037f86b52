// KERNEL: @kernel
// PIPELINE greedy: --pass-pipeline='builtin.module(func.func(affine-loop-fusion))'
// EXPECT greedy: invalid output-mismatch
// RUNNER greedy: differs
// BUG: https://github.com/llvm/llvm-project/issues/212032: affine-loop-fusion moves a consumer write of a[p] before a later producer read of a[1]
func.func @kernel(%a: memref<3xf64>, %c: memref<3xf64>, %scratch: memref<3xf64>) {
  affine.for %p = 1 to 3 {
    %av = affine.load %a[1] : memref<3xf64>
    %cv = affine.load %c[%p] : memref<3xf64>
    %value = arith.mulf %av, %cv : f64
    affine.store %value, %scratch[%p] : memref<3xf64>
  }
  affine.for %p = 1 to 3 {
    %value = affine.load %scratch[%p] : memref<3xf64>
    affine.store %value, %a[%p] : memref<3xf64>
  }
  return
}
