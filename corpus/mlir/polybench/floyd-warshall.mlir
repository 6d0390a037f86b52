// KERNEL: @kernel_floyd_warshall
// SIZES: N=6 path=NxN
// ASSUME: N >= 0 && path_d0 == N && path_d1 == N
// PIPELINE unroll: --affine-loop-unroll=unroll-factor=3
// EXPECT unroll: valid
// RUNNER unroll: agrees
// PIPELINE copy: --affine-data-copy-generate='generate-dma=false fast-mem-space=0'
// EXPECT copy: valid
// RUNNER copy: agrees
// PIPELINE tile133: --affine-loop-tile='tile-sizes=1,3,3'
// EXPECT tile133: valid
// RUNNER tile133: agrees
// PIPELINE tile113: --affine-loop-tile='tile-sizes=1,1,3'
// EXPECT tile113: valid
// RUNNER tile113: agrees
// PIPELINE tile: --affine-loop-tile='tile-size=3'
// EXPECT tile: invalid output-mismatch
// RUNNER tile: differs
// PIPELINE unrolljam: --affine-loop-unroll-jam=unroll-jam-factor=2
// EXPECT unrolljam: invalid output-mismatch
// RUNNER unrolljam: differs
// PIPELINE tile-unroll: --affine-loop-tile='tile-size=4' --affine-loop-unroll=unroll-factor=2
// EXPECT tile-unroll: invalid output-mismatch
// RUNNER tile-unroll: differs
//
// PolyBench/C 4.2 floyd-warshall: all-pairs shortest paths on i32 weights
// tile: MLIR 16 miscompiles this kernel; an instance of corpus/bugs/mlir/tile_floyd_warshall.mlir (a dependence of direction (+, 0, *) passes the tiling legality check).
// unrolljam: MLIR 16 miscompiles this kernel; an instance of https://github.com/llvm/llvm-project/pull/196554 (unroll-and-jam has no dependence check: iterations k and k+1 are jammed).
// tile-unroll: MLIR 16 miscompiles this kernel; an instance of corpus/bugs/mlir/tile_floyd_warshall.mlir (a dependence of direction (+, 0, *) passes the tiling legality check).
// (path[i][j] < path[i][k] + path[k][j] ? path[i][j] : path[i][k] + path[k][j]).
func.func @kernel_floyd_warshall(%N: index, %path: memref<?x?xi32>) {
  affine.for %k = 0 to %N {
    affine.for %i = 0 to %N {
      affine.for %j = 0 to %N {
        %ij = affine.load %path[%i, %j] : memref<?x?xi32>
        %ik = affine.load %path[%i, %k] : memref<?x?xi32>
        %kj = affine.load %path[%k, %j] : memref<?x?xi32>
        %s = arith.addi %ik, %kj : i32
        %lt = arith.cmpi slt, %ij, %s : i32
        %r = arith.select %lt, %ij, %s : i32
        affine.store %r, %path[%i, %j] : memref<?x?xi32>
      }
    }
  }
  return
}
