// KERNEL: @else_branch
// PIPELINE tile: --affine-loop-tile='tile-size=2'
// EXPECT tile: invalid output-mismatch
// RUNNER tile: differs
// PIPELINE parallel: --affine-parallelize
// EXPECT parallel: invalid race
// RUNNER parallel: agrees
// PIPELINE unroll: --affine-loop-unroll=unroll-factor=2
// EXPECT unroll: valid
// RUNNER unroll: agrees
// BUG: new: MLIR 16's affine dependence analysis gives an operation in the else region of an affine.if the if's condition as its domain: with a condition that never holds it finds no dependence, and affine-loop-tile tiles (affine-parallelize parallelizes) a nest it must not
//
// Found through sched fuzz --compiler mlir (seed 0, case 1145: affine-parallelize made a loop
// parallel whose iterations update one cell, the verifier's race) and reduced by hand. The nest
// without the affine.if is refused by affine-loop-tile ("tiling code is illegal due to
// dependences": A[i][j] reads A[i - 1][j + k], a distance (1, [-2, -1])); with its body in the
// else branch of `i >= 4`, which never holds, it is tiled and 3 cells differ. getIndexSet adds
// every enclosing affine.if's condition (addAffineIfOpDomain) whichever region the op is in, so
// the else branch gets the domain {i >= 4} (empty here) instead of its complement. The runner
// cannot see the race of the parallelized nest (affine.parallel runs sequentially).
func.func @else_branch(%A: memref<4x7xi32>) {
  affine.for %i = 1 to 4 {
    affine.for %j = 0 to 4 {
      affine.for %k = 1 to 3 {
        affine.if affine_set<(d0) : (d0 >= 4)>(%i) {
        } else {
          %a = affine.load %A[%i - 1, %j + %k] : memref<4x7xi32>
          %b = affine.load %A[%i, %j] : memref<4x7xi32>
          %s = arith.addi %a, %b : i32
          affine.store %s, %A[%i, %j] : memref<4x7xi32>
        }
      }
    }
  }
  return
}
