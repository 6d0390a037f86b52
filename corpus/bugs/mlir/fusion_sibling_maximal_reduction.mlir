// KERNEL: @f
// PIPELINE sibmax: --pass-pipeline='builtin.module(func.func(affine-loop-fusion{mode=sibling fusion-maximal}))'
// EXPECT sibmax: invalid output-mismatch
// RUNNER sibmax: differs
// PIPELINE sibling: --pass-pipeline='builtin.module(func.func(affine-loop-fusion{mode=sibling}))'
// EXPECT sibling: valid
// RUNNER sibling: agrees
// BUG: https://github.com/llvm/llvm-project/issues/61820: sibling affine-loop-fusion with fusion-maximal nests a whole reduction loop inside its sibling, repeating the reduction
func.func @f(%input : memref<10xf32>, %output : memref<10xf32>, %reduc : memref<10xf32>) {
  %one = arith.constant 1. : f32
  affine.for %i = 0 to 10 {
    %0 = affine.load %input[%i] : memref<10xf32>
    %2 = arith.addf %0, %one : f32
    affine.store %2, %output[%i] : memref<10xf32>
  }
  affine.for %i = 0 to 10 {
    %0 = affine.load %input[%i] : memref<10xf32>
    %1 = affine.load %reduc[0] : memref<10xf32>
    %2 = arith.addf %0, %1 : f32
    affine.store %2, %reduc[0] : memref<10xf32>
  }
  return
}
