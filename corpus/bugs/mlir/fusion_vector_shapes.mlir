// KERNEL: @vec
// PIPELINE greedy: --pass-pipeline='builtin.module(func.func(affine-loop-fusion))'
// EXPECT greedy: invalid out-of-bounds
// RUNNER greedy: differs
// BUG: https://github.com/llvm/llvm-project/issues/115849: affine-loop-fusion fuses a vector producer into a consumer whose wider vector load needs all of the producer's iterations
func.func @vec(%a: memref<16xf32>, %b: memref<16xf32>, %c: memref<16xf32>, %d: memref<64xf32>) {
  affine.for %j = 0 to 4 {
    %lhs = affine.vector_load %a[%j * 4] : memref<16xf32>, vector<4xf32>
    %rhs = affine.vector_load %b[%j * 4] : memref<16xf32>, vector<4xf32>
    %res = arith.addf %lhs, %rhs : vector<4xf32>
    affine.vector_store %res, %c[%j * 4] : memref<16xf32>, vector<4xf32>
  }
  affine.for %j = 0 to 4 {
    %lhs = affine.vector_load %c[0] : memref<16xf32>, vector<16xf32>
    %rhs = affine.vector_load %d[%j * 16] : memref<64xf32>, vector<16xf32>
    %res = arith.subf %lhs, %rhs : vector<16xf32>
    affine.vector_store %res, %d[%j * 16] : memref<64xf32>, vector<16xf32>
  }
  return
}
