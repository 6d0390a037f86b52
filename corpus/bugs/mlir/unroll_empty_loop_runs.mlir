// KERNEL: @empty
// PIPELINE unroll: --affine-loop-unroll
// EXPECT unroll: invalid output-mismatch
// RUNNER unroll: differs
// PIPELINE unroll2: --affine-loop-unroll=unroll-factor=2
// EXPECT unroll2: invalid output-mismatch
// RUNNER unroll2: differs
// PIPELINE normalize: --affine-loop-normalize
// EXPECT normalize: valid
// RUNNER normalize: agrees
// PIPELINE parallel: --affine-parallelize
// EXPECT parallel: valid
// RUNNER parallel: agrees
// BUG: new: affine-loop-unroll runs the body of a loop whose lower bound exceeds its upper bound (an empty loop from i + 1 to 1)
//
// Found by proofs/fuzz/mlir-campaign.ts (seed 3, cases 1 and 4) and shrunk. The inner loop never runs
// (i + 1 >= 1 for i >= 0): C is unchanged. MLIR 16 unrolls it by 4 (or 2) with the unrolled part
// running up to `d0 + ((-d0) floordiv 4) * 4 + 1`: the trip count 1 - (i + 1) = -i is negative and
// its floor-division rounds it to a positive number of unrolled iterations, which store.
func.func @empty(%C: memref<8xi32>) {
  %one = arith.constant 1 : i32
  affine.for %i = 0 to 2 {
    affine.for %j = affine_map<(d0) -> (d0 + 1)>(%i) to 1 {
      affine.store %one, %C[%j + 4] : memref<8xi32>
    }
  }
  return
}
