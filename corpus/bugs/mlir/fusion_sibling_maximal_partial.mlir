// KERNEL: @partial
// PIPELINE sibmax: --pass-pipeline='builtin.module(func.func(affine-loop-fusion{mode=sibling fusion-maximal}))'
// EXPECT sibmax: invalid output-mismatch
// RUNNER sibmax: differs
// PIPELINE sibling: --pass-pipeline='builtin.module(func.func(affine-loop-fusion{mode=sibling}))'
// EXPECT sibling: valid
// RUNNER sibling: agrees
// BUG: https://github.com/llvm/llvm-project/issues/48703: sibling affine-loop-fusion with fusion-maximal fuses a sibling through a slice that covers only part of its iterations and erases the sibling (fixed upstream by PR #126626, still in MLIR 16)
//
// Found by sched fuzz --compiler mlir (seed 0, case 1760, under greedy fusion-maximal after a
// producer-consumer fusion) and shrunk by hand. Both loops read A; the second reads A[0] only, so
// the slice of the first loop it computes is the iteration i = 0. MLIR 16 inserts that slice into
// the second loop and erases the first: B[1] is never written. PR #126626 (2025) made sibling
// fusion check that the slice is maximal, as producer-consumer fusion did.
func.func @partial(%A: memref<2xi32>, %B: memref<2xi32>, %C: memref<1xi32>) {
  affine.for %i = 0 to 2 {
    %v = affine.load %A[%i] : memref<2xi32>
    affine.store %v, %B[%i] : memref<2xi32>
  }
  affine.for %k = 0 to 1 {
    %v = affine.load %A[0] : memref<2xi32>
    affine.store %v, %C[%k] : memref<1xi32>
  }
  return
}
