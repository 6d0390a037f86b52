// KERNEL: @foo
// PIPELINE greedy: --pass-pipeline='builtin.module(func.func(affine-loop-fusion))'
// EXPECT greedy: valid
// RUNNER greedy: agrees
// PIPELINE tile: --affine-loop-tile='tile-size=2'
// EXPECT tile: valid
// RUNNER tile: agrees
//
// From https://github.com/llvm/llvm-project/issues/152077 ("affine-loop-fusion incorrectly fuses
// loops"; the complaint is a constant index in the fused nest). Sizes reduced from 1x40x32x128. MLIR
// 16 fuses the transposing copy into the in-place scaling, and the result is correct.
func.func @foo(%input: memref<1x4x3x5xf32>, %output: memref<1x3x4x5xf32>, %scale: memref<1x1x4x5xf32>) {
  affine.for %i0 = 0 to 1 {
    affine.for %i1 = 0 to 3 {
      affine.for %i2 = 0 to 4 {
        affine.for %i3 = 0 to 5 {
          %val = affine.load %input[%i0, %i2, %i1, %i3] : memref<1x4x3x5xf32>
          affine.store %val, %output[%i0, %i1, %i2, %i3] : memref<1x3x4x5xf32>
        }
      }
    }
  }
  affine.for %i0 = 0 to 1 {
    affine.for %i1 = 0 to 3 {
      affine.for %i2 = 0 to 4 {
        affine.for %i3 = 0 to 5 {
          %val = affine.load %output[%i0, %i1, %i2, %i3] : memref<1x3x4x5xf32>
          %scale_val = affine.load %scale[%i0, 0, %i2, %i3] : memref<1x1x4x5xf32>
          %result = arith.mulf %val, %scale_val : f32
          affine.store %result, %output[%i0, %i1, %i2, %i3] : memref<1x3x4x5xf32>
        }
      }
    }
  }
  return
}
