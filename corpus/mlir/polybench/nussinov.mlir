// KERNEL: @kernel_nussinov
// SIZES: N=8 seq=N table=NxN
// ASSUME: N >= 0 && seq_d0 == N && table_d0 == N && table_d1 == N
// PIPELINE unroll: --affine-loop-unroll=unroll-factor=3
// EXPECT unroll: valid
// RUNNER unroll: agrees
// PIPELINE copy: --affine-data-copy-generate='generate-dma=false fast-mem-space=0'
// EXPECT copy: valid
// RUNNER copy: agrees
// PIPELINE tile-unroll: --affine-loop-tile='tile-size=4' --affine-loop-unroll=unroll-factor=2
// EXPECT tile-unroll: valid
// RUNNER tile-unroll: agrees
// PIPELINE normalize: --affine-loop-normalize
// EXPECT normalize: invalid output-mismatch
// RUNNER normalize: differs
//
// PolyBench/C 4.2 nussinov: RNA folding by dynamic programming, i from N-1 down to 0 (written as
// i = N-1-ii), the guards of the C code as affine.if, max_score as arith.maxsi, match(b1, b2) =
// (b1 + b2 == 3).
// normalize: MLIR 16 miscompiles this kernel; an instance of corpus/bugs/mlir/normalize_bound_operands.mlir (the k loop, from i + 1 to j, gets the trip count j - (j + 1)).
#rev = affine_map<(d0)[s0] -> (s0 - 1 - d0)>
#next = affine_map<(d0)[s0] -> (s0 - d0)>
#jm1 = affine_map<(d0) -> (d0 - 1)>
#ip1 = affine_map<(d0) -> (d0 + 1)>
#jge1 = affine_set<(d0) : (d0 - 1 >= 0)>
#iltn = affine_set<(d0)[s0] : (s0 - d0 - 2 >= 0)>
#both = affine_set<(d0, d1)[s0] : (d1 - 1 >= 0, s0 - d0 - 2 >= 0)>
#iltjm1 = affine_set<(d0, d1) : (d1 - d0 - 2 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @kernel_nussinov(%N: index, %seq: memref<?xi8>, %table: memref<?x?xi32>) {
  %c3 = arith.constant 3 : i8
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  affine.for %ii = 0 to %N {
    %i = affine.apply #rev(%ii)[%N]
    affine.for %j = #next(%ii)[%N] to %N {
      affine.if #jge1(%j) {
        %t = affine.load %table[%i, %j] : memref<?x?xi32>
        %w = affine.load %table[%i, %j - 1] : memref<?x?xi32>
        %m = arith.maxsi %t, %w : i32
        affine.store %m, %table[%i, %j] : memref<?x?xi32>
      }
      affine.if #iltn(%i)[%N] {
        %t = affine.load %table[%i, %j] : memref<?x?xi32>
        %s = affine.load %table[%i + 1, %j] : memref<?x?xi32>
        %m = arith.maxsi %t, %s : i32
        affine.store %m, %table[%i, %j] : memref<?x?xi32>
      }
      affine.if #both(%i, %j)[%N] {
        affine.if #iltjm1(%i, %j) {
          %t = affine.load %table[%i, %j] : memref<?x?xi32>
          %d = affine.load %table[%i + 1, %j - 1] : memref<?x?xi32>
          %si = affine.load %seq[%i] : memref<?xi8>
          %sj = affine.load %seq[%j] : memref<?xi8>
          %sum = arith.addi %si, %sj : i8
          %eq = arith.cmpi eq, %sum, %c3 : i8
          %match = arith.select %eq, %one, %zero : i32
          %dm = arith.addi %d, %match : i32
          %m = arith.maxsi %t, %dm : i32
          affine.store %m, %table[%i, %j] : memref<?x?xi32>
        } else {
          %t = affine.load %table[%i, %j] : memref<?x?xi32>
          %d = affine.load %table[%i + 1, %j - 1] : memref<?x?xi32>
          %m = arith.maxsi %t, %d : i32
          affine.store %m, %table[%i, %j] : memref<?x?xi32>
        }
      }
      affine.for %k = #ip1(%i) to #id(%j) {
        %t = affine.load %table[%i, %j] : memref<?x?xi32>
        %a = affine.load %table[%i, %k] : memref<?x?xi32>
        %b = affine.load %table[%k + 1, %j] : memref<?x?xi32>
        %s = arith.addi %a, %b : i32
        %m = arith.maxsi %t, %s : i32
        affine.store %m, %table[%i, %j] : memref<?x?xi32>
      }
    }
  }
  return
}
