// KERNEL: @floyd_warshall
// PIPELINE tile: --affine-loop-tile='tile-size=2'
// EXPECT tile: invalid output-mismatch
// RUNNER tile: differs
// PIPELINE unroll: --affine-loop-unroll=unroll-factor=2
// EXPECT unroll: valid
// RUNNER unroll: agrees
// BUG: new: affine-loop-tile tiles Floyd-Warshall although a dependence has direction (+, 0, *) (its last component is unbounded below)
//
// Found by corpus/mlir/polybench/floyd-warshall.mlir. MLIR 16's tiling legality check rejects only
// dependence components whose bounds are both known and negative; a component without a lower
// bound passes (compare https://github.com/llvm/llvm-project/pull/196972, exact negative distances).
func.func @floyd_warshall(%path: memref<4x4xi32>) {
  affine.for %k = 0 to 4 {
    affine.for %i = 0 to 4 {
      affine.for %j = 0 to 4 {
        %ij = affine.load %path[%i, %j] : memref<4x4xi32>
        %ik = affine.load %path[%i, %k] : memref<4x4xi32>
        %kj = affine.load %path[%k, %j] : memref<4x4xi32>
        %s = arith.addi %ik, %kj : i32
        %lt = arith.cmpi slt, %ij, %s : i32
        %r = arith.select %lt, %ij, %s : i32
        affine.store %r, %path[%i, %j] : memref<4x4xi32>
      }
    }
  }
  return
}
