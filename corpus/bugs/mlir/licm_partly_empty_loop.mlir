// KERNEL: @last
// PIPELINE licm: --affine-loop-invariant-code-motion
// EXPECT licm: invalid output-mismatch
// RUNNER licm: differs
// PIPELINE parallel: --affine-parallelize
// EXPECT parallel: valid
// RUNNER parallel: agrees
// BUG: new: affine-loop-invariant-code-motion hoists a store out of an inner loop that is empty for some iterations of the outer loop (lower bound max(0, i - 2), upper bound 1)
//
// Found by proofs/fuzz/mlir-campaign.ts (seed 11, case 183) and shrunk. The inner loop runs for
// i <= 2 only, so out[0] ends as in[2]; MLIR 16 hoists its load and store into the i loop, where
// they run for i = 3 too: out[0] = in[3]. The tracker's #128273 (fixed in 2026 by
// https://github.com/llvm/llvm-project/pull/189165) is the case of a trip count statically 0; this
// one is 0 only for some i, which that fix does not look at.
func.func @last(%in: memref<4xi32>, %out: memref<1xi32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = max affine_map<(d0) -> (0, d0 - 2)>(%i) to 1 {
      %v = affine.load %in[%i] : memref<4xi32>
      affine.store %v, %out[0] : memref<1xi32>
    }
  }
  return
}
