// KERNEL: @count
// PIPELINE normalize: --affine-loop-normalize
// EXPECT normalize: invalid output-mismatch
// RUNNER normalize: differs
// PIPELINE unroll: --affine-loop-unroll=unroll-factor=2
// EXPECT unroll: valid
// RUNNER unroll: agrees
// BUG: new: affine-loop-normalize gives `affine.for %k = (d0)(%i) to (d0)(%j)` the trip count 0 (it subtracts the bound maps as if their operands were the same)
//
// Found by corpus/mlir/polybench/nussinov.mlir (its k loop runs from i + 1 to j). MLIR 16 rewrites the
// inner loop to `affine.for %k = 0 to 0`: no cell is ever incremented.
#id = affine_map<(d0) -> (d0)>
func.func @count(%out: memref<4x8xi32>) {
  %one = arith.constant 1 : i32
  affine.for %i = 0 to 4 {
    affine.for %j = 4 to 8 {
      affine.for %k = #id(%i) to #id(%j) {
        %v = affine.load %out[%i, %j] : memref<4x8xi32>
        %w = arith.addi %v, %one : i32
        affine.store %w, %out[%i, %j] : memref<4x8xi32>
      }
    }
  }
  return
}
